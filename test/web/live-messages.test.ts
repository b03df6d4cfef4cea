import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseLiveMessage } from '../../web/src/lib/live-socket';

const AUCTION_ID = '6f1c2d1e-0a43-4d5e-9b8f-0c1d2e3f4a5b';

/** The auction's summary, as every message about it carries it. */
const auction = {
  auctionId: AUCTION_ID,
  listingId: 'l-1',
  status: 'ACTIVE',
  isActive: true,
  startsAt: '2026-12-01T12:00:00.000Z',
  endsAt: '2026-12-08T12:00:00.000Z',
  currentPrice: 51,
  currentLeaderId: 'u-2',
  minimumBid: 52,
  bidCount: 1,
  reserveMet: null,
  buyNowPrice: null,
  buyNowAvailable: false,
  incrementTable: [{ from: 0, increment: 1 }],
  softClose: null,
  buyersPremiumPercent: 20,
  paymentWindowHours: 168,
  result: null,
  winnerId: null,
  finalPrice: null,
  version: 3,
};

const bidPlaced = {
  type: 'bid_placed',
  auctionId: AUCTION_ID,
  auction,
  auctionData: { currentPrice: 51, currentLeaderId: 'u-2', status: 'ACTIVE', minimumBid: 52, endsAt: '2026-12-08T12:00:00.000Z' },
  bidData: { bidId: 'b-1', bidderId: 'u-2', amount: 51, placedAt: '2026-12-03T12:00:00.000Z', status: 'ACCEPTED', kind: 'BID' },
};

describe('live messages are checked against the contract before the panel sees them', () => {
  afterEach(() => vi.restoreAllMocks());

  it('passes every message the server may send', () => {
    expect(parseLiveMessage(JSON.stringify(bidPlaced))).toEqual(bidPlaced);
    expect(parseLiveMessage(JSON.stringify({ type: 'subscribed', auctionId: AUCTION_ID }))).toEqual({ type: 'subscribed', auctionId: AUCTION_ID });
    const closed = { type: 'auction_closed', auctionId: AUCTION_ID, result: 'SOLD', winnerId: 'u-2', finalPrice: 51, closedAt: '2026-12-08T12:00:00.000Z', auction: { ...auction, status: 'ENDED', result: 'SOLD', version: 4 } };
    expect(parseLiveMessage(JSON.stringify(closed))).toEqual(closed);
    const retracted = { type: 'bid_retracted', auctionId: AUCTION_ID, bidId: 'b-1', auctionData: { currentPrice: 50, currentLeaderId: null, status: 'ACTIVE', minimumBid: 51 }, auction: { ...auction, version: 4 } };
    expect(parseLiveMessage(JSON.stringify(retracted))).toEqual(retracted);
  });

  it.each([
    ['text that is not JSON', '{"type":"bid_placed",'],
    ['a JSON value that is not a message', '42'],
    ['a message type this build does not know', JSON.stringify({ type: 'auction_relisted', auctionId: AUCTION_ID })],
    ['a price that is not a number', JSON.stringify({ ...bidPlaced, auctionData: { ...bidPlaced.auctionData, currentPrice: '51.00' } })],
    ['a status outside the auction statuses', JSON.stringify({ ...bidPlaced, auctionData: { ...bidPlaced.auctionData, status: 'PAUSED' } })],
    ['a bid_placed without its bid', JSON.stringify({ ...bidPlaced, bidData: undefined })],
    ['a message without the auction summary', JSON.stringify({ ...bidPlaced, auction: undefined })],
    ['a summary without its version', JSON.stringify({ ...bidPlaced, auction: { ...auction, version: undefined } })],
    ['a closing result outside the three', JSON.stringify({ type: 'auction_closed', auctionId: AUCTION_ID, result: 'WON', winnerId: null, finalPrice: null, closedAt: '2026-12-08T12:00:00.000Z' })],
  ])('drops %s, and says so in development', (_what, frame) => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    expect(parseLiveMessage(frame)).toBeNull();
    expect(warn).toHaveBeenCalledTimes(import.meta.env.DEV ? 1 : 0);
  });
});

import { describe, expect, test } from 'vitest';
import { admin, auctionClosed, auctionScheduled, buyer, cancelAuction, closeAuction, ENDS_AT, liveAuction, placeBid, plusSeconds } from '../fixtures';
import { after, auction, stateOf } from './auction-spec';

describe('CloseAuction', () => {
  test('at the end, with a leader and no reserve: SOLD to the leader at the current price', () => {
    // alice leads with a $80.00 maximum; bob's $60.00 is answered at $61.00.
    const history = after(liveAuction(), placeBid('alice', 5_100, { maximum: 8_000 }), placeBid('bob', 6_000));
    const close = closeAuction(ENDS_AT);
    auction
      .given(history)
      .when(close)
      .thenEvents([auctionClosed(close, { result: 'SOLD', winnerId: 'alice', winningBidId: 'alice-5100', finalPrice: 6_100 })]);
  });

  test('the winning bid is the submission whose maximum leads (a raised maximum)', () => {
    const history = after(
      liveAuction(),
      placeBid('alice', 5_100, { maximum: 8_000 }),
      placeBid('alice', 5_200, { maximum: 12_000, bidId: 'alice-raise' }),
      placeBid('bob', 9_000),
    );
    auction
      .given(history)
      .when(closeAuction())
      .thenEventsMatch([{ type: 'AuctionClosed', data: { result: 'SOLD', winnerId: 'alice', winningBidId: 'alice-raise', finalPrice: 9_100 } }]);
  });

  test('with no bids: NO_BIDS, no winner, no price', () => {
    const close = closeAuction();
    auction
      .given(liveAuction())
      .when(close)
      .thenEvents([auctionClosed(close, { result: 'NO_BIDS', winnerId: null, winningBidId: null, finalPrice: null })]);
  });

  test('with the reserve unmet: RESERVE_NOT_MET, no winner, no price', () => {
    auction
      .given(after(liveAuction({ reservePrice: 10_000 }), placeBid('alice', 6_000)))
      .when(closeAuction())
      .thenEventsMatch([{ type: 'AuctionClosed', data: { result: 'RESERVE_NOT_MET', winnerId: null, winningBidId: null, finalPrice: null } }]);
  });

  test('with the reserve met: SOLD at the reserve-lifted price', () => {
    auction
      .given(after(liveAuction({ reservePrice: 10_000 }), placeBid('alice', 6_000, { maximum: 15_000 })))
      .when(closeAuction())
      .thenEventsMatch([{ type: 'AuctionClosed', data: { result: 'SOLD', winnerId: 'alice', winningBidId: 'alice-6000', finalPrice: 10_000 } }]);
  });

  test('before the end: AUCTION_NOT_OVER', () => {
    const error = auction
      .given(liveAuction())
      .when(closeAuction(plusSeconds(ENDS_AT, -1)))
      .thenError('AUCTION_NOT_OVER', 'Auction has not reached its end yet');
    expect(error.details).toEqual({ endsAt: ENDS_AT });
  });

  test('before an extended end: AUCTION_NOT_OVER; at it: closes', () => {
    const history = after(
      liveAuction({ softClose: { windowSeconds: 600, latestEndsAt: plusSeconds(ENDS_AT, 3_600) } }),
      placeBid('alice', 6_000, { at: plusSeconds(ENDS_AT, -300) }),
    );
    auction
      .given(history)
      .when(closeAuction(ENDS_AT))
      .thenError('AUCTION_NOT_OVER', 'Auction has not reached its end yet');
    auction
      .given(history)
      .when(closeAuction('2026-12-08T12:05:00.000Z'))
      .thenEventsMatch([{ type: 'AuctionClosed', data: { closedAt: '2026-12-08T12:05:00.000Z', result: 'SOLD' } }]);
  });

  test('an auction closes exactly once: AUCTION_ALREADY_CLOSED', () => {
    auction
      .given(after(liveAuction(), closeAuction()))
      .when(closeAuction(plusSeconds(ENDS_AT, 5)))
      .thenError('AUCTION_ALREADY_CLOSED', 'Auction has already closed');
  });

  test('a pending auction past its end closes with NO_BIDS', () => {
    auction
      .given([auctionScheduled()])
      .when(closeAuction(plusSeconds(ENDS_AT, 60)))
      .thenEventsMatch([{ type: 'AuctionClosed', data: { result: 'NO_BIDS', closedBy: 'TIME', winnerId: null } }]);
  });

  test('an admin may close; a buyer may not: FORBIDDEN', () => {
    auction.given(liveAuction()).when(closeAuction(ENDS_AT, admin)).thenEventsMatch([{ type: 'AuctionClosed' }]);
    auction.given(liveAuction()).when(closeAuction(ENDS_AT, buyer('alice'))).thenError('FORBIDDEN', 'Access denied');
  });

  test('a cancelled auction cannot be closed: AUCTION_CANCELLED', () => {
    auction
      .given(after(liveAuction(), cancelAuction('Consignor withdrew')))
      .when(closeAuction())
      .thenError('AUCTION_CANCELLED', 'This auction was cancelled');
  });

  test('an unknown auction: AUCTION_NOT_FOUND', () => {
    auction.given([]).when(closeAuction()).thenError('AUCTION_NOT_FOUND', 'Auction not found');
  });

  test('the closed state keeps the closing', () => {
    const state = stateOf(after(liveAuction(), placeBid('alice', 6_000), closeAuction()));
    expect(state.status).toBe('ENDED');
    if (state.status !== 'ENDED') return;
    expect(state.closing).toMatchObject({ result: 'SOLD', winnerId: 'alice', finalPrice: 6_000 });
  });
});

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromCallback, fromPromise } from 'xstate';
import { ApiError } from '../../web/src/lib/api-client';
import { formatTimeLeft } from '../../web/src/lib/time-left';
import type { Auction, Bid, BidRequest, PlacedBid, Purchase } from '../../web/src/features/listing/api';
import type { Snapshot } from '../../web/src/features/listing/auction/auction-facts';
import { auctionPanelMachine, canBid, MAX_RECONNECT_ATTEMPTS, RECONNECT_DELAY_MS } from '../../web/src/features/listing/auction/auction-panel-machine';
import { bidderLabel, BID_SUCCESS_MESSAGE, saleTerms, statusLabel } from '../../web/src/features/listing/auction/panel-labels';
import type { FeedEvent, FeedInput, LiveMessage } from '../../web/src/features/listing/auction/live-messages';

const NOW = Date.parse('2032-03-01T12:00:00.000Z');
const AUCTION_ID = '7b0d3c1e-2a4f-4b7e-9c1d-0f5e6a7b8c9d';
const ME = 'user-me-0000-aaaa';

function auction(overrides: Partial<Auction> = {}): Auction {
  return {
    auctionId: AUCTION_ID,
    listingId: 'listing-1',
    status: 'ACTIVE',
    isActive: true,
    startsAt: new Date(NOW - 60_000).toISOString(),
    endsAt: new Date(NOW + 2 * 86_400_000).toISOString(),
    currentPrice: 250,
    currentLeaderId: 'someone-else-3f2a',
    minimumBid: 252,
    bidCount: 1,
    reserveMet: null,
    buyNowPrice: null,
    buyNowAvailable: false,
    incrementTable: [{ from: 0, increment: 2 }],
    softClose: null,
    buyersPremiumPercent: 20,
    paymentWindowHours: 168,
    result: null,
    winnerId: null,
    finalPrice: null,
    version: 5,
    ...overrides,
  };
}

const ENDS_AT = new Date(NOW + 2 * 86_400_000).toISOString();

interface FakeFeed {
  readonly input: FeedInput;
  readonly send: (event: FeedEvent) => void;
  stopped: boolean;
}

interface Options {
  auction?: Auction;
  userId?: string | null;
  snapshot?: () => Promise<Snapshot>;
  placeBid?: (request: BidRequest) => Promise<PlacedBid>;
  buyNow?: () => Promise<Purchase>;
}

function start(options: Options = {}) {
  const feeds: FakeFeed[] = [];
  const bidRequests: BidRequest[] = [];
  const purchases: Array<{ auctionId: string; idempotencyKey: string }> = [];
  let loads = 0;
  const machine = auctionPanelMachine.provide({
    actors: {
      // The WebSocket, as a callback actor the test drives.
      liveFeed: fromCallback<{ type: 'NONE' }, FeedInput>(({ sendBack, input }) => {
        const feed: FakeFeed = { input, send: sendBack, stopped: false };
        feeds.push(feed);
        return () => {
          feed.stopped = true;
        };
      }),
      loadSnapshot: fromPromise<Snapshot, { listingKey: string; auctionId: string }>(async () => {
        loads += 1;
        return options.snapshot ? options.snapshot() : { auction: null, bids: [] };
      }),
      placeBid: fromPromise<PlacedBid, BidRequest>(async ({ input }) => {
        bidRequests.push(input);
        if (!options.placeBid) throw new Error('no placeBid');
        return options.placeBid(input);
      }),
      buyNow: fromPromise<Purchase, { auctionId: string; idempotencyKey: string }>(async ({ input }) => {
        purchases.push(input);
        if (!options.buyNow) throw new Error('no buyNow');
        return options.buyNow();
      }),
    },
  });
  const actor = createActor(machine, { input: { listingKey: 'slug-1', auction: options.auction ?? auction(), userId: options.userId === undefined ? ME : options.userId } });
  const emitted: unknown[] = [];
  actor.on('signInRequired', (event) => emitted.push(event));
  actor.start();
  const lastFeed = () => feeds[feeds.length - 1]!;
  return {
    actor,
    feeds,
    bidRequests,
    purchases,
    emitted,
    loads: () => loads,
    lastFeed,
    context: () => actor.getSnapshot().context,
    connection: () => actor.getSnapshot().value as { connection: unknown },
    live: (message: LiveMessage) => lastFeed().send({ type: 'FEED.MESSAGE', message }),
  };
}

function placed(amount: number, overrides: Partial<PlacedBid['auction']> = {}): PlacedBid {
  return {
    id: `bid-${amount}`,
    bidderId: ME,
    amount,
    maxAmount: null,
    placedAt: new Date(Date.now()).toISOString(),
    status: 'ACCEPTED',
    kind: 'BID',
    auctionId: AUCTION_ID,
    auction: { currentPrice: amount, currentLeaderId: ME, status: 'ACTIVE', minimumBid: amount + 2, endsAt: ENDS_AT, ...overrides },
    receipt: receipt(`bid-${amount}`, amount),
  };
}

/** A receipt as the API signs it; the panel only hands it on. */
function receipt(bidId: string, amount: number): PlacedBid['receipt'] {
  const hash = 'ab'.repeat(32);
  return {
    format: 'provenance.bid-receipt.v2',
    auctionId: AUCTION_ID,
    bidId,
    streamId: `auction-${AUCTION_ID}`,
    revision: 3,
    amount,
    placedAt: new Date(Date.now()).toISOString(),
    hash,
    previousHash: null,
    keyId: 'ed25519-0123456789abcdef',
    batch: { size: 1, index: 0, auditPath: [] },
    signature: 'sig',
  };
}

/** A bid as the live feed tells it: the n-th after the fixture's, with the auction's summary one version on. */
function bidPlaced(n: number, bidderId = `bidder-${n}-beef`, amount = 250 + n * 10): LiveMessage {
  const figures = { currentPrice: amount, currentLeaderId: bidderId, minimumBid: amount + 2 };
  return {
    type: 'bid_placed',
    auctionId: AUCTION_ID,
    auctionData: { ...figures, status: 'ACTIVE', endsAt: ENDS_AT },
    auction: auction({ ...figures, bidCount: 1 + n, version: 5 + n }),
    bidData: { bidId: `bid-${n}`, bidderId, amount, placedAt: new Date(NOW + n * 1000).toISOString(), status: 'ACCEPTED', kind: 'BID' },
  };
}

beforeEach(() => {
  vi.useFakeTimers({ now: NOW });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('the live connection', () => {
  it('connects when the panel opens, subscribed to its auction; "subscribed" makes it live and re-reads the auction', async () => {
    const panel = start();
    expect(panel.feeds).toHaveLength(1);
    expect(panel.lastFeed().input).toEqual({ auctionId: AUCTION_ID });
    expect(panel.actor.getSnapshot().matches({ connection: { online: 'connecting' } })).toBe(true);
    await vi.advanceTimersByTimeAsync(0);
    expect(panel.loads()).toBe(1);
    panel.lastFeed().send({ type: 'FEED.SUBSCRIBED' });
    expect(panel.actor.getSnapshot().matches({ connection: { online: 'live' } })).toBe(true);
    await vi.advanceTimersByTimeAsync(0);
    expect(panel.loads()).toBe(2);
  });

  it('reconnects 3000 ms after an abnormal close (1006), and re-reads what was missed once subscribed again', async () => {
    const panel = start();
    panel.lastFeed().send({ type: 'FEED.SUBSCRIBED' });
    await vi.advanceTimersByTimeAsync(0);
    const loadsBefore = panel.loads();
    panel.lastFeed().send({ type: 'FEED.CLOSED', code: 1006 });
    expect(panel.feeds[0]!.stopped).toBe(true);
    expect(panel.actor.getSnapshot().matches({ connection: 'waiting' })).toBe(true);
    await vi.advanceTimersByTimeAsync(RECONNECT_DELAY_MS - 1);
    expect(panel.feeds).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(panel.feeds).toHaveLength(2);
    expect(panel.context().attempts).toBe(1);
    panel.lastFeed().send({ type: 'FEED.SUBSCRIBED' });
    await vi.advanceTimersByTimeAsync(0);
    expect(panel.loads()).toBe(loadsBefore + 1);
    expect(panel.context().attempts).toBe(0);
  });

  it('makes at most 5 attempts, then gives up until Reconnect is pressed', async () => {
    const panel = start();
    for (let attempt = 1; attempt <= MAX_RECONNECT_ATTEMPTS; attempt++) {
      panel.lastFeed().send({ type: 'FEED.CLOSED', code: 1006 });
      await vi.advanceTimersByTimeAsync(RECONNECT_DELAY_MS);
      expect(panel.feeds).toHaveLength(1 + attempt);
    }
    panel.lastFeed().send({ type: 'FEED.CLOSED', code: 1006 });
    expect(panel.actor.getSnapshot().matches({ connection: 'gaveUp' })).toBe(true);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(panel.feeds).toHaveLength(1 + MAX_RECONNECT_ATTEMPTS);
    panel.actor.send({ type: 'RECONNECT' });
    expect(panel.feeds).toHaveLength(2 + MAX_RECONNECT_ATTEMPTS);
    expect(panel.context().attempts).toBe(0);
  });

  it('resets the attempt counter after a successful reconnect', async () => {
    const panel = start();
    for (let attempt = 1; attempt <= 4; attempt++) {
      panel.lastFeed().send({ type: 'FEED.CLOSED', code: 1006 });
      await vi.advanceTimersByTimeAsync(RECONNECT_DELAY_MS);
    }
    expect(panel.context().attempts).toBe(4);
    panel.lastFeed().send({ type: 'FEED.SUBSCRIBED' });
    expect(panel.context().attempts).toBe(0);
    // Five more attempts are allowed again.
    for (let attempt = 1; attempt <= MAX_RECONNECT_ATTEMPTS; attempt++) {
      panel.lastFeed().send({ type: 'FEED.CLOSED', code: 1006 });
      expect(panel.actor.getSnapshot().matches({ connection: 'waiting' })).toBe(true);
      await vi.advanceTimersByTimeAsync(RECONNECT_DELAY_MS);
    }
    panel.lastFeed().send({ type: 'FEED.CLOSED', code: 1006 });
    expect(panel.actor.getSnapshot().matches({ connection: 'gaveUp' })).toBe(true);
  });

  it('does not reconnect after a normal close (1000)', async () => {
    const panel = start();
    panel.lastFeed().send({ type: 'FEED.SUBSCRIBED' });
    panel.lastFeed().send({ type: 'FEED.CLOSED', code: 1000 });
    expect(panel.actor.getSnapshot().matches({ connection: 'closed' })).toBe(true);
    await vi.advanceTimersByTimeAsync(10 * RECONNECT_DELAY_MS);
    expect(panel.feeds).toHaveLength(1);
  });

  it('closes the socket when the panel goes away', () => {
    const panel = start();
    panel.actor.stop();
    expect(panel.feeds[0]!.stopped).toBe(true);
  });
});

describe('the countdown', () => {
  it('formats "Ended", "Xd Yh Zm", "Yh Zm" and "Zm"', () => {
    expect(formatTimeLeft(new Date(NOW + ((2 * 24 + 3) * 60 + 4) * 60_000).toISOString(), NOW)).toBe('2d 3h 4m');
    expect(formatTimeLeft(new Date(NOW + (5 * 60 + 6) * 60_000).toISOString(), NOW)).toBe('5h 6m');
    expect(formatTimeLeft(new Date(NOW + 7 * 60_000 + 5_000).toISOString(), NOW)).toBe('7m');
    expect(formatTimeLeft(new Date(NOW).toISOString(), NOW)).toBe('Ended');
    expect(formatTimeLeft(new Date(NOW - 1).toISOString(), NOW)).toBe('Ended');
  });

  it('refreshes every 60 s, then every second in the final minute, and stops at the end', async () => {
    const endsAt = new Date(NOW + 4 * 60_000).toISOString();
    const panel = start({ auction: auction({ endsAt }) });
    const shown = () => formatTimeLeft(endsAt, panel.context().now);
    expect(shown()).toBe('4m');
    await vi.advanceTimersByTimeAsync(59_999);
    expect(panel.context().now).toBe(NOW);
    await vi.advanceTimersByTimeAsync(1);
    expect(panel.context().now).toBe(NOW + 60_000);
    expect(shown()).toBe('3m');
    await vi.advanceTimersByTimeAsync(2 * 60_000);
    expect(panel.context().now).toBe(NOW + 3 * 60_000);
    expect(shown()).toBe('1m');
    // The final minute: every second.
    await vi.advanceTimersByTimeAsync(1000);
    expect(panel.context().now).toBe(NOW + 3 * 60_000 + 1000);
    await vi.advanceTimersByTimeAsync(1000);
    expect(panel.context().now).toBe(NOW + 3 * 60_000 + 2000);
    expect(canBid(panel.context())).toBe(true);
    await vi.advanceTimersByTimeAsync(58_000);
    expect(shown()).toBe('Ended');
    expect(canBid(panel.context())).toBe(false);
    expect(panel.actor.getSnapshot().matches({ clock: 'stopped' })).toBe(true);
  });

  it('follows a soft-close extension live: the end moves and bidding stays open', async () => {
    const endsAt = new Date(NOW + 30_000).toISOString();
    const panel = start({ auction: auction({ endsAt }) });
    const extended = new Date(NOW + 15 * 60_000).toISOString();
    panel.live({ type: 'auction_extended', auctionId: AUCTION_ID, endsAt: extended, previousEndsAt: endsAt, auction: auction({ endsAt: extended, version: 6 }) });
    expect(panel.context().auction.endsAt).toBe(extended);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(canBid(panel.context())).toBe(true);
    expect(formatTimeLeft(panel.context().auction.endsAt, panel.context().now)).toBe('14m');
  });

  it('says "Live Auction", "Starting Soon" or the raw status', () => {
    expect(statusLabel('ACTIVE')).toBe('Live Auction');
    expect(statusLabel('PENDING')).toBe('Starting Soon');
    expect(statusLabel('CANCELLED')).toBe('CANCELLED');
  });

  it('states the sale terms fixed at publish: the premium and how soon the winner pays', () => {
    expect(saleTerms({ buyersPremiumPercent: 20, paymentWindowHours: 168 })).toBe(
      "The winner pays a 20% buyer's premium and shipping on top of the hammer price, by bank transfer within 7 days of the close.",
    );
    expect(saleTerms({ buyersPremiumPercent: 12.5, paymentWindowHours: 36 })).toContain('12.5% buyer\'s premium and shipping on top of the hammer price, by bank transfer within 36 hours');
    expect(saleTerms({ buyersPremiumPercent: 0, paymentWindowHours: 0.01 })).toContain('within 1 minute of the close');
  });
});

describe('placing a bid', () => {
  it('refuses an amount not above the current price without calling the server', async () => {
    const panel = start();
    panel.actor.send({ type: 'AMOUNT.CHANGE', value: '250' });
    panel.actor.send({ type: 'BID.SUBMIT' });
    await vi.advanceTimersByTimeAsync(0);
    expect(panel.context().banner).toEqual({ kind: 'error', text: 'Bid must be higher than current price of $250.00' });
    expect(panel.bidRequests).toHaveLength(0);
  });

  it('on success shows the green message; leading now, the input suggests no bid against oneself; each attempt has its own Idempotency-Key', async () => {
    const panel = start({ placeBid: async (request) => placed(request.amount) });
    panel.actor.send({ type: 'AMOUNT.CHANGE', value: '260' });
    panel.actor.send({ type: 'BID.SUBMIT' });
    expect(panel.actor.getSnapshot().matches({ bidding: 'placing' })).toBe(true);
    await vi.advanceTimersByTimeAsync(0);
    expect(panel.context().banner).toEqual({ kind: 'success', text: BID_SUCCESS_MESSAGE });
    expect(panel.context().amount).toBe('');
    expect(panel.context().auction.currentPrice).toBe(260);
    expect(panel.context().bids[0]).toMatchObject({ id: 'bid-260', amount: 260, bidderId: ME });
    expect(panel.bidRequests[0]).toMatchObject({ auctionId: AUCTION_ID, amount: 260, maxAmount: null });
    panel.actor.send({ type: 'AMOUNT.CHANGE', value: '300' });
    panel.actor.send({ type: 'BID.SUBMIT' });
    await vi.advanceTimersByTimeAsync(0);
    expect(panel.bidRequests).toHaveLength(2);
    expect(panel.bidRequests[1]!.idempotencyKey).not.toBe(panel.bidRequests[0]!.idempotencyKey);
    expect(panel.bidRequests[0]!.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('sends the optional maximum (proxy) bid', async () => {
    const panel = start({ placeBid: async (request) => placed(request.amount) });
    panel.actor.send({ type: 'AMOUNT.CHANGE', value: '260' });
    panel.actor.send({ type: 'MAX.CHANGE', value: '400' });
    panel.actor.send({ type: 'BID.SUBMIT' });
    await vi.advanceTimersByTimeAsync(0);
    expect(panel.bidRequests[0]).toMatchObject({ amount: 260, maxAmount: 400 });
    expect(panel.context().maxAmount).toBe('');
  });

  it('on failure says "Failed to place bid: <the server\'s reason>"', async () => {
    const panel = start({
      placeBid: async () => {
        throw new ApiError('Bid must be at least $252.00', 409, 'BID_BELOW_INCREMENT');
      },
    });
    panel.actor.send({ type: 'AMOUNT.CHANGE', value: '251' });
    panel.actor.send({ type: 'BID.SUBMIT' });
    await vi.advanceTimersByTimeAsync(0);
    expect(panel.context().banner).toEqual({ kind: 'error', text: 'Failed to place bid: Bid must be at least $252.00' });
    expect(panel.context().amount).toBe('251');
  });

  it('signed out: asks the page to open the sign-in modal and keeps the typed amount, without calling the server', async () => {
    const panel = start({ userId: null, placeBid: async (request) => placed(request.amount) });
    panel.actor.send({ type: 'AMOUNT.CHANGE', value: '300' });
    panel.actor.send({ type: 'BID.SUBMIT' });
    await vi.advanceTimersByTimeAsync(0);
    expect(panel.emitted).toEqual([{ type: 'signInRequired', action: 'bid', amount: 300 }]);
    expect(panel.bidRequests).toHaveLength(0);
    expect(panel.context().amount).toBe('300');
    panel.actor.send({ type: 'USER.CHANGE', userId: ME });
    panel.actor.send({ type: 'BID.SUBMIT' });
    await vi.advanceTimersByTimeAsync(0);
    expect(panel.bidRequests).toHaveLength(1);
  });

  it('leading, a bid only raises the maximum: the panel says so, the price stays, and the input suggests no bid', async () => {
    // The demo buyer leads at $4,901 and raises their maximum to $4,902.
    const leading = auction({ currentPrice: 4901, currentLeaderId: ME, minimumBid: 4902 });
    const raised: PlacedBid = { ...placed(4902, { currentPrice: 4901, minimumBid: 4902 }), kind: 'MAXIMUM', maxAmount: 4902 };
    const panel = start({ auction: leading, placeBid: async () => raised });
    expect(panel.context().amount).toBe('');
    panel.actor.send({ type: 'AMOUNT.CHANGE', value: '4902' });
    panel.actor.send({ type: 'BID.SUBMIT' });
    await vi.advanceTimersByTimeAsync(0);
    expect(panel.context().banner).toEqual({ kind: 'success', text: 'You are still the leader at $4,901.00; your maximum is now $4,902.00' });
    expect(panel.context().auction).toMatchObject({ currentPrice: 4901, bidCount: 1 });
    expect(panel.context().bids).toEqual([]);
    expect(panel.context().amount).toBe('');
  });

  it('the suggestion follows the user: signing in as the leader clears it, someone else taking the lead brings it back', async () => {
    const panel = start({ auction: auction({ currentLeaderId: ME }), userId: null });
    expect(panel.context().amount).toBe('252');
    panel.actor.send({ type: 'USER.CHANGE', userId: ME });
    expect(panel.context().amount).toBe('');
    panel.live(bidPlaced(1));
    expect(panel.context().amount).toBe('262');
  });

  it('takes no bid once the auction has ended', async () => {
    const panel = start({ auction: auction({ endsAt: new Date(NOW + 5_000).toISOString() }), placeBid: async (request) => placed(request.amount) });
    await vi.advanceTimersByTimeAsync(6_000);
    panel.actor.send({ type: 'AMOUNT.CHANGE', value: '300' });
    panel.actor.send({ type: 'BID.SUBMIT' });
    await vi.advanceTimersByTimeAsync(0);
    expect(panel.bidRequests).toHaveLength(0);
  });
});

describe('live messages', () => {
  it('bid_placed updates price, leader, minimum and end, and prepends to a history of the 10 most recent', () => {
    const panel = start();
    for (let n = 1; n <= 12; n++) panel.live(bidPlaced(n));
    const { auction: facts, bids } = panel.context();
    expect(facts.currentPrice).toBe(370);
    expect(facts.minimumBid).toBe(372);
    expect(facts.currentLeaderId).toBe('bidder-12-beef');
    expect(bids).toHaveLength(10);
    expect(bids.map((bid) => bid.id)).toEqual(['bid-12', 'bid-11', 'bid-10', 'bid-9', 'bid-8', 'bid-7', 'bid-6', 'bid-5', 'bid-4', 'bid-3']);
    // An amount overtaken by the new price becomes the new minimum.
    expect(panel.context().amount).toBe('372');
  });

  it('the same bid twice (the answer and the live message) is one entry', async () => {
    const panel = start({ placeBid: async (request) => placed(request.amount) });
    panel.actor.send({ type: 'AMOUNT.CHANGE', value: '260' });
    panel.actor.send({ type: 'BID.SUBMIT' });
    await vi.advanceTimersByTimeAsync(0);
    const live = bidPlaced(1, ME, 260) as Extract<LiveMessage, { type: 'bid_placed' }>;
    panel.live({ ...live, bidData: { ...live.bidData, bidId: 'bid-260' } });
    expect(panel.context().bids.filter((bid) => bid.id === 'bid-260')).toHaveLength(1);
    expect(panel.context().auction).toMatchObject({ bidCount: 2, version: 6 });
    expect(panel.context().amount).toBe('');
  });

  it('auction_closed shows the result and stops bidding; auction_cancelled says so', () => {
    const panel = start();
    const closing = { result: 'SOLD', winnerId: 'w', finalPrice: 310 } as const;
    panel.live({ type: 'auction_closed', auctionId: AUCTION_ID, ...closing, closedAt: new Date(NOW).toISOString(), auction: auction({ ...closing, status: 'ENDED', isActive: false, version: 6 }) });
    expect(panel.context().auction).toMatchObject({ status: 'ENDED', result: 'SOLD', finalPrice: 310 });
    expect(canBid(panel.context())).toBe(false);
    const other = start();
    other.live({ type: 'auction_cancelled', auctionId: AUCTION_ID, reason: 'Withdrawn by the seller', auction: auction({ status: 'CANCELLED', isActive: false, version: 6 }) });
    expect(other.context()).toMatchObject({ auction: { status: 'CANCELLED' }, cancelReason: 'Withdrawn by the seller' });
  });

  it('bid_retracted applies the new figures and re-reads the history; a lagging re-read does not bring the old price back', async () => {
    const retractedBid: Bid = { id: 'bid-1', bidderId: 'bidder-1-beef', amount: 260, placedAt: new Date(NOW + 1000).toISOString(), status: 'RETRACTED', kind: 'BID' };
    // The read model lags: it has seen the bid (version 6) but not its retraction (version 7).
    const panel = start({ snapshot: async () => ({ auction: auction({ currentPrice: 260, minimumBid: 262, version: 6 }), bids: [retractedBid] }) });
    await vi.advanceTimersByTimeAsync(0);
    panel.live(bidPlaced(1));
    const loads = panel.loads();
    const figures = { currentPrice: 250, currentLeaderId: 'someone-else-3f2a', minimumBid: 252 };
    panel.live({ type: 'bid_retracted', auctionId: AUCTION_ID, bidId: 'bid-1', auctionData: { ...figures, status: 'ACTIVE' }, auction: auction({ ...figures, bidCount: 2, version: 7 }) });
    expect(panel.context().auction.currentPrice).toBe(250);
    await vi.advanceTimersByTimeAsync(0);
    expect(panel.loads()).toBe(loads + 1);
    expect(panel.context().auction.currentPrice).toBe(250);
    expect(panel.context().bids[0]).toMatchObject({ id: 'bid-1', status: 'RETRACTED' });
  });

  it('keeps the newest summary: a message older than what the panel shows changes the history only', () => {
    const panel = start();
    panel.live(bidPlaced(2));
    const late = bidPlaced(1) as Extract<LiveMessage, { type: 'bid_placed' }>;
    panel.live(late);
    expect(panel.context().auction).toMatchObject({ currentPrice: 270, version: 7 });
    expect(panel.context().bids.map((bid) => bid.id)).toEqual(['bid-2', 'bid-1']);
  });

  it('names bidders by the end of their id, and the signed-in user "You"', () => {
    expect(bidderLabel('0c6e8a52-1d3b-4f6a-8e2c-9a1b2c3d3f2a', null)).toBe('Bidder •••3f2a');
    expect(bidderLabel(ME, ME)).toBe('You');
  });
});

describe('the auction panel: buy now', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: NOW });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const offered = () => auction({ bidCount: 0, currentLeaderId: null, buyNowPrice: 900, buyNowAvailable: true });
  const bought: Purchase = {
    id: 'purchase-1',
    auctionId: AUCTION_ID,
    buyerId: ME,
    amount: 900,
    purchasedAt: new Date(NOW).toISOString(),
    auction: { status: 'ENDED', result: 'SOLD', finalPrice: 900, closedAt: new Date(NOW).toISOString() },
    receipt: receipt('purchase-1', 900),
  };

  it('asks for a confirmation naming the price, then buys: the auction ends sold to you, with a green banner', async () => {
    const panel = start({ auction: offered(), buyNow: async () => bought });
    panel.actor.send({ type: 'BUY_NOW.REQUEST' });
    expect(panel.actor.getSnapshot().matches({ bidding: 'confirmingBuyNow' })).toBe(true);
    expect(panel.purchases).toHaveLength(0);
    panel.actor.send({ type: 'BUY_NOW.CONFIRM' });
    await vi.advanceTimersByTimeAsync(0);
    expect(panel.purchases).toEqual([{ auctionId: AUCTION_ID, idempotencyKey: expect.stringMatching(/^[0-9a-f-]{36}$/) }]);
    expect(panel.context().auction).toMatchObject({ status: 'ENDED', result: 'SOLD', finalPrice: 900, currentLeaderId: ME, buyNowAvailable: false });
    expect(panel.context().banner).toEqual({ kind: 'success', text: 'You bought this item for $900.00.' });
  });

  it('Cancel goes back without buying; a refusal says "Failed to buy now: <reason>"', async () => {
    const panel = start({
      auction: offered(),
      buyNow: async () => {
        throw new ApiError('Buy now is no longer available: bidding has started', 409);
      },
    });
    panel.actor.send({ type: 'BUY_NOW.REQUEST' });
    panel.actor.send({ type: 'BUY_NOW.CANCEL' });
    expect(panel.actor.getSnapshot().matches({ bidding: 'idle' })).toBe(true);
    panel.actor.send({ type: 'BUY_NOW.REQUEST' });
    panel.actor.send({ type: 'BUY_NOW.CONFIRM' });
    await vi.advanceTimersByTimeAsync(0);
    expect(panel.context().banner).toEqual({ kind: 'error', text: 'Failed to buy now: Buy now is no longer available: bidding has started' });
  });

  it('a bid arriving while the buyer hesitates withdraws the offer and leaves the confirmation', async () => {
    const panel = start({ auction: offered(), buyNow: async () => bought });
    panel.actor.send({ type: 'BUY_NOW.REQUEST' });
    panel.live(bidPlaced(1, 'someone-else-3f2a', 251));
    expect(panel.context().auction.buyNowAvailable).toBe(false);
    expect(panel.actor.getSnapshot().matches({ bidding: 'idle' })).toBe(true);
    panel.actor.send({ type: 'BUY_NOW.REQUEST' });
    expect(panel.context().banner).toEqual({ kind: 'error', text: 'Buy now is not available for this auction' });
    expect(panel.purchases).toHaveLength(0);
  });

  it('signed out: asks the page to open the sign-in modal for the purchase', () => {
    const panel = start({ auction: offered(), userId: null });
    panel.actor.send({ type: 'BUY_NOW.REQUEST' });
    expect(panel.emitted).toEqual([{ type: 'signInRequired', action: 'buyNow', amount: 900 }]);
    expect(panel.actor.getSnapshot().matches({ bidding: 'idle' })).toBe(true);
  });
});

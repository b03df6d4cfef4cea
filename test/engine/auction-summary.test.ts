import fc from 'fast-check';
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, test } from 'vitest';
import {
  auctionDecider,
  auctionSummaryView,
  autoBidId,
  bidIdPattern,
  buyNowAvailable,
  effectiveStatus,
  endsAtAfterBid,
  evolveAuctionSummary,
  fold,
  hasEndedAt,
  initialAuctionSummary,
  minimumNextBid,
  takesBidsAt,
  type AuctionEvent,
  type AuctionEventOf,
  type AuctionSummary,
  type AuctionSummaryState,
} from '../../engine/domain';
import { auctionScenarioArb, runAuction, scheduled } from './arbitraries';
import {
  AUCTION_ID,
  auctionOpened,
  auctionRules,
  auctionScheduled,
  buyNow,
  cancelAuction,
  closeAuction,
  DURING,
  ENDS_AT,
  LISTING_ID,
  liveAuction,
  placeBid,
  play,
  plusSeconds,
  retractBid,
  SCHEDULED_AT,
  SELLER_ID,
  STARTS_AT,
} from './fixtures';

/**
 * The auction summary: given the auction's events (made by the decider from commands, as in the
 * log), then the summary everyone reads. The property at the end holds it to the decider's state.
 */

/** The history after running the given commands against `history`. */
const after = (history: AuctionEvent[], ...commands: Parameters<typeof auctionDecider.decide>[0][]) => play(auctionDecider, history, ...commands);

function given(history: AuctionEvent[]) {
  const summary = fold(auctionSummaryView, history);
  return {
    then(expected: Partial<AuctionSummary> & Pick<AuctionSummaryState, 'status' | 'version'>): AuctionSummary {
      expect(summary).toMatchObject(expected);
      if (summary.status === 'UNSCHEDULED') throw new Error('expected a scheduled auction');
      return summary;
    },
  };
}

/** What the spec's rules ($50.00 start, flat $1, nothing else) show once scheduled. */
const OPENING = {
  auctionId: AUCTION_ID,
  listingId: LISTING_ID,
  sellerId: SELLER_ID,
  startsAt: STARTS_AT,
  rules: auctionRules(),
  endsAt: ENDS_AT,
  scheduledEndsAt: ENDS_AT,
  price: 5_000,
  leaderId: null,
  leadingBidId: null,
  reserveMet: null,
  minimumNextBid: 5_100,
  bidCount: 0,
  buyNowAvailable: false,
} as const;

describe('auction summary', () => {
  test('before any event: unscheduled, version 0', () => {
    expect(initialAuctionSummary).toEqual({ status: 'UNSCHEDULED', version: 0 });
  });

  test('scheduled: the opening standing, the minimum next bid, no buy-now', () => {
    const summary = given([auctionScheduled()]).then({ status: 'PENDING', version: 1 });
    expect(summary).toEqual({ status: 'PENDING', ...OPENING, version: 1 });
  });

  test('scheduled with a reserve and a buy-now price: reserve not met, buy-now offered', () => {
    given([auctionScheduled({ rules: { reservePrice: 10_000, buyNowPrice: 20_000 } })]).then({
      status: 'PENDING',
      reserveMet: false,
      buyNowAvailable: true,
      version: 1,
    });
  });

  test('scheduled with a buy-now price and no reserve: buy-now offered, reserve null', () => {
    given([auctionScheduled({ rules: { buyNowPrice: 20_000 } })]).then({ status: 'PENDING', reserveMet: null, buyNowAvailable: true, version: 1 });
  });

  test('opened: ACTIVE, nothing else moves', () => {
    const summary = given(liveAuction()).then({ status: 'ACTIVE', version: 2 });
    expect(summary).toEqual({ status: 'ACTIVE', ...OPENING, version: 2 });
  });

  test('bid placed: price, leader, leading bid, minimum next bid and bid count; buy-now withdrawn', () => {
    const history = after(liveAuction({ buyNowPrice: 20_000 }), placeBid('alice', 6_000));
    const summary = given(history).then({
      status: 'ACTIVE',
      price: 6_000,
      leaderId: 'alice',
      leadingBidId: 'alice-6000',
      minimumNextBid: 6_100,
      bidCount: 1,
      buyNowAvailable: false,
      version: 3,
    });
    expect(summary).not.toHaveProperty('leaderMaximum');
  });

  test('a bid on a scheduled auction whose start has come opens it first: two events', () => {
    given(after([auctionScheduled()], placeBid('alice', 6_000, { at: DURING }))).then({ status: 'ACTIVE', price: 6_000, bidCount: 1, version: 3 });
  });

  test('a proxy answer: the price is the exchange\'s, the secret maximum stays out', () => {
    const history = after(liveAuction(), placeBid('alice', 6_000, { maximum: 9_000 }), placeBid('bob', 7_000));
    const summary = given(history).then({ price: 7_100, leaderId: 'alice', leadingBidId: 'alice-6000', minimumNextBid: 7_200, bidCount: 2, status: 'ACTIVE', version: 4 });
    expect(JSON.stringify(summary)).not.toContain('9000');
  });

  test('maximum raised by the leader: price and bid count unchanged, the leading bid is the raise', () => {
    const history = after(liveAuction(), placeBid('alice', 6_000), placeBid('alice', 6_100, { maximum: 9_000 }));
    expect(history.at(-1)!.type).toBe('MaximumBidRaised');
    given(history).then({ status: 'ACTIVE', price: 6_000, leaderId: 'alice', leadingBidId: 'alice-6100', minimumNextBid: 6_100, bidCount: 1, version: 4 });
  });

  test('reserve: met once a bid reaches it, which withdraws buy-now; below it buy-now stays', () => {
    const rules = { reservePrice: 10_000, buyNowPrice: 20_000 };
    const below = after(liveAuction(rules), placeBid('alice', 6_000));
    given(below).then({ status: 'ACTIVE', reserveMet: false, buyNowAvailable: true, bidCount: 1, version: 3 });
    given(after(below, placeBid('bob', 10_000))).then({ status: 'ACTIVE', price: 10_000, reserveMet: true, buyNowAvailable: false, bidCount: 2, version: 4 });
  });

  test('extended by a late bid: the current end moves, the scheduled end stays', () => {
    const softClose = { windowSeconds: 300, latestEndsAt: plusSeconds(ENDS_AT, 3_600) };
    const history = after(liveAuction({ softClose }), placeBid('alice', 6_000, { at: plusSeconds(ENDS_AT, -60) }));
    expect(history.at(-1)!.type).toBe('AuctionExtended');
    given(history).then({ status: 'ACTIVE', endsAt: plusSeconds(ENDS_AT, 240), scheduledEndsAt: ENDS_AT, bidCount: 1, version: 4 });
  });

  test('retraction: the standing the decider recomputed; the retracted bid still counts', () => {
    const history = after(liveAuction(), placeBid('alice', 6_000), placeBid('bob', 7_000), retractBid('bob-7000'));
    given(history).then({ status: 'ACTIVE', price: 6_000, leaderId: 'alice', leadingBidId: 'alice-6000', minimumNextBid: 6_100, bidCount: 2, version: 5 });
  });

  test('closed SOLD by time: the outcome, the final price; buy-now gone', () => {
    const history = after(liveAuction({ buyNowPrice: 20_000, reservePrice: 10_000 }), placeBid('alice', 12_000), closeAuction());
    const summary = given(history).then({ status: 'ENDED', price: 12_000, leaderId: 'alice', buyNowAvailable: false, version: 4 });
    expect(summary).toMatchObject({
      closing: { auctionId: AUCTION_ID, result: 'SOLD', winnerId: 'alice', winningBidId: 'alice-12000', finalPrice: 12_000, closedAt: ENDS_AT, closedBy: 'TIME' },
    });
  });

  test('closed with NO_BIDS: the starting price stays the price', () => {
    const summary = given(after(liveAuction({ buyNowPrice: 20_000 }), closeAuction())).then({ status: 'ENDED', price: 5_000, buyNowAvailable: false, version: 3 });
    expect(summary).toMatchObject({ closing: { result: 'NO_BIDS', winnerId: null, winningBidId: null, finalPrice: null } });
  });

  test('closed with RESERVE_NOT_MET: the highest bid stays the price, no winner', () => {
    const history = after(liveAuction({ reservePrice: 10_000 }), placeBid('alice', 6_000), closeAuction());
    const summary = given(history).then({ status: 'ENDED', price: 6_000, leaderId: 'alice', reserveMet: false, version: 4 });
    expect(summary).toMatchObject({ closing: { result: 'RESERVE_NOT_MET', winnerId: null, finalPrice: null } });
  });

  test('bought now: the buy-now price is the price; the minimum next bid is left as it stood', () => {
    const history = after(liveAuction({ buyNowPrice: 20_000 }), buyNow('carol'));
    const summary = given(history).then({ status: 'ENDED', price: 20_000, minimumNextBid: 5_100, bidCount: 0, buyNowAvailable: false, version: 3 });
    expect(summary).toMatchObject({ closing: { result: 'SOLD', winnerId: 'carol', winningBidId: 'carol-buy-now', finalPrice: 20_000, closedBy: 'BUY_NOW' } });
  });

  test('cancelled: the reason; buy-now gone', () => {
    const history = after(liveAuction({ buyNowPrice: 20_000 }), cancelAuction('Item damaged in transit'));
    given(history).then({ status: 'CANCELLED', cancellationReason: 'Item damaged in transit', buyNowAvailable: false, version: 3 });
  });

  test('version counts every event folded in, so that of two summaries the newer is the higher', () => {
    const history = after(liveAuction(), placeBid('alice', 6_000), placeBid('alice', 6_100, { maximum: 9_000 }), placeBid('bob', 7_000));
    const versions: number[] = [];
    let summary: AuctionSummaryState = initialAuctionSummary;
    for (const event of history) versions.push((summary = evolveAuctionSummary(summary, event)).version);
    expect(versions).toEqual([1, 2, 3, 4, 5]);
    // Events before a schedule (none in a real stream) count too, without making a summary.
    expect(evolveAuctionSummary(initialAuctionSummary, auctionOpened())).toEqual({ status: 'UNSCHEDULED', version: 1 });
  });
});

describe('effective status', () => {
  const pending = given([auctionScheduled()]).then({ status: 'PENDING', version: 1 });
  const active = given(liveAuction()).then({ status: 'ACTIVE', version: 2 });

  test('a scheduled auction is PENDING before its start and ACTIVE from it, before any event says so', () => {
    expect(effectiveStatus(pending, SCHEDULED_AT)).toBe('PENDING');
    expect(effectiveStatus(pending, plusSeconds(STARTS_AT, -1))).toBe('PENDING');
    expect(effectiveStatus(pending, STARTS_AT)).toBe('ACTIVE');
    expect(effectiveStatus(pending, DURING)).toBe('ACTIVE');
  });

  test('past the end a status is the one recorded: PENDING stays PENDING, ACTIVE stays ACTIVE', () => {
    expect(effectiveStatus(pending, ENDS_AT)).toBe('PENDING');
    expect(effectiveStatus(active, ENDS_AT)).toBe('ACTIVE');
    const ended = given(after(liveAuction(), closeAuction())).then({ status: 'ENDED', version: 3 });
    expect(effectiveStatus(ended, DURING)).toBe('ENDED');
  });

  test('bids are taken from the start until the current end', () => {
    expect(takesBidsAt(pending, plusSeconds(STARTS_AT, -1))).toBe(false);
    expect(takesBidsAt(pending, STARTS_AT)).toBe(true);
    expect(takesBidsAt(active, plusSeconds(ENDS_AT, -1))).toBe(true);
    expect(takesBidsAt(active, ENDS_AT)).toBe(false);
  });

  test('an auction has ended once closed, or at its current end before the closing event comes; a cancelled one never ends', () => {
    expect(hasEndedAt(active, plusSeconds(ENDS_AT, -1))).toBe(false);
    expect(hasEndedAt(active, ENDS_AT)).toBe(true);
    expect(hasEndedAt(pending, ENDS_AT)).toBe(true);
    const ended = given(after(liveAuction(), closeAuction())).then({ status: 'ENDED', version: 3 });
    expect(hasEndedAt(ended, DURING)).toBe(true);
    const cancelled = { ...active, status: 'CANCELLED' as const };
    expect(hasEndedAt(cancelled, ENDS_AT)).toBe(false);
  });
});

describe('automatic bid ids', () => {
  test('a bid inside the soft-close window: the end its decision made, from the summary before it, without its AuctionExtended', () => {
    const softClose = { windowSeconds: 600, latestEndsAt: plusSeconds(ENDS_AT, 3_600) };
    const late = plusSeconds(ENDS_AT, -60);
    const endsAfter = (rules: Parameters<typeof liveAuction>[0], at: string) => {
      const history = after(liveAuction(rules), placeBid('alice', 6_000, { at }));
      const bid = history[2] as AuctionEventOf<'BidPlaced'>;
      return { types: history.map((event) => event.type), endsAt: endsAtAfterBid(given(history.slice(0, 2)).then({ status: 'ACTIVE', version: 2 }), bid) };
    };
    expect(endsAfter({ softClose }, late)).toEqual({ types: ['AuctionScheduled', 'AuctionOpened', 'BidPlaced', 'AuctionExtended'], endsAt: plusSeconds(late, 600) });
    // Outside the window, or up against the cap, nothing moves.
    expect(endsAfter({ softClose }, plusSeconds(ENDS_AT, -601)).endsAt).toBe(ENDS_AT);
    expect(endsAfter({ softClose: { windowSeconds: 600, latestEndsAt: ENDS_AT } }, late).endsAt).toBe(ENDS_AT);
  });

  test('"{bidId}/auto/{n}", recognised with the submission ids a route accepts', () => {
    expect(autoBidId('bid-1', 2)).toBe('bid-1/auto/2');
    const pattern = bidIdPattern('bid-[0-9]+');
    expect(['bid-1', autoBidId('bid-1', 1), autoBidId('bid-1', 123_456)].map((id) => pattern.test(id))).toEqual([true, true, true]);
    expect(['bid-x', 'bid-1/auto/0', 'bid-1/auto/', 'bid-1/auto/1/auto/1', 'xbid-1'].map((id) => pattern.test(id))).toEqual([false, false, false, false, false]);
  });
});

describe('auction summary properties', () => {
  test("from the summary just before a command's bid event, endsAtAfterBid gives the end the whole command made", () => {
    fc.assert(
      fc.property(auctionScenarioArb, (scenario) => {
        const run = runAuction(scenario);
        let summary: AuctionSummaryState = initialAuctionSummary;
        for (const record of run.records) {
          for (const event of record.events) {
            if ((event.type === 'BidPlaced' || event.type === 'MaximumBidRaised') && summary.status !== 'UNSCHEDULED') {
              expect(endsAtAfterBid(summary, event)).toBe(scheduled(record.after).endsAt);
            }
            summary = evolveAuctionSummary(summary, event);
          }
        }
      }),
    );
  });

  test('after every command of a random auction, the summary agrees with the decider\'s state', () => {
    fc.assert(
      fc.property(auctionScenarioArb, (scenario) => {
        const run = runAuction(scenario);
        let summary: AuctionSummaryState = initialAuctionSummary;
        let folded = 0;
        for (const record of run.records) {
          for (const event of record.events) summary = evolveAuctionSummary(summary, event);
          folded += record.events.length;
          const state = scheduled(record.after);
          const { standing } = state;
          const closing = state.status === 'ENDED' ? state.closing : undefined;
          const expected = {
            status: state.status,
            version: folded,
            price: closing?.finalPrice ?? standing.price,
            leaderId: standing.leaderId,
            leadingBidId: standing.leadingBidId,
            reserveMet: standing.reserveMet,
            minimumNextBid: minimumNextBid(state.facts.rules, standing),
            bidCount: state.bidCount,
            buyNowAvailable: buyNowAvailable(state),
            endsAt: state.endsAt,
            closing,
            cancellationReason: state.status === 'CANCELLED' ? state.cancellationReason : undefined,
          };
          const actual = {
            status: summary.status,
            version: summary.version,
            ...(summary.status === 'UNSCHEDULED'
              ? {}
              : {
                  price: summary.price,
                  leaderId: summary.leaderId,
                  leadingBidId: summary.leadingBidId,
                  reserveMet: summary.reserveMet,
                  minimumNextBid: summary.minimumNextBid,
                  bidCount: summary.bidCount,
                  buyNowAvailable: summary.buyNowAvailable,
                  endsAt: summary.endsAt,
                  closing: summary.status === 'ENDED' ? summary.closing : undefined,
                  cancellationReason: summary.status === 'CANCELLED' ? summary.cancellationReason : undefined,
                }),
          };
          // expect only on a mismatch: building its report for every record would dominate the run.
          if (!isDeepStrictEqual(actual, expected)) expect(actual).toStrictEqual(expected);
        }
      }),
      { numRuns: 300 },
    );
  });
});

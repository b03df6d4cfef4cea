import fc from 'fast-check';
import { describe, expect, it, test } from 'vitest';
import { auctionNotices, biddersIn, type AuctionEvent, type AuctionNotice } from '../../../engine/domain';
import { auctionScenarioArb, runAuction } from '../arbitraries';
import { closeAuction, ENDS_AT, liveAuction, placeBid, retractBid } from '../fixtures';
import { after } from './auction-spec';

/** Walks a stream as the notifier does: each event's notices from the leader before it and everyone who bid so far. */
function noticesOf(events: readonly AuctionEvent[]): AuctionNotice[][] {
  let leader: string | null = null;
  const bidders = new Set<string>();
  return events.map((event) => {
    const notices = auctionNotices(event, { leaderBefore: leader, bidders: [...bidders] });
    if (event.type === 'BidPlaced' || event.type === 'MaximumBidRaised') for (const bidder of biddersIn(event)) bidders.add(bidder);
    if (event.type === 'BidPlaced' || event.type === 'MaximumBidRaised' || event.type === 'BidRetracted') leader = event.data.standing.leaderId;
    return notices;
  });
}

/** Notices of the events `commands` add to `history`. */
function given(history: AuctionEvent[]) {
  return {
    when(...commands: Parameters<typeof after>[1][]) {
      const all = after(history, ...commands);
      return noticesOf(all).slice(history.length).flat();
    },
  };
}

describe('auction notices', () => {
  test('a bid over the leader outbids the leader', () => {
    const history = after(liveAuction(), placeBid('alice', 5_100));
    expect(given(history).when(placeBid('bob', 5_200))).toEqual([{ kind: 'OUTBID', recipientId: 'alice' }]);
  });

  test('the first bid outbids nobody; a leader raising their own bid outbids nobody', () => {
    expect(given(liveAuction()).when(placeBid('alice', 5_100))).toEqual([]);
    const history = after(liveAuction(), placeBid('alice', 5_100));
    expect(given(history).when(placeBid('alice', 6_000, { maximum: 9_000, bidId: 'alice-raise' }))).toEqual([]);
  });

  test("a bid the leader's maximum answers at once outbids nobody", () => {
    const history = after(liveAuction(), placeBid('alice', 5_100, { maximum: 8_000 }));
    expect(given(history).when(placeBid('bob', 6_000))).toEqual([]);
  });

  test("a bid past the leader's maximum outbids the leader, whose proxy bid for them", () => {
    const history = after(liveAuction(), placeBid('alice', 5_100, { maximum: 8_000 }));
    expect(given(history).when(placeBid('bob', 9_000))).toEqual([{ kind: 'OUTBID', recipientId: 'alice' }]);
  });

  test('a retraction that moves the lead outbids nobody', () => {
    const history = after(liveAuction(), placeBid('alice', 5_100), placeBid('bob', 5_200, { bidId: 'bob-5200' }));
    expect(given(history).when(retractBid('bob-5200'))).toEqual([]);
  });

  test('a sold lot: WON to the winner, LOST to every other bidder, once each', () => {
    const history = after(liveAuction(), placeBid('alice', 5_100), placeBid('bob', 5_200), placeBid('alice', 5_300), placeBid('carol', 5_400, { maximum: 9_000 }));
    expect(given(history).when(closeAuction(ENDS_AT))).toEqual([
      { kind: 'WON', recipientId: 'carol' },
      { kind: 'LOST', recipientId: 'alice' },
      { kind: 'LOST', recipientId: 'bob' },
    ]);
  });

  test('the reserve not met: LOST to every bidder, the highest too; no bids: nothing', () => {
    const history = after(liveAuction({ reservePrice: 10_000 }), placeBid('alice', 6_000), placeBid('bob', 7_000));
    expect(given(history).when(closeAuction(ENDS_AT))).toEqual([
      { kind: 'LOST', recipientId: 'alice' },
      { kind: 'LOST', recipientId: 'bob' },
    ]);
    expect(given(liveAuction()).when(closeAuction(ENDS_AT))).toEqual([]);
  });
});

describe('auction notices, over random auctions', () => {
  it('an outbid bidder led just before and not just after; a closed lot tells each bidder once, WON only to the winner', () => {
    fc.assert(
      fc.property(auctionScenarioArb, (scenario) => {
        const { events } = runAuction(scenario);
        const notices = noticesOf(events);
        let leader: string | null = null;
        const bidders = new Set<string>();
        events.forEach((event, index) => {
          const notified = notices[index]!;
          if (event.type === 'BidPlaced' || event.type === 'MaximumBidRaised') {
            for (const notice of notified) {
              expect(notice).toEqual({ kind: 'OUTBID', recipientId: leader });
              expect(event.data.standing.leaderId).not.toBe(leader);
            }
            for (const bidder of biddersIn(event)) bidders.add(bidder);
          } else if (event.type === 'AuctionClosed') {
            const recipients = notified.map((notice) => notice.recipientId);
            expect(new Set(recipients).size).toBe(recipients.length);
            expect(notified.filter((notice) => notice.kind === 'WON').map((notice) => notice.recipientId)).toEqual(event.data.result === 'SOLD' ? [event.data.winnerId] : []);
            // A buy-now closes before any bid: its buyer is told WON without having bid.
            const told = new Set(event.data.result === 'NO_BIDS' ? [] : [...bidders, ...(event.data.winnerId ? [event.data.winnerId] : [])]);
            expect(new Set(recipients)).toEqual(told);
          } else {
            expect(notified).toEqual([]);
          }
          if (event.type === 'BidPlaced' || event.type === 'MaximumBidRaised' || event.type === 'BidRetracted') leader = event.data.standing.leaderId;
        });
      }),
      { numRuns: 300 },
    );
  });
});

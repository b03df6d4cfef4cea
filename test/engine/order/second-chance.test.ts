import { describe, expect, test } from 'vitest';
import { secondChanceCandidate } from '../../../engine/domain';
import { cancelAuction, closeAuction, liveAuction, placeBid, retractBid } from '../fixtures';
import { after, stateOf, threeProxyBidders } from '../auction/auction-spec';

/**
 * Who a cancelled sale is offered to next: the bidder with the highest maximum of their own among
 * those not yet asked, at that maximum. Flat $1 increments from $50.00 (the fixtures' rules).
 */
describe('secondChanceCandidate', () => {
  const ended = () => after(threeProxyBidders(), closeAuction());

  test('the history ends as described', () => {
    // threeProxyBidders: alice wins at $81, over carol (max $80) and bob (max $70).
    expect(stateOf(ended())).toMatchObject({ status: 'ENDED', closing: { result: 'SOLD', winnerId: 'alice', finalPrice: 8_100 } });
  });

  test('never below the reserve: a bidder whose highest bid is under it is passed over', () => {
    // Reserve $75: carol's $80 maximum clears it, bob's $70 does not.
    const history = after(
      liveAuction({ reservePrice: 7_500 }),
      placeBid('bob', 5_100, { maximum: 7_000 }),
      placeBid('carol', 7_200, { maximum: 8_000 }),
      placeBid('alice', 8_100, { maximum: 9_000 }),
      closeAuction(),
    );
    expect(stateOf(history)).toMatchObject({ closing: { result: 'SOLD', winnerId: 'alice' } });
    expect(secondChanceCandidate(stateOf(history), ['alice'])).toEqual({ bidderId: 'carol', amount: 8_000 });
    expect(secondChanceCandidate(stateOf(history), ['alice', 'carol'])).toBeNull();
  });

  test('the highest maximum among the bidders not excluded, at that maximum', () => {
    expect(secondChanceCandidate(stateOf(ended()), ['alice'])).toEqual({ bidderId: 'carol', amount: 8_000 });
  });

  test('each bidder asked is passed over in turn', () => {
    expect(secondChanceCandidate(stateOf(ended()), ['alice', 'carol'])).toEqual({ bidderId: 'bob', amount: 7_000 });
    expect(secondChanceCandidate(stateOf(ended()), new Set(['carol', 'alice']))).toEqual({ bidderId: 'bob', amount: 7_000 });
  });

  test("a bidder's own best counts: their maximum, not the price their last bid showed", () => {
    // bob bids again after being outbid: $82 with a $85 maximum; alice's proxy answers at $86.
    const history = after(threeProxyBidders(), placeBid('bob', 8_200, { maximum: 8_500, bidId: 'bob-again' }), closeAuction());
    expect(stateOf(history)).toMatchObject({ closing: { winnerId: 'alice', finalPrice: 8_600 } });
    expect(secondChanceCandidate(stateOf(history), ['alice'])).toEqual({ bidderId: 'bob', amount: 8_500 });
  });

  test('a plain bid counts at its amount', () => {
    const history = after(liveAuction(), placeBid('alice', 5_100, { maximum: 9_000 }), placeBid('dave', 6_000), closeAuction());
    expect(secondChanceCandidate(stateOf(history), ['alice'])).toEqual({ bidderId: 'dave', amount: 6_000 });
  });

  test('retracted bids are ignored', () => {
    const history = after(threeProxyBidders(), retractBid('carol-7200'), closeAuction());
    expect(stateOf(history)).toMatchObject({ closing: { winnerId: 'alice', finalPrice: 7_100 } });
    expect(secondChanceCandidate(stateOf(history), ['alice'])).toEqual({ bidderId: 'bob', amount: 7_000 });
  });

  test("a bidder's bid that was not retracted still counts when another of theirs was", () => {
    const history = after(threeProxyBidders(), placeBid('carol', 8_200, { maximum: 8_400, bidId: 'carol-again' }), retractBid('carol-again'), closeAuction());
    expect(stateOf(history)).toMatchObject({ closing: { result: 'SOLD', winnerId: 'alice' } });
    expect(secondChanceCandidate(stateOf(history), ['alice'])).toEqual({ bidderId: 'carol', amount: 8_000 });
  });

  test('equal maximums go to whoever reached it first', () => {
    // bob $51 (max $70), then dave $52 (max $70): bob keeps the lead at $70; alice then wins at $71.
    const bobFirst = after(
      liveAuction(),
      placeBid('bob', 5_100, { maximum: 7_000 }),
      placeBid('dave', 5_200, { maximum: 7_000 }),
      placeBid('alice', 7_100, { maximum: 9_000 }),
      closeAuction(),
    );
    expect(stateOf(bobFirst)).toMatchObject({ closing: { winnerId: 'alice' } });
    expect(secondChanceCandidate(stateOf(bobFirst), ['alice'])).toEqual({ bidderId: 'bob', amount: 7_000 });
    expect(secondChanceCandidate(stateOf(bobFirst), ['alice', 'bob'])).toEqual({ bidderId: 'dave', amount: 7_000 });

    const daveFirst = after(
      liveAuction(),
      placeBid('dave', 5_100, { maximum: 7_000 }),
      placeBid('bob', 5_200, { maximum: 7_000 }),
      placeBid('alice', 7_100, { maximum: 9_000 }),
      closeAuction(),
    );
    expect(secondChanceCandidate(stateOf(daveFirst), ['alice'])).toEqual({ bidderId: 'dave', amount: 7_000 });
  });

  test('nobody left: null', () => {
    expect(secondChanceCandidate(stateOf(ended()), ['alice', 'bob', 'carol'])).toBeNull();
    expect(secondChanceCandidate(stateOf(after(liveAuction(), closeAuction())), [])).toBeNull();
    const allRetracted = after(liveAuction(), placeBid('alice', 6_000), placeBid('bob', 6_100), retractBid('bob-6100'), closeAuction());
    expect(secondChanceCandidate(stateOf(allRetracted), ['alice'])).toBeNull();
  });

  test('an auction not ENDED: null', () => {
    expect(secondChanceCandidate(stateOf([]), [])).toBeNull();
    expect(secondChanceCandidate(stateOf(threeProxyBidders()), ['alice'])).toBeNull();
    expect(secondChanceCandidate(stateOf(after(threeProxyBidders(), cancelAuction('Item damaged'))), ['alice'])).toBeNull();
  });
});

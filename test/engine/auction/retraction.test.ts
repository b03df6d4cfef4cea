import { describe, expect, test } from 'vitest';
import { chronological } from '../../../engine/domain';
import { autoBid, bidRetracted, buyer, closeAuction, ENDS_AT, liveAuction, placeBid, plusSeconds, retractBid, scheduler } from '../fixtures';
import { after, auction, scheduledState, threeProxyBidders } from './auction-spec';

describe('RetractBid', () => {

  test('the three-bidder history stands as described', () => {
    expect(scheduledState(threeProxyBidders()).standing).toEqual({
      price: 8_100,
      leaderId: 'alice',
      leadingBidId: 'alice-5100',
      leaderMaximum: 9_000,
      reserveMet: null,
    });
  });

  test('retracting the leader bid recomputes leader and price from the surviving bids', () => {
    // Without alice: bob leads at $52 (max $70), carol's $72 is above bob's maximum, so carol leads at $72.
    const retraction = retractBid('alice-5100');
    auction
      .given(threeProxyBidders())
      .when(retraction)
      .thenEvents([
        bidRetracted(retraction, {
          bidderId: 'alice',
          standing: { price: 7_200, leaderId: 'carol', leadingBidId: 'carol-7200', leaderMaximum: 8_000, reserveMet: null },
        }),
      ]);
  });

  test('retracting an outbid bid: the leader defends against the remaining challenger only', () => {
    // Without carol: alice (max $90) against bob (max $70) -> $71.
    auction
      .given(threeProxyBidders())
      .when(retractBid('carol-7200'))
      .thenEventsMatch([
        { type: 'BidRetracted', data: { bidderId: 'carol', standing: { price: 7_100, leaderId: 'alice', leadingBidId: 'alice-5100', leaderMaximum: 9_000 } } },
      ]);
    // Without bob: alice (max $90) against carol (max $80) -> $81, unchanged.
    auction
      .given(threeProxyBidders())
      .when(retractBid('bob-5200'))
      .thenEventsMatch([{ type: 'BidRetracted', data: { bidderId: 'bob', standing: { price: 8_100, leaderId: 'alice' } } }]);
  });

  test('retracting the only bid returns the price to the starting price with no leader', () => {
    const retraction = retractBid('alice-6000', 'Duplicate account');
    auction
      .given(after(liveAuction({ reservePrice: 10_000 }), placeBid('alice', 6_000)))
      .when(retraction)
      .thenEvents([
        bidRetracted(retraction, {
          bidderId: 'alice',
          standing: { price: 5_000, leaderId: null, leadingBidId: null, leaderMaximum: null, reserveMet: false },
        }),
      ]);
  });

  test('a retracted bid stays in the history and is listed as retracted', () => {
    const state = scheduledState(after(threeProxyBidders(), retractBid('alice-5100')));
    expect(chronological(state.submissions).map((submission) => submission.bidId)).toEqual(['alice-5100', 'bob-5200', 'carol-7200']);
    expect(state.retractedBidIds).toEqual(['alice-5100']);
    expect(state.standing).toMatchObject({ price: 7_200, leaderId: 'carol' });
    expect(state.bidCount).toBe(3);
  });

  test('bidding continues from the recomputed standing', () => {
    const history = after(threeProxyBidders(), retractBid('alice-5100'));
    auction.given(history).when(placeBid('dave', 7_250)).thenError('BID_BELOW_INCREMENT', 'Bid must be at least $73.00');
    auction
      .given(history)
      .when(placeBid('dave', 7_300))
      .thenEventsMatch([
        {
          type: 'BidPlaced',
          data: {
            autoBids: [autoBid('carol', 7_400, 'carol-7200')],
            standing: { price: 7_400, leaderId: 'carol' },
          },
        },
      ]);
  });

  test('two retractions: each recomputes from every bid still standing', () => {
    const history = after(threeProxyBidders(), retractBid('alice-5100'));
    auction
      .given(history)
      .when(retractBid('carol-7200'))
      .thenEventsMatch([{ type: 'BidRetracted', data: { standing: { price: 5_200, leaderId: 'bob', leaderMaximum: 7_000 } } }]);
  });

  test('retracting the bid of a bidder who later raised their maximum does not reveal that maximum as the price', () => {
    /*
     * alice $51 (max $60); bob $52 (max $90) -> bob leads at $61;
     * bob raises his maximum to $200 (MaximumBidRaised, price stays $61);
     * carol $62 (max $70) -> bob's proxy answers: bob leads at $71.
     * Retract bob's first bid: bob's raised maximum of $200 still stands against alice ($60) and
     * carol ($70), so bob leads at $71, as before. The $200 is a secret maximum, never a price.
     */
    const history = after(
      liveAuction(),
      placeBid('alice', 5_100, { maximum: 6_000 }),
      placeBid('bob', 5_200, { maximum: 9_000 }),
      placeBid('bob', 6_200, { maximum: 20_000, bidId: 'bob-raise' }),
      placeBid('carol', 6_200, { maximum: 7_000 }),
    );
    expect(scheduledState(history).standing).toEqual({
      price: 7_100,
      leaderId: 'bob',
      leadingBidId: 'bob-raise',
      leaderMaximum: 20_000,
      reserveMet: null,
    });
    auction
      .given(history)
      .when(retractBid('bob-5200'))
      .thenEventsMatch([
        { type: 'BidRetracted', data: { standing: { price: 7_100, leaderId: 'bob', leadingBidId: 'bob-raise', leaderMaximum: 20_000 } } },
      ]);
  });

  test('only an admin may retract: FORBIDDEN', () => {
    const history = after(liveAuction(), placeBid('alice', 6_000));
    auction.given(history).when(retractBid('alice-6000', 'reason', { actor: scheduler })).thenError('FORBIDDEN', 'Access denied');
    auction.given(history).when(retractBid('alice-6000', 'reason', { actor: buyer('alice') })).thenError('FORBIDDEN', 'Access denied');
  });

  test('a reason is required: REASON_REQUIRED', () => {
    auction
      .given(after(liveAuction(), placeBid('alice', 6_000)))
      .when(retractBid('alice-6000', ' '))
      .thenError('REASON_REQUIRED', 'A reason is required');
  });

  test('an unknown bid: BID_NOT_FOUND', () => {
    const error = auction
      .given(after(liveAuction(), placeBid('alice', 6_000)))
      .when(retractBid('no-such-bid'))
      .thenError('BID_NOT_FOUND', 'Bid not found');
    expect(error.details).toEqual({ bidId: 'no-such-bid' });
  });

  test('retracting twice: BID_ALREADY_RETRACTED', () => {
    auction
      .given(after(liveAuction(), placeBid('alice', 6_000), retractBid('alice-6000')))
      .when(retractBid('alice-6000'))
      .thenError('BID_ALREADY_RETRACTED', 'This bid has already been retracted');
  });

  test('after the close: AUCTION_ALREADY_CLOSED', () => {
    auction
      .given(after(liveAuction(), placeBid('alice', 6_000), closeAuction()))
      .when(retractBid('alice-6000', 'Too late', { at: plusSeconds(ENDS_AT, 60) }))
      .thenError('AUCTION_ALREADY_CLOSED', 'Auction has already closed');
  });

  test('an auction closed after a retraction is decided on the recomputed standing', () => {
    auction
      .given(after(threeProxyBidders(), retractBid('alice-5100')))
      .when(closeAuction())
      .thenEventsMatch([{ type: 'AuctionClosed', data: { result: 'SOLD', winnerId: 'carol', winningBidId: 'carol-7200', finalPrice: 7_200 } }]);
  });
});

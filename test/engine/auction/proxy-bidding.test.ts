import { describe, expect, test } from 'vitest';
import { applySubmission, chronological, EBAY_INCREMENTS, openingStanding } from '../../../engine/domain';
import { auctionRules, autoBid, bidPlaced, DURING, liveAuction, maximumBidRaised, placeBid } from '../fixtures';
import { after, auction, scheduledState } from './auction-spec';

describe('proxy bidding', () => {
  // Flat $1 increments, $50.00 start, unless stated.
  const aliceLeadsWithMaximum = (maximum: number) => after(liveAuction(), placeBid('alice', 5_100, { maximum }));

  test('a first bid with a maximum sets the price to its amount and keeps the maximum secret', () => {
    auction
      .given(liveAuction())
      .when(placeBid('alice', 5_100, { maximum: 8_000 }))
      .thenEventsMatch([
        {
          type: 'BidPlaced',
          data: {
            amount: 5_100,
            maximum: 8_000,
            autoBids: [],
            standing: { price: 5_100, leaderId: 'alice', leadingBidId: 'alice-5100', leaderMaximum: 8_000, reserveMet: null },
          },
        },
      ]);
  });

  test('a challenger with a higher maximum wins at the defender maximum plus one increment', () => {
    const challenge = placeBid('bob', 5_200, { maximum: 10_000 });
    auction
      .given(aliceLeadsWithMaximum(8_000))
      .when(challenge)
      .thenEvents([
        bidPlaced(challenge, {
          autoBids: [autoBid('alice', 8_000, 'alice-5100'), autoBid('bob', 8_100, 'bob-5200')],
          standing: { price: 8_100, leaderId: 'bob', leadingBidId: 'bob-5200', leaderMaximum: 10_000, reserveMet: null },
        }),
      ]);
  });

  test('the winning challenger never pays more than its own maximum', () => {
    auction
      .given(aliceLeadsWithMaximum(8_000))
      .when(placeBid('bob', 5_200, { maximum: 8_050 }))
      .thenEventsMatch([
        {
          type: 'BidPlaced',
          data: {
            autoBids: [autoBid('alice', 8_000, 'alice-5100'), autoBid('bob', 8_050, 'bob-5200')],
            standing: { price: 8_050, leaderId: 'bob', leaderMaximum: 8_050 },
          },
        },
      ]);
  });

  test('the increment that decides the winning price is the one of the defender maximum band (eBay table)', () => {
    const ebay = liveAuction({ startingPrice: 500, incrementTable: EBAY_INCREMENTS });
    // alice's maximum $24.00 lies in the $0.50 band; $25.00 in the $1.00 band.
    auction
      .given(after(ebay, placeBid('alice', 1_000, { maximum: 2_400 })))
      .when(placeBid('bob', 1_100, { maximum: 5_000 }))
      .thenEventsMatch([{ type: 'BidPlaced', data: { standing: { price: 2_450, leaderId: 'bob' } } }]);
    auction
      .given(after(ebay, placeBid('alice', 1_000, { maximum: 2_500 })))
      .when(placeBid('bob', 1_100, { maximum: 5_000 }))
      .thenEventsMatch([{ type: 'BidPlaced', data: { standing: { price: 2_600, leaderId: 'bob' } } }]);
  });

  test('a challenger whose amount is already above the defender maximum wins at its amount, with no automatic bids', () => {
    auction
      .given(aliceLeadsWithMaximum(6_000))
      .when(placeBid('bob', 7_000))
      .thenEventsMatch([
        {
          type: 'BidPlaced',
          data: { autoBids: [], standing: { price: 7_000, leaderId: 'bob', leadingBidId: 'bob-7000', leaderMaximum: 7_000 } },
        },
      ]);
  });

  test('a challenger with a lower maximum loses: the leader proxy answers one increment above it', () => {
    const challenge = placeBid('bob', 5_200, { maximum: 7_000 });
    auction
      .given(aliceLeadsWithMaximum(8_000))
      .when(challenge)
      .thenEvents([
        bidPlaced(challenge, {
          autoBids: [autoBid('bob', 7_000, 'bob-5200'), autoBid('alice', 7_100, 'alice-5100')],
          standing: { price: 7_100, leaderId: 'alice', leadingBidId: 'alice-5100', leaderMaximum: 8_000, reserveMet: null },
        }),
      ]);
  });

  test('the leader proxy answer is capped at the leader maximum', () => {
    auction
      .given(aliceLeadsWithMaximum(8_000))
      .when(placeBid('bob', 5_200, { maximum: 7_950 }))
      .thenEventsMatch([
        {
          type: 'BidPlaced',
          data: {
            autoBids: [autoBid('bob', 7_950, 'bob-5200'), autoBid('alice', 8_000, 'alice-5100')],
            standing: { price: 8_000, leaderId: 'alice' },
          },
        },
      ]);
  });

  test('equal maxima go to the earlier bidder, at that maximum', () => {
    auction
      .given(aliceLeadsWithMaximum(8_000))
      .when(placeBid('bob', 5_200, { maximum: 8_000 }))
      .thenEventsMatch([
        {
          type: 'BidPlaced',
          data: {
            autoBids: [autoBid('bob', 8_000, 'bob-5200'), autoBid('alice', 8_000, 'alice-5100')],
            standing: { price: 8_000, leaderId: 'alice', leadingBidId: 'alice-5100', leaderMaximum: 8_000 },
          },
        },
      ]);
  });

  test('a plain bid below the leader maximum is answered by the leader proxy alone', () => {
    auction
      .given(aliceLeadsWithMaximum(8_000))
      .when(placeBid('bob', 6_000))
      .thenEventsMatch([
        {
          type: 'BidPlaced',
          data: { autoBids: [autoBid('alice', 6_100, 'alice-5100')], standing: { price: 6_100, leaderId: 'alice' } },
        },
      ]);
  });

  test('the losing challenger increment is taken in the band of its maximum (eBay table)', () => {
    const history = after(liveAuction({ startingPrice: 500, incrementTable: EBAY_INCREMENTS }), placeBid('alice', 1_000, { maximum: 5_000 }));
    auction
      .given(history)
      .when(placeBid('bob', 1_100, { maximum: 2_450 }))
      .thenEventsMatch([{ type: 'BidPlaced', data: { standing: { price: 2_500, leaderId: 'alice' } } }]);
    auction
      .given(history)
      .when(placeBid('bob', 1_100, { maximum: 2_500 }))
      .thenEventsMatch([{ type: 'BidPlaced', data: { standing: { price: 2_600, leaderId: 'alice' } } }]);
  });

  test('the leader bidding again raises their maximum: MaximumBidRaised, the visible price stays', () => {
    const raise = placeBid('alice', 5_200, { maximum: 12_000, bidId: 'alice-raise' });
    auction
      .given(aliceLeadsWithMaximum(8_000))
      .when(raise)
      .thenEvents([
        maximumBidRaised(raise, { standing: { price: 5_100, leaderId: 'alice', leadingBidId: 'alice-raise', leaderMaximum: 12_000, reserveMet: null } }),
      ]);
  });

  test('a leader raising with a plain bid raises the maximum to that amount without raising the price', () => {
    auction
      .given(after(liveAuction(), placeBid('alice', 5_100)))
      .when(placeBid('alice', 9_000))
      .thenEventsMatch([{ type: 'MaximumBidRaised', data: { maximum: 9_000, standing: { price: 5_100, leaderMaximum: 9_000 } } }]);
  });

  test('a raised maximum is defended against later challengers', () => {
    const history = after(aliceLeadsWithMaximum(8_000), placeBid('alice', 5_200, { maximum: 12_000, bidId: 'alice-raise' }));
    auction
      .given(history)
      .when(placeBid('bob', 5_200, { maximum: 10_000 }))
      .thenEventsMatch([
        {
          type: 'BidPlaced',
          data: {
            autoBids: [autoBid('bob', 10_000, 'bob-5200'), autoBid('alice', 10_100, 'alice-raise')],
            standing: { price: 10_100, leaderId: 'alice', leadingBidId: 'alice-raise', leaderMaximum: 12_000 },
          },
        },
      ]);
  });

  test('a leader re-bid that does not raise the maximum is refused: MAXIMUM_NOT_RAISED', () => {
    const error = auction
      .given(aliceLeadsWithMaximum(8_000))
      .when(placeBid('alice', 5_200, { maximum: 8_000 }))
      .thenError('MAXIMUM_NOT_RAISED', 'You are already the highest bidder, with a maximum of $80.00');
    expect(error.details).toEqual({ currentMaximum: 8_000 });
    auction
      .given(aliceLeadsWithMaximum(8_000))
      .when(placeBid('alice', 6_000))
      .thenError('MAXIMUM_NOT_RAISED', 'You are already the highest bidder, with a maximum of $80.00');
  });

  test('a MaximumBidRaised is kept as a submission but does not count as a new bid', () => {
    const state = scheduledState(after(aliceLeadsWithMaximum(8_000), placeBid('alice', 5_200, { maximum: 12_000, bidId: 'alice-raise' })));
    expect(state.bidCount).toBe(1);
    expect(chronological(state.submissions).map((submission) => submission.bidId)).toEqual(['alice-5100', 'alice-raise']);
  });

  describe('applySubmission (closed form)', () => {
    const rules = auctionRules();
    const submission = (bidderId: string, amount: number, maximum: number, bidId = `${bidderId}-${amount}`) => ({
      bidId,
      bidderId,
      amount,
      maximum,
      placedAt: DURING,
    });

    test('first submission: price = amount, leader = bidder', () => {
      expect(applySubmission(rules, openingStanding(rules), submission('alice', 5_100, 8_000))).toEqual({
        standing: { price: 5_100, leaderId: 'alice', leadingBidId: 'alice-5100', leaderMaximum: 8_000, reserveMet: null },
        autoBids: [],
      });
    });

    test('higher challenger maximum: defender proxy at its max, then challenger at min(challengerMax, leaderMax + increment)', () => {
      const first = applySubmission(rules, openingStanding(rules), submission('alice', 5_100, 8_000)).standing;
      expect(applySubmission(rules, first, submission('bob', 5_200, 9_000))).toEqual({
        standing: { price: 8_100, leaderId: 'bob', leadingBidId: 'bob-5200', leaderMaximum: 9_000, reserveMet: null },
        autoBids: [autoBid('alice', 8_000, 'alice-5100'), autoBid('bob', 8_100, 'bob-5200')],
      });
    });

    test('lower or equal challenger maximum: leader answers at min(leaderMax, challengerMax + increment)', () => {
      const first = applySubmission(rules, openingStanding(rules), submission('alice', 5_100, 8_000)).standing;
      expect(applySubmission(rules, first, submission('bob', 5_200, 6_500)).standing).toMatchObject({ price: 6_600, leaderId: 'alice' });
      expect(applySubmission(rules, first, submission('bob', 5_200, 8_000)).standing).toMatchObject({ price: 8_000, leaderId: 'alice' });
    });
  });
});

import { describe, expect, test } from 'vitest';
import { auctionExtended, bidPlaced, DURING, ENDS_AT, liveAuction, placeBid, plusSeconds } from '../fixtures';
import { after, auction, scheduledState } from './auction-spec';

describe('soft close', () => {
  const window = 600; // ten minutes
  const softClose = (latestEndsAt = plusSeconds(ENDS_AT, 3_600)) => liveAuction({ softClose: { windowSeconds: window, latestEndsAt } });
  const fiveMinutesBeforeEnd = plusSeconds(ENDS_AT, -300);

  test('a price-changing bid inside the window extends the end to now + window', () => {
    const bid = placeBid('alice', 6_000, { at: fiveMinutesBeforeEnd });
    auction
      .given(softClose())
      .when(bid)
      .thenEvents([
        bidPlaced(bid, { standing: { price: 6_000, leaderId: 'alice', leadingBidId: 'alice-6000', leaderMaximum: 6_000, reserveMet: null } }),
        auctionExtended(bid, { previousEndsAt: ENDS_AT, endsAt: '2026-12-08T12:05:00.000Z' }),
      ]);
  });

  test('the extended end becomes the auction end', () => {
    const history = after(softClose(), placeBid('alice', 6_000, { at: fiveMinutesBeforeEnd }));
    expect(scheduledState(history).endsAt).toBe('2026-12-08T12:05:00.000Z');
  });

  test('a losing challenger still moves the price, so it extends too', () => {
    const history = after(softClose(), placeBid('alice', 5_100, { maximum: 9_000, at: DURING }));
    auction
      .given(history)
      .when(placeBid('bob', 6_000, { at: fiveMinutesBeforeEnd }))
      .thenEventsMatch([
        { type: 'BidPlaced', data: { standing: { leaderId: 'alice', price: 6_100 } } },
        { type: 'AuctionExtended', data: { previousEndsAt: ENDS_AT, endsAt: '2026-12-08T12:05:00.000Z', triggeredByBidId: 'bob-6000' } },
      ]);
  });

  test('the extension never passes latestEndsAt', () => {
    const cap = plusSeconds(ENDS_AT, 120);
    auction
      .given(softClose(cap))
      .when(placeBid('alice', 6_000, { at: fiveMinutesBeforeEnd }))
      .thenEventsMatch([{ type: 'BidPlaced' }, { type: 'AuctionExtended', data: { previousEndsAt: ENDS_AT, endsAt: cap } }]);
  });

  test('once the end is at the cap, later bids do not extend it', () => {
    const cap = plusSeconds(ENDS_AT, 120);
    const history = after(softClose(cap), placeBid('alice', 6_000, { at: fiveMinutesBeforeEnd }));
    auction
      .given(history)
      .when(placeBid('bob', 7_000, { at: plusSeconds(ENDS_AT, 60) }))
      .thenEventsMatch([{ type: 'BidPlaced' }]);
  });

  test('with the cap at the scheduled end, the end never moves', () => {
    auction
      .given(softClose(ENDS_AT))
      .when(placeBid('alice', 6_000, { at: plusSeconds(ENDS_AT, -1) }))
      .thenEventsMatch([{ type: 'BidPlaced' }]);
  });

  test('a bid exactly one window before the end does not move it (the end would not get later)', () => {
    auction
      .given(softClose())
      .when(placeBid('alice', 6_000, { at: plusSeconds(ENDS_AT, -window) }))
      .thenEventsMatch([{ type: 'BidPlaced' }]);
  });

  test('a bid outside the window does not extend', () => {
    auction
      .given(softClose())
      .when(placeBid('alice', 6_000, { at: plusSeconds(ENDS_AT, -window - 1) }))
      .thenEventsMatch([{ type: 'BidPlaced' }]);
  });

  test('without soft-close rules a last-second bid does not extend', () => {
    auction
      .given(liveAuction())
      .when(placeBid('alice', 6_000, { at: plusSeconds(ENDS_AT, -1) }))
      .thenEventsMatch([{ type: 'BidPlaced' }]);
  });

  test('a MaximumBidRaised that leaves the price does not extend', () => {
    const history = after(softClose(), placeBid('alice', 5_100, { maximum: 8_000, at: DURING }));
    auction
      .given(history)
      .when(placeBid('alice', 5_200, { maximum: 12_000, bidId: 'alice-raise', at: fiveMinutesBeforeEnd }))
      .thenEventsMatch([{ type: 'MaximumBidRaised', data: { standing: { price: 5_100 } } }]);
  });

  test('a MaximumBidRaised that meets the reserve moves the price and extends', () => {
    const history = after(
      liveAuction({ reservePrice: 10_000, softClose: { windowSeconds: window, latestEndsAt: plusSeconds(ENDS_AT, 3_600) } }),
      placeBid('alice', 5_100, { maximum: 8_000, at: DURING }),
    );
    auction
      .given(history)
      .when(placeBid('alice', 5_200, { maximum: 12_000, bidId: 'alice-raise', at: fiveMinutesBeforeEnd }))
      .thenEventsMatch([
        { type: 'MaximumBidRaised', data: { standing: { price: 10_000, reserveMet: true } } },
        { type: 'AuctionExtended', data: { endsAt: '2026-12-08T12:05:00.000Z', triggeredByBidId: 'alice-raise' } },
      ]);
  });

  test('after an extension, bids are accepted until the new end and extend again from their own time', () => {
    const history = after(softClose(), placeBid('alice', 6_000, { at: fiveMinutesBeforeEnd }));
    auction
      .given(history)
      .when(placeBid('bob', 7_000, { at: plusSeconds(ENDS_AT, 100) }))
      .thenEventsMatch([
        { type: 'BidPlaced' },
        { type: 'AuctionExtended', data: { previousEndsAt: '2026-12-08T12:05:00.000Z', endsAt: '2026-12-08T12:11:40.000Z' } },
      ]);
  });

  test('a bid at or after the extended end is refused: AUCTION_ENDED', () => {
    const history = after(softClose(), placeBid('alice', 6_000, { at: fiveMinutesBeforeEnd }));
    auction
      .given(history)
      .when(placeBid('bob', 7_000, { at: '2026-12-08T12:05:00.000Z' }))
      .thenError('AUCTION_ENDED', 'Auction has ended');
  });
});

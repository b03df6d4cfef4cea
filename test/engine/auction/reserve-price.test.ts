import { describe, expect, test } from 'vitest';
import { autoBid, liveAuction, placeBid } from '../fixtures';
import { after, auction, scheduledState } from './auction-spec';

describe('reserve price', () => {
  const withReserve = () => liveAuction({ reservePrice: 10_000 });

  test('without a reserve, reserveMet is null', () => {
    auction
      .given(liveAuction())
      .when(placeBid('alice', 6_000))
      .thenEventsMatch([{ type: 'BidPlaced', data: { standing: { reserveMet: null } } }]);
  });

  test('with a reserve, reserveMet is false until the price reaches it', () => {
    expect(scheduledState(withReserve()).standing.reserveMet).toBe(false);
    auction
      .given(withReserve())
      .when(placeBid('alice', 6_000))
      .thenEventsMatch([{ type: 'BidPlaced', data: { standing: { price: 6_000, reserveMet: false } } }]);
  });

  test('reserveMet becomes true once the price reaches the reserve', () => {
    auction
      .given(after(withReserve(), placeBid('alice', 9_000)))
      .when(placeBid('bob', 10_000))
      .thenEventsMatch([{ type: 'BidPlaced', data: { standing: { price: 10_000, leaderId: 'bob', reserveMet: true } } }]);
  });

  test('a first bid whose maximum meets the reserve lifts the price to the reserve', () => {
    auction
      .given(withReserve())
      .when(placeBid('alice', 6_000, { maximum: 12_000 }))
      .thenEventsMatch([
        {
          type: 'BidPlaced',
          data: {
            autoBids: [autoBid('alice', 10_000, 'alice-6000')],
            standing: { price: 10_000, leaderId: 'alice', leaderMaximum: 12_000, reserveMet: true },
          },
        },
      ]);
  });

  test('a winning challenger whose maximum meets the reserve is lifted to the reserve', () => {
    auction
      .given(after(withReserve(), placeBid('alice', 6_000, { maximum: 9_500 })))
      .when(placeBid('bob', 6_100, { maximum: 12_000 }))
      .thenEventsMatch([
        {
          type: 'BidPlaced',
          data: {
            autoBids: [autoBid('alice', 9_500, 'alice-6000'), autoBid('bob', 10_000, 'bob-6100')],
            standing: { price: 10_000, leaderId: 'bob', reserveMet: true },
          },
        },
      ]);
  });

  test('a leading maximum below the reserve leaves the reserve unmet', () => {
    auction
      .given(withReserve())
      .when(placeBid('alice', 6_000, { maximum: 9_999 }))
      .thenEventsMatch([{ type: 'BidPlaced', data: { autoBids: [], standing: { price: 6_000, reserveMet: false } } }]);
  });

  test('a leader raising the maximum past the reserve lifts the price to the reserve', () => {
    auction
      .given(after(withReserve(), placeBid('alice', 6_000, { maximum: 8_000 })))
      .when(placeBid('alice', 6_100, { maximum: 15_000, bidId: 'alice-raise' }))
      .thenEventsMatch([
        {
          type: 'MaximumBidRaised',
          data: {
            autoBids: [autoBid('alice', 10_000, 'alice-raise')],
            standing: { price: 10_000, leaderId: 'alice', leadingBidId: 'alice-raise', leaderMaximum: 15_000, reserveMet: true },
          },
        },
      ]);
  });

  test('a leader raising the maximum still below the reserve leaves the price', () => {
    auction
      .given(after(withReserve(), placeBid('alice', 6_000, { maximum: 8_000 })))
      .when(placeBid('alice', 6_100, { maximum: 9_000, bidId: 'alice-raise' }))
      .thenEventsMatch([{ type: 'MaximumBidRaised', data: { autoBids: [], standing: { price: 6_000, reserveMet: false } } }]);
  });
});

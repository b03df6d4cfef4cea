import { describe, expect, test } from 'vitest';
import { biddingTerms, EBAY_INCREMENTS, FLAT_ONE_DOLLAR, incrementAt, minimumNextBid, openingStanding } from '../../../engine/domain';
import {
  admin,
  auctionOpened,
  auctionRules,
  auctionScheduled,
  bidPlaced,
  cancelAuction,
  closeAuction,
  DURING,
  ENDS_AT,
  liveAuction,
  placeBid,
  plusSeconds,
  scheduler,
  SELLER_ID,
  STARTS_AT,
} from '../fixtures';
import { after, auction, scheduledState } from './auction-spec';

describe('PlaceBid', () => {
  test('a first bid on an active auction: BidPlaced with the new standing', () => {
    const bid = placeBid('alice', 6_000);
    auction
      .given(liveAuction())
      .when(bid)
      .thenEvents([
        bidPlaced(bid, { standing: { price: 6_000, leaderId: 'alice', leadingBidId: 'alice-6000', leaderMaximum: 6_000, reserveMet: null } }),
      ]);
  });

  test('only a buyer may bid: an admin or the scheduler gets FORBIDDEN', () => {
    auction.given(liveAuction()).when(placeBid('admin-1', 6_000, { actor: admin })).thenError('FORBIDDEN', 'Access denied');
    auction.given(liveAuction()).when(placeBid('scheduler', 6_000, { actor: scheduler })).thenError('FORBIDDEN', 'Access denied');
  });

  test('a pending auction before its start refuses bids: AUCTION_NOT_STARTED', () => {
    auction
      .given([auctionScheduled()])
      .when(placeBid('alice', 6_000, { at: plusSeconds(STARTS_AT, -1) }))
      .thenError('AUCTION_NOT_STARTED', 'Auction has not started yet');
  });

  test('a pending auction whose start has come is opened by the bid: AuctionOpened then BidPlaced', () => {
    const bid = placeBid('alice', 6_000, { at: DURING });
    auction
      .given([auctionScheduled()])
      .when(bid)
      .thenEvents([
        auctionOpened(DURING, bid),
        bidPlaced(bid, { standing: { price: 6_000, leaderId: 'alice', leadingBidId: 'alice-6000', leaderMaximum: 6_000, reserveMet: null } }),
      ]);
  });

  test('an active auction refuses bids from its end on: AUCTION_ENDED', () => {
    auction.given(liveAuction()).when(placeBid('alice', 6_000, { at: ENDS_AT })).thenError('AUCTION_ENDED', 'Auction has ended');
    auction
      .given(liveAuction())
      .when(placeBid('alice', 6_000, { at: plusSeconds(ENDS_AT, 1) }))
      .thenError('AUCTION_ENDED', 'Auction has ended');
  });

  test('a bid one millisecond before the end is still accepted', () => {
    auction
      .given(liveAuction())
      .when(placeBid('alice', 6_000, { at: '2026-12-08T11:59:59.999Z' }))
      .thenEventsMatch([{ type: 'BidPlaced', data: { amount: 6_000 } }]);
  });

  test('a closed auction refuses bids: AUCTION_ENDED', () => {
    auction
      .given(after(liveAuction(), closeAuction()))
      .when(placeBid('alice', 6_000, { at: DURING }))
      .thenError('AUCTION_ENDED', 'Auction has ended');
  });

  test('a cancelled auction refuses bids: AUCTION_CANCELLED', () => {
    auction
      .given(after(liveAuction(), cancelAuction('Authenticity in doubt')))
      .when(placeBid('alice', 6_000))
      .thenError('AUCTION_CANCELLED', 'This auction was cancelled');
  });

  test('an unknown auction: AUCTION_NOT_FOUND', () => {
    auction.given([]).when(placeBid('alice', 6_000)).thenError('AUCTION_NOT_FOUND', 'Auction not found');
  });

  test('the seller cannot bid on their own listing: SELLER_CANNOT_BID', () => {
    auction
      .given(liveAuction())
      .when(placeBid(SELLER_ID, 6_000))
      .thenError('SELLER_CANNOT_BID', 'You cannot bid on your own listing');
  });

  test('a bid equal to the current price is refused: BID_NOT_ABOVE_CURRENT_PRICE with the spec message', () => {
    const error = auction
      .given(liveAuction())
      .when(placeBid('alice', 5_000))
      .thenError('BID_NOT_ABOVE_CURRENT_PRICE', 'Bid must be higher than current price of $50.00');
    expect(error.kind).toBe('rejected');
    expect(error.details).toEqual({ currentPrice: 5_000, minimumBid: 5_100 });
  });

  test('a bid below the current price is refused: BID_NOT_ABOVE_CURRENT_PRICE', () => {
    const history = after(liveAuction(), placeBid('alice', 6_000));
    const error = auction
      .given(history)
      .when(placeBid('bob', 5_500))
      .thenError('BID_NOT_ABOVE_CURRENT_PRICE', 'Bid must be higher than current price of $60.00');
    expect(error.details).toEqual({ currentPrice: 6_000, minimumBid: 6_100 });
  });

  test('prices in messages use en-US dollars with thousands separators', () => {
    auction
      .given(liveAuction({ startingPrice: 123_400 }))
      .when(placeBid('alice', 123_400))
      .thenError('BID_NOT_ABOVE_CURRENT_PRICE', 'Bid must be higher than current price of $1,234.00');
  });

  test('a bid above the price but short of one increment is refused: BID_BELOW_INCREMENT', () => {
    const error = auction
      .given(liveAuction())
      .when(placeBid('alice', 5_099))
      .thenError('BID_BELOW_INCREMENT', 'Bid must be at least $51.00');
    expect(error.details).toEqual({ currentPrice: 5_000, minimumBid: 5_100 });
  });

  test('a bid of exactly the current price plus one increment is accepted (integer cents)', () => {
    auction
      .given(liveAuction())
      .when(placeBid('alice', 5_100))
      .thenEventsMatch([{ type: 'BidPlaced', data: { amount: 5_100, standing: { price: 5_100 } } }]);
  });

  test('a maximum below the amount is refused: MAXIMUM_BELOW_AMOUNT', () => {
    const error = auction
      .given(liveAuction())
      .when(placeBid('alice', 6_000, { maximum: 5_900 }))
      .thenError('MAXIMUM_BELOW_AMOUNT', 'Maximum bid must be at least the bid amount');
    expect(error.kind).toBe('invalid');
  });

  test('a maximum equal to the amount is a plain bid', () => {
    auction
      .given(liveAuction())
      .when(placeBid('alice', 6_000, { maximum: 6_000 }))
      .thenEventsMatch([{ type: 'BidPlaced', data: { maximum: 6_000, standing: { price: 6_000, leaderMaximum: 6_000 } } }]);
  });

  test('accepted bids are counted in the state', () => {
    const state = scheduledState(after(liveAuction(), placeBid('alice', 6_000), placeBid('bob', 7_000)));
    expect(state.bidCount).toBe(2);
    expect(state.standing).toEqual({ price: 7_000, leaderId: 'bob', leadingBidId: 'bob-7000', leaderMaximum: 7_000, reserveMet: null });
  });
});
describe('increment bands', () => {
  test.each([
    [0, 5],
    [99, 5],
    [100, 25],
    [499, 25],
    [500, 50],
    [2_499, 50],
    [2_500, 100],
    [9_999, 100],
    [10_000, 250],
    [24_999, 250],
    [25_000, 500],
    [49_999, 500],
    [50_000, 1_000],
    [99_999, 1_000],
    [100_000, 2_500],
    [249_999, 2_500],
    [250_000, 5_000],
    [499_999, 5_000],
    [500_000, 10_000],
    [10_000_000, 10_000],
  ])('eBay table: at a price of %i cents the increment is %i cents', (price, increment) => {
    expect(incrementAt(EBAY_INCREMENTS, price)).toBe(increment);
  });

  test('the spec flat table adds $1.00 at any price', () => {
    expect(FLAT_ONE_DOLLAR).toEqual([{ from: 0, increment: 100 }]);
    expect(incrementAt(FLAT_ONE_DOLLAR, 0)).toBe(100);
    expect(incrementAt(FLAT_ONE_DOLLAR, 5_000)).toBe(100);
    expect(incrementAt(FLAT_ONE_DOLLAR, 12_345_600)).toBe(100);
  });

  test.each([
    [99, 104, '$1.04'],
    [100, 125, '$1.25'],
    [499, 524, '$5.24'],
    [500, 550, '$5.50'],
    [2_499, 2_549, '$25.49'],
    [2_500, 2_600, '$26.00'],
    [9_999, 10_099, '$100.99'],
    [10_000, 10_250, '$102.50'],
    [25_000, 25_500, '$255.00'],
    [50_000, 51_000, '$510.00'],
    [100_000, 102_500, '$1,025.00'],
    [250_000, 255_000, '$2,550.00'],
    [500_000, 510_000, '$5,100.00'],
  ])('eBay table: at a price of %i cents the next bid must be at least %i cents', (price, minimum, formatted) => {
    const history = liveAuction({ startingPrice: price, incrementTable: EBAY_INCREMENTS });
    expect(minimumNextBid(auctionRules({ startingPrice: price, incrementTable: EBAY_INCREMENTS }), openingStanding(auctionRules({ startingPrice: price }))))
      .toBe(minimum);
    const error = auction.given(history).when(placeBid('alice', minimum - 1)).thenError('BID_BELOW_INCREMENT', `Bid must be at least ${formatted}`);
    expect(error.details).toEqual({ currentPrice: price, minimumBid: minimum });
    auction
      .given(history)
      .when(placeBid('alice', minimum))
      .thenEventsMatch([{ type: 'BidPlaced', data: { standing: { price: minimum } } }]);
  });

  test('the band follows the current price as bidding climbs', () => {
    // $0.95 + $0.05 = $1.00, which sits in the $0.25 band.
    const history = after(liveAuction({ startingPrice: 95, incrementTable: EBAY_INCREMENTS }), placeBid('alice', 100));
    auction.given(history).when(placeBid('bob', 124)).thenError('BID_BELOW_INCREMENT', 'Bid must be at least $1.25');
    auction.given(history).when(placeBid('bob', 125)).thenEventsMatch([{ type: 'BidPlaced', data: { standing: { price: 125 } } }]);
  });

  test('biddingTerms reports the minimum next bid', () => {
    const state = scheduledState(liveAuction({ startingPrice: 2_500, incrementTable: EBAY_INCREMENTS }));
    expect(biddingTerms(state)).toEqual({ minimumBid: 2_600, buyNowAvailable: false });
  });
});

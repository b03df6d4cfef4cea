import { describe, expect, test } from 'vitest';
import { biddingTerms, buyNowAvailable } from '../../../engine/domain';
import { admin, auctionClosed, auctionScheduled, buyNow, closeAuction, DURING, ENDS_AT, liveAuction, placeBid, SELLER_ID } from '../fixtures';
import { after, auction, scheduledState, stateOf } from './auction-spec';

describe('BuyNow', () => {
  const withBuyNow = (rules: Parameters<typeof liveAuction>[0] = {}) => liveAuction({ buyNowPrice: 20_000, ...rules });

  test('before any bid, buy-now closes the auction as SOLD at the buy-now price', () => {
    const purchase = buyNow('alice');
    auction
      .given(withBuyNow())
      .when(purchase)
      .thenEvents([auctionClosed(purchase, { result: 'SOLD', winnerId: 'alice', winningBidId: 'alice-buy-now', finalPrice: 20_000 })]);
  });

  test('on a pending auction whose start has come, buy-now opens and closes it', () => {
    auction
      .given([auctionScheduled({ rules: { buyNowPrice: 20_000 } })])
      .when(buyNow('alice'))
      .thenEventsMatch([
        { type: 'AuctionOpened', data: { openedAt: DURING } },
        { type: 'AuctionClosed', data: { closedBy: 'BUY_NOW', result: 'SOLD', winnerId: 'alice', finalPrice: 20_000 } },
      ]);
  });

  test('without a reserve, the first bid withdraws buy-now: BUY_NOW_WITHDRAWN', () => {
    auction
      .given(after(withBuyNow(), placeBid('bob', 5_100)))
      .when(buyNow('alice'))
      .thenError('BUY_NOW_WITHDRAWN', 'Buy now is no longer available: bidding has started');
  });

  test('with a reserve, buy-now stays while the reserve is unmet', () => {
    const history = after(withBuyNow({ reservePrice: 10_000 }), placeBid('bob', 6_000), placeBid('carol', 9_000));
    expect(buyNowAvailable(scheduledState(history))).toBe(true);
    auction
      .given(history)
      .when(buyNow('alice'))
      .thenEventsMatch([{ type: 'AuctionClosed', data: { result: 'SOLD', winnerId: 'alice', finalPrice: 20_000 } }]);
  });

  test('with a reserve, buy-now is withdrawn once the reserve is met', () => {
    const history = after(withBuyNow({ reservePrice: 10_000 }), placeBid('bob', 6_000, { maximum: 10_000 }));
    expect(buyNowAvailable(scheduledState(history))).toBe(false);
    auction
      .given(history)
      .when(buyNow('alice'))
      .thenError('BUY_NOW_WITHDRAWN', 'Buy now is no longer available: bidding has started');
  });

  test('an auction without a buy-now price: BUY_NOW_NOT_OFFERED', () => {
    auction.given(liveAuction()).when(buyNow('alice')).thenError('BUY_NOW_NOT_OFFERED', 'Buy now is not available for this auction');
  });

  test('the seller cannot buy: SELLER_CANNOT_BID', () => {
    auction.given(withBuyNow()).when(buyNow(SELLER_ID)).thenError('SELLER_CANNOT_BID', 'You cannot buy your own listing');
  });

  test('only a buyer may buy now: FORBIDDEN', () => {
    auction.given(withBuyNow()).when(buyNow('admin-1', { actor: admin })).thenError('FORBIDDEN', 'Access denied');
  });

  test('buy-now after the end: AUCTION_ENDED', () => {
    auction.given(withBuyNow()).when(buyNow('alice', { at: ENDS_AT })).thenError('AUCTION_ENDED', 'Auction has ended');
  });

  test('after a buy-now, bids and a second buy-now get AUCTION_ENDED and the auction cannot be closed again', () => {
    const history = after(withBuyNow(), buyNow('alice'));
    expect(stateOf(history).status).toBe('ENDED');
    auction.given(history).when(placeBid('bob', 30_000)).thenError('AUCTION_ENDED', 'Auction has ended');
    auction.given(history).when(buyNow('bob')).thenError('AUCTION_ENDED', 'Auction has ended');
    auction.given(history).when(closeAuction()).thenError('AUCTION_ALREADY_CLOSED', 'Auction has already closed');
  });

  test('biddingTerms reports whether buy-now is available', () => {
    expect(biddingTerms(scheduledState(withBuyNow())).buyNowAvailable).toBe(true);
    expect(biddingTerms(scheduledState(after(withBuyNow(), placeBid('bob', 5_100)))).buyNowAvailable).toBe(false);
  });
});

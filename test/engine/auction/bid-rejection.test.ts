import { describe, expect, test } from 'vitest';
import { bidRejection, DomainError } from '../../../engine/domain';
import { AUCTION_ID, buyer, buyNow, DURING, eventMetadata, liveAuction, placeBid } from '../fixtures';
import { after, auction, stateOf } from './auction-spec';

describe('bidRejection', () => {
  test('records a refused bid with its code, message and the price it was judged against', () => {
    const history = after(liveAuction(), placeBid('alice', 6_000));
    const state = stateOf(history);
    const command = placeBid('bob', 6_000, { maximum: 7_000 });
    const error = auction.given(history).when(command).thenError('BID_NOT_ABOVE_CURRENT_PRICE');
    expect(bidRejection(command, error, state)).toEqual({
      type: 'BidRejected',
      data: {
        auctionId: AUCTION_ID,
        bidId: 'bob-6000',
        bidderId: 'bob',
        attempt: 'BID',
        amount: 6_000,
        maximum: 7_000,
        attemptedAt: DURING,
        code: 'BID_NOT_ABOVE_CURRENT_PRICE',
        message: 'Bid must be higher than current price of $60.00',
        priceAtAttempt: 6_000,
      },
      metadata: eventMetadata(buyer('bob'), DURING, 'cmd-bob-6000'),
    });
  });

  test('records a refused buy-now without amount or maximum', () => {
    const history = liveAuction();
    const command = buyNow('alice');
    const error = auction.given(history).when(command).thenError('BUY_NOW_NOT_OFFERED');
    expect(bidRejection(command, error, stateOf(history)).data).toEqual({
      auctionId: AUCTION_ID,
      bidId: 'alice-buy-now',
      bidderId: 'alice',
      attempt: 'BUY_NOW',
      amount: null,
      maximum: null,
      attemptedAt: DURING,
      code: 'BUY_NOW_NOT_OFFERED',
      message: 'Buy now is not available for this auction',
      priceAtAttempt: 5_000,
    });
  });

  test('an attempt on an unknown auction has no price', () => {
    const command = placeBid('alice', 6_000);
    const error = auction.given([]).when(command).thenError('AUCTION_NOT_FOUND');
    expect(error).toBeInstanceOf(DomainError);
    expect(bidRejection(command, error, stateOf([])).data).toMatchObject({ code: 'AUCTION_NOT_FOUND', message: 'Auction not found', priceAtAttempt: null });
  });
});

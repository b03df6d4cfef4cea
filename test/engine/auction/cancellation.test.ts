import { describe, expect, test } from 'vitest';
import {
  auctionCancelled,
  auctionScheduled,
  buyer,
  cancelAuction,
  closeAuction,
  ENDS_AT,
  liveAuction,
  plusSeconds,
  SCHEDULED_AT,
  scheduler,
} from '../fixtures';
import { after, auction, stateOf } from './auction-spec';

describe('CancelAuction', () => {
  test('an admin cancels with a reason: AuctionCancelled', () => {
    const cancellation = cancelAuction('  Authenticity in doubt  ');
    auction.given(liveAuction()).when(cancellation).thenEvents([auctionCancelled(cancellation, 'Authenticity in doubt')]);
  });

  test('a pending auction can be cancelled', () => {
    const history = after([auctionScheduled()], cancelAuction('Duplicate listing', { at: SCHEDULED_AT }));
    const state = stateOf(history);
    expect(state.status).toBe('CANCELLED');
    if (state.status === 'CANCELLED') expect(state.cancellationReason).toBe('Duplicate listing');
  });

  test('only an admin may cancel: FORBIDDEN for the scheduler and buyers', () => {
    auction.given(liveAuction()).when(cancelAuction('reason', { actor: scheduler })).thenError('FORBIDDEN', 'Access denied');
    auction.given(liveAuction()).when(cancelAuction('reason', { actor: buyer('alice') })).thenError('FORBIDDEN', 'Access denied');
  });

  test('a blank reason is refused: REASON_REQUIRED', () => {
    auction.given(liveAuction()).when(cancelAuction('')).thenError('REASON_REQUIRED', 'A reason is required');
    auction.given(liveAuction()).when(cancelAuction('   ')).thenError('REASON_REQUIRED', 'A reason is required');
  });

  test('a reason longer than 500 characters is refused: REASON_TOO_LONG', () => {
    auction
      .given(liveAuction())
      .when(cancelAuction('x'.repeat(501)))
      .thenError('REASON_TOO_LONG', 'The reason must be at most 500 characters');
  });

  test('a closed auction cannot be cancelled: AUCTION_ALREADY_CLOSED', () => {
    auction
      .given(after(liveAuction(), closeAuction()))
      .when(cancelAuction('Too late', { at: plusSeconds(ENDS_AT, 60) }))
      .thenError('AUCTION_ALREADY_CLOSED', 'Auction has already closed');
  });

  test('cancelling twice: AUCTION_CANCELLED', () => {
    auction
      .given(after(liveAuction(), cancelAuction('First')))
      .when(cancelAuction('Second'))
      .thenError('AUCTION_CANCELLED', 'This auction was cancelled');
  });

  test('an unknown auction: AUCTION_NOT_FOUND', () => {
    auction.given([]).when(cancelAuction('reason')).thenError('AUCTION_NOT_FOUND', 'Auction not found');
  });
});

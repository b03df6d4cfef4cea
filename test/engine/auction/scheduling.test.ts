import { describe, expect, test } from 'vitest';
import {
  admin,
  AUCTION_ID,
  auctionOpened,
  auctionScheduled,
  buyer,
  cancelAuction,
  closeAuction,
  DURING,
  ENDS_AT,
  eventMetadata,
  LISTING_ID,
  liveAuction,
  openAuction,
  plusSeconds,
  scheduleAuction,
  SCHEDULED_AT,
  scheduler,
  SELLER_ID,
  STARTS_AT,
} from '../fixtures';
import { after, auction, scheduledState } from './auction-spec';

describe('ScheduleAuction', () => {
  test('an admin schedules a future auction: AuctionScheduled with the command data and metadata', () => {
    const command = scheduleAuction();
    auction
      .given([])
      .when(command)
      .thenEvents([
        {
          type: 'AuctionScheduled',
          data: {
            auctionId: AUCTION_ID,
            listingId: LISTING_ID,
            sellerId: SELLER_ID,
            startsAt: STARTS_AT,
            endsAt: ENDS_AT,
            rules: {
              currency: 'USD',
              startingPrice: 5_000,
              incrementTable: [{ from: 0, increment: 100 }],
              softClose: null,
              reservePrice: null,
              buyNowPrice: null,
            },
          },
          metadata: eventMetadata(admin, SCHEDULED_AT, 'cmd-schedule'),
        },
      ]);
  });

  test('the SYSTEM scheduler may schedule too', () => {
    auction.given([]).when(scheduleAuction({ actor: scheduler })).thenEventsMatch([{ type: 'AuctionScheduled' }]);
  });

  test('a buyer may not schedule: FORBIDDEN "Access denied"', () => {
    auction.given([]).when(scheduleAuction({ actor: buyer('alice') })).thenError('FORBIDDEN', 'Access denied');
  });

  test('an auction whose start has come opens in the same decision', () => {
    const now = plusSeconds(STARTS_AT, 60);
    const command = scheduleAuction({ now });
    auction.given([]).when(command).thenEvents([auctionScheduled({ now }), auctionOpened(now, command)]);
  });

  test('scheduling exactly at the start also opens it', () => {
    auction
      .given([])
      .when(scheduleAuction({ now: STARTS_AT }))
      .thenEventsMatch([{ type: 'AuctionScheduled' }, { type: 'AuctionOpened', data: { openedAt: STARTS_AT } }]);
  });

  test('a scheduled auction is PENDING with the opening standing', () => {
    const state = scheduledState([auctionScheduled({ rules: { reservePrice: 9_000 } })]);
    expect(state.status).toBe('PENDING');
    expect(state.endsAt).toBe(ENDS_AT);
    expect(state.standing).toEqual({ price: 5_000, leaderId: null, leadingBidId: null, leaderMaximum: null, reserveMet: false });
    expect(state.bidCount).toBe(0);
  });

  test('scheduling twice is refused: AUCTION_ALREADY_SCHEDULED', () => {
    auction
      .given([auctionScheduled()])
      .when(scheduleAuction())
      .thenError('AUCTION_ALREADY_SCHEDULED', 'This auction has already been scheduled');
  });

  describe('validation', () => {
    test('the increment table must start at 0: INVALID_INCREMENT_TABLE', () => {
      auction
        .given([])
        .when(scheduleAuction({ rules: { incrementTable: [{ from: 100, increment: 25 }] } }))
        .thenError('INVALID_INCREMENT_TABLE', 'The increment table must start at 0');
    });

    test('increment bands must ascend strictly: INVALID_INCREMENT_TABLE', () => {
      const descending = [
        { from: 0, increment: 5 },
        { from: 500, increment: 50 },
        { from: 100, increment: 25 },
      ];
      auction
        .given([])
        .when(scheduleAuction({ rules: { incrementTable: descending } }))
        .thenError('INVALID_INCREMENT_TABLE', 'Increment bands must be in strictly ascending order');
      const repeated = [
        { from: 0, increment: 5 },
        { from: 0, increment: 25 },
      ];
      auction
        .given([])
        .when(scheduleAuction({ rules: { incrementTable: repeated } }))
        .thenError('INVALID_INCREMENT_TABLE', 'Increment bands must be in strictly ascending order');
    });

    test('the end must come after the start: INVALID_SCHEDULE', () => {
      auction
        .given([])
        .when(scheduleAuction({ endsAt: STARTS_AT }))
        .thenError('INVALID_SCHEDULE', 'The auction must end after it starts');
      auction
        .given([])
        .when(scheduleAuction({ endsAt: plusSeconds(STARTS_AT, -1) }))
        .thenError('INVALID_SCHEDULE', 'The auction must end after it starts');
    });

    test('the end must be in the future: INVALID_SCHEDULE', () => {
      auction
        .given([])
        .when(scheduleAuction({ now: ENDS_AT }))
        .thenError('INVALID_SCHEDULE', 'The auction must end in the future');
      auction
        .given([])
        .when(scheduleAuction({ now: plusSeconds(ENDS_AT, 3600) }))
        .thenError('INVALID_SCHEDULE', 'The auction must end in the future');
    });

    test('the soft-close cap cannot be before the scheduled end: INVALID_SOFT_CLOSE', () => {
      auction
        .given([])
        .when(scheduleAuction({ rules: { softClose: { windowSeconds: 600, latestEndsAt: plusSeconds(ENDS_AT, -1) } } }))
        .thenError('INVALID_SOFT_CLOSE', 'The latest possible end cannot be before the scheduled end');
    });

    test('a soft-close cap equal to the scheduled end is accepted', () => {
      auction
        .given([])
        .when(scheduleAuction({ rules: { softClose: { windowSeconds: 600, latestEndsAt: ENDS_AT } } }))
        .thenEventsMatch([{ type: 'AuctionScheduled' }]);
    });

    test('the reserve cannot be below the starting price: INVALID_RESERVE', () => {
      auction
        .given([])
        .when(scheduleAuction({ rules: { startingPrice: 5_000, reservePrice: 4_999 } }))
        .thenError('INVALID_RESERVE', 'The reserve price cannot be below the starting price');
    });

    test('the buy-now price must be above the starting price: INVALID_BUY_NOW', () => {
      auction
        .given([])
        .when(scheduleAuction({ rules: { startingPrice: 5_000, buyNowPrice: 5_000 } }))
        .thenError('INVALID_BUY_NOW', 'The buy-now price must be above the starting price');
    });

    test('the buy-now price cannot be below the reserve: INVALID_BUY_NOW', () => {
      auction
        .given([])
        .when(scheduleAuction({ rules: { reservePrice: 20_000, buyNowPrice: 19_999 } }))
        .thenError('INVALID_BUY_NOW', 'The buy-now price cannot be below the reserve price');
    });
  });
});
describe('OpenAuction', () => {
  test('opens a pending auction once its start has come', () => {
    auction.given([auctionScheduled()]).when(openAuction(STARTS_AT)).thenEvents([auctionOpened(STARTS_AT)]);
  });

  test('before the start it is refused: AUCTION_NOT_STARTED', () => {
    const error = auction
      .given([auctionScheduled()])
      .when(openAuction(plusSeconds(STARTS_AT, -1)))
      .thenError('AUCTION_NOT_STARTED', 'Auction has not started yet');
    expect(error.details).toEqual({ startsAt: STARTS_AT });
  });

  test('opening an active auction does nothing (idempotent)', () => {
    auction.given(liveAuction()).when(openAuction(DURING)).thenNothing();
  });

  test('a closed auction cannot be opened: AUCTION_ALREADY_CLOSED', () => {
    auction
      .given(after(liveAuction(), closeAuction()))
      .when(openAuction(plusSeconds(ENDS_AT, 1)))
      .thenError('AUCTION_ALREADY_CLOSED', 'Auction has already closed');
  });

  test('a cancelled auction cannot be opened: AUCTION_CANCELLED', () => {
    auction
      .given(after([auctionScheduled()], cancelAuction('Item withdrawn by consignor', { at: SCHEDULED_AT })))
      .when(openAuction(STARTS_AT))
      .thenError('AUCTION_CANCELLED', 'This auction was cancelled');
  });

  test('an unknown auction: AUCTION_NOT_FOUND', () => {
    auction.given([]).when(openAuction(STARTS_AT)).thenError('AUCTION_NOT_FOUND', 'Auction not found');
  });

  test('a buyer may not open an auction: FORBIDDEN', () => {
    auction.given([auctionScheduled()]).when(openAuction(STARTS_AT, buyer('alice'))).thenError('FORBIDDEN', 'Access denied');
  });

  test('an admin may open an auction', () => {
    auction.given([auctionScheduled()]).when(openAuction(STARTS_AT, admin)).thenEventsMatch([{ type: 'AuctionOpened' }]);
  });
});

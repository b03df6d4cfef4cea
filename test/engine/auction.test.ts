import { describe, expect, test } from 'vitest';
import {
  applySubmission,
  auctionDecider,
  bidRejection,
  biddingTerms,
  buyNowAvailable,
  chronological,
  DomainError,
  EBAY_INCREMENTS,
  FLAT_ONE_DOLLAR,
  fold,
  incrementAt,
  minimumNextBid,
  openingStanding,
  type AuctionEvent,
  type AuctionState,
} from '../../engine/domain';
import { spec } from './given-when-then';
import {
  admin,
  AUCTION_ID,
  auctionOpened,
  auctionRules,
  auctionScheduled,
  buyer,
  buyNow,
  cancelAuction,
  closeAuction,
  DURING,
  ENDS_AT,
  eventMetadata,
  LISTING_ID,
  liveAuction,
  metadata,
  openAuction,
  placeBid,
  play,
  plusSeconds,
  retractBid,
  SCHEDULED_AT,
  scheduleAuction,
  scheduler,
  SELLER_ID,
  STARTS_AT,
} from './fixtures';

const auction = spec(auctionDecider);

/** The history after running the given commands against `history`. */
const after = (history: AuctionEvent[], ...commands: Parameters<typeof auctionDecider.decide>[0][]) =>
  play(auctionDecider, history, ...commands);

const stateOf = (history: AuctionEvent[]): AuctionState => fold(auctionDecider, history);

function scheduledState(history: AuctionEvent[]) {
  const state = stateOf(history);
  if (state.status === 'UNSCHEDULED') throw new Error('expected a scheduled auction');
  return state;
}

// ---------------------------------------------------------------------------------------------

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
    auction
      .given([])
      .when(scheduleAuction({ now }))
      .thenEvents([
        { ...auctionScheduled({ now }), metadata: eventMetadata(admin, now, 'cmd-schedule') },
        { type: 'AuctionOpened', data: { auctionId: AUCTION_ID, openedAt: now }, metadata: eventMetadata(admin, now, 'cmd-schedule') },
      ]);
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

// ---------------------------------------------------------------------------------------------

describe('OpenAuction', () => {
  test('opens a pending auction once its start has come', () => {
    auction
      .given([auctionScheduled()])
      .when(openAuction(STARTS_AT))
      .thenEvents([
        { type: 'AuctionOpened', data: { auctionId: AUCTION_ID, openedAt: STARTS_AT }, metadata: eventMetadata(scheduler, STARTS_AT, 'cmd-open') },
      ]);
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

// ---------------------------------------------------------------------------------------------

describe('PlaceBid', () => {
  test('a first bid on an active auction: BidPlaced with the new standing', () => {
    auction
      .given(liveAuction())
      .when(placeBid('alice', 6_000))
      .thenEvents([
        {
          type: 'BidPlaced',
          data: {
            auctionId: AUCTION_ID,
            bidId: 'alice-6000',
            bidderId: 'alice',
            amount: 6_000,
            maximum: null,
            placedAt: DURING,
            autoBids: [],
            standing: { price: 6_000, leaderId: 'alice', leadingBidId: 'alice-6000', leaderMaximum: 6_000, reserveMet: null },
          },
          metadata: eventMetadata(buyer('alice'), DURING, 'cmd-alice-6000'),
        },
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
    const bidder = buyer('alice');
    auction
      .given([auctionScheduled()])
      .when(placeBid('alice', 6_000, { at: DURING }))
      .thenEvents([
        { type: 'AuctionOpened', data: { auctionId: AUCTION_ID, openedAt: DURING }, metadata: eventMetadata(bidder, DURING, 'cmd-alice-6000') },
        {
          type: 'BidPlaced',
          data: {
            auctionId: AUCTION_ID,
            bidId: 'alice-6000',
            bidderId: 'alice',
            amount: 6_000,
            maximum: null,
            placedAt: DURING,
            autoBids: [],
            standing: { price: 6_000, leaderId: 'alice', leadingBidId: 'alice-6000', leaderMaximum: 6_000, reserveMet: null },
          },
          metadata: eventMetadata(bidder, DURING, 'cmd-alice-6000'),
        },
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

// ---------------------------------------------------------------------------------------------

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

// ---------------------------------------------------------------------------------------------

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
    auction
      .given(aliceLeadsWithMaximum(8_000))
      .when(placeBid('bob', 5_200, { maximum: 10_000 }))
      .thenEvents([
        {
          type: 'BidPlaced',
          data: {
            auctionId: AUCTION_ID,
            bidId: 'bob-5200',
            bidderId: 'bob',
            amount: 5_200,
            maximum: 10_000,
            placedAt: DURING,
            autoBids: [
              { bidderId: 'alice', amount: 8_000, forBidId: 'alice-5100' },
              { bidderId: 'bob', amount: 8_100, forBidId: 'bob-5200' },
            ],
            standing: { price: 8_100, leaderId: 'bob', leadingBidId: 'bob-5200', leaderMaximum: 10_000, reserveMet: null },
          },
          metadata: eventMetadata(buyer('bob'), DURING, 'cmd-bob-5200'),
        },
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
            autoBids: [
              { bidderId: 'alice', amount: 8_000, forBidId: 'alice-5100' },
              { bidderId: 'bob', amount: 8_050, forBidId: 'bob-5200' },
            ],
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
    auction
      .given(aliceLeadsWithMaximum(8_000))
      .when(placeBid('bob', 5_200, { maximum: 7_000 }))
      .thenEvents([
        {
          type: 'BidPlaced',
          data: {
            auctionId: AUCTION_ID,
            bidId: 'bob-5200',
            bidderId: 'bob',
            amount: 5_200,
            maximum: 7_000,
            placedAt: DURING,
            autoBids: [
              { bidderId: 'bob', amount: 7_000, forBidId: 'bob-5200' },
              { bidderId: 'alice', amount: 7_100, forBidId: 'alice-5100' },
            ],
            standing: { price: 7_100, leaderId: 'alice', leadingBidId: 'alice-5100', leaderMaximum: 8_000, reserveMet: null },
          },
          metadata: eventMetadata(buyer('bob'), DURING, 'cmd-bob-5200'),
        },
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
            autoBids: [
              { bidderId: 'bob', amount: 7_950, forBidId: 'bob-5200' },
              { bidderId: 'alice', amount: 8_000, forBidId: 'alice-5100' },
            ],
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
            autoBids: [
              { bidderId: 'bob', amount: 8_000, forBidId: 'bob-5200' },
              { bidderId: 'alice', amount: 8_000, forBidId: 'alice-5100' },
            ],
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
          data: { autoBids: [{ bidderId: 'alice', amount: 6_100, forBidId: 'alice-5100' }], standing: { price: 6_100, leaderId: 'alice' } },
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
    auction
      .given(aliceLeadsWithMaximum(8_000))
      .when(placeBid('alice', 5_200, { maximum: 12_000, bidId: 'alice-raise' }))
      .thenEvents([
        {
          type: 'MaximumBidRaised',
          data: {
            auctionId: AUCTION_ID,
            bidId: 'alice-raise',
            bidderId: 'alice',
            amount: 5_200,
            maximum: 12_000,
            placedAt: DURING,
            autoBids: [],
            standing: { price: 5_100, leaderId: 'alice', leadingBidId: 'alice-raise', leaderMaximum: 12_000, reserveMet: null },
          },
          metadata: eventMetadata(buyer('alice'), DURING, 'cmd-alice-raise'),
        },
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
            autoBids: [
              { bidderId: 'bob', amount: 10_000, forBidId: 'bob-5200' },
              { bidderId: 'alice', amount: 10_100, forBidId: 'alice-raise' },
            ],
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
        autoBids: [
          { bidderId: 'alice', amount: 8_000, forBidId: 'alice-5100' },
          { bidderId: 'bob', amount: 8_100, forBidId: 'bob-5200' },
        ],
      });
    });

    test('lower or equal challenger maximum: leader answers at min(leaderMax, challengerMax + increment)', () => {
      const first = applySubmission(rules, openingStanding(rules), submission('alice', 5_100, 8_000)).standing;
      expect(applySubmission(rules, first, submission('bob', 5_200, 6_500)).standing).toMatchObject({ price: 6_600, leaderId: 'alice' });
      expect(applySubmission(rules, first, submission('bob', 5_200, 8_000)).standing).toMatchObject({ price: 8_000, leaderId: 'alice' });
    });
  });
});

// ---------------------------------------------------------------------------------------------

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
            autoBids: [{ bidderId: 'alice', amount: 10_000, forBidId: 'alice-6000' }],
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
            autoBids: [
              { bidderId: 'alice', amount: 9_500, forBidId: 'alice-6000' },
              { bidderId: 'bob', amount: 10_000, forBidId: 'bob-6100' },
            ],
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
            autoBids: [{ bidderId: 'alice', amount: 10_000, forBidId: 'alice-raise' }],
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

// ---------------------------------------------------------------------------------------------

describe('soft close', () => {
  const window = 600; // ten minutes
  const softClose = (latestEndsAt = plusSeconds(ENDS_AT, 3_600)) => liveAuction({ softClose: { windowSeconds: window, latestEndsAt } });
  const fiveMinutesBeforeEnd = plusSeconds(ENDS_AT, -300);

  test('a price-changing bid inside the window extends the end to now + window', () => {
    const bidder = buyer('alice');
    auction
      .given(softClose())
      .when(placeBid('alice', 6_000, { at: fiveMinutesBeforeEnd }))
      .thenEvents([
        {
          type: 'BidPlaced',
          data: {
            auctionId: AUCTION_ID,
            bidId: 'alice-6000',
            bidderId: 'alice',
            amount: 6_000,
            maximum: null,
            placedAt: fiveMinutesBeforeEnd,
            autoBids: [],
            standing: { price: 6_000, leaderId: 'alice', leadingBidId: 'alice-6000', leaderMaximum: 6_000, reserveMet: null },
          },
          metadata: eventMetadata(bidder, fiveMinutesBeforeEnd, 'cmd-alice-6000'),
        },
        {
          type: 'AuctionExtended',
          data: { auctionId: AUCTION_ID, previousEndsAt: ENDS_AT, endsAt: '2026-12-08T12:05:00.000Z', triggeredByBidId: 'alice-6000' },
          metadata: eventMetadata(bidder, fiveMinutesBeforeEnd, 'cmd-alice-6000'),
        },
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

// ---------------------------------------------------------------------------------------------

describe('BuyNow', () => {
  const withBuyNow = (rules: Parameters<typeof liveAuction>[0] = {}) => liveAuction({ buyNowPrice: 20_000, ...rules });

  test('before any bid, buy-now closes the auction as SOLD at the buy-now price', () => {
    auction
      .given(withBuyNow())
      .when(buyNow('alice'))
      .thenEvents([
        {
          type: 'AuctionClosed',
          data: {
            auctionId: AUCTION_ID,
            closedAt: DURING,
            closedBy: 'BUY_NOW',
            result: 'SOLD',
            winnerId: 'alice',
            winningBidId: 'alice-buy-now',
            finalPrice: 20_000,
          },
          metadata: eventMetadata(buyer('alice'), DURING, 'cmd-alice-buy-now'),
        },
      ]);
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

// ---------------------------------------------------------------------------------------------

describe('CloseAuction', () => {
  test('at the end, with a leader and no reserve: SOLD to the leader at the current price', () => {
    // alice leads with a $80.00 maximum; bob's $60.00 is answered at $61.00.
    const history = after(liveAuction(), placeBid('alice', 5_100, { maximum: 8_000 }), placeBid('bob', 6_000));
    auction
      .given(history)
      .when(closeAuction(ENDS_AT))
      .thenEvents([
        {
          type: 'AuctionClosed',
          data: {
            auctionId: AUCTION_ID,
            closedAt: ENDS_AT,
            closedBy: 'TIME',
            result: 'SOLD',
            winnerId: 'alice',
            winningBidId: 'alice-5100',
            finalPrice: 6_100,
          },
          metadata: eventMetadata(scheduler, ENDS_AT, 'cmd-close'),
        },
      ]);
  });

  test('the winning bid is the submission whose maximum leads (a raised maximum)', () => {
    const history = after(
      liveAuction(),
      placeBid('alice', 5_100, { maximum: 8_000 }),
      placeBid('alice', 5_200, { maximum: 12_000, bidId: 'alice-raise' }),
      placeBid('bob', 9_000),
    );
    auction
      .given(history)
      .when(closeAuction())
      .thenEventsMatch([{ type: 'AuctionClosed', data: { result: 'SOLD', winnerId: 'alice', winningBidId: 'alice-raise', finalPrice: 9_100 } }]);
  });

  test('with no bids: NO_BIDS, no winner, no price', () => {
    auction
      .given(liveAuction())
      .when(closeAuction())
      .thenEvents([
        {
          type: 'AuctionClosed',
          data: { auctionId: AUCTION_ID, closedAt: ENDS_AT, closedBy: 'TIME', result: 'NO_BIDS', winnerId: null, winningBidId: null, finalPrice: null },
          metadata: eventMetadata(scheduler, ENDS_AT, 'cmd-close'),
        },
      ]);
  });

  test('with the reserve unmet: RESERVE_NOT_MET, no winner, no price', () => {
    auction
      .given(after(liveAuction({ reservePrice: 10_000 }), placeBid('alice', 6_000)))
      .when(closeAuction())
      .thenEventsMatch([{ type: 'AuctionClosed', data: { result: 'RESERVE_NOT_MET', winnerId: null, winningBidId: null, finalPrice: null } }]);
  });

  test('with the reserve met: SOLD at the reserve-lifted price', () => {
    auction
      .given(after(liveAuction({ reservePrice: 10_000 }), placeBid('alice', 6_000, { maximum: 15_000 })))
      .when(closeAuction())
      .thenEventsMatch([{ type: 'AuctionClosed', data: { result: 'SOLD', winnerId: 'alice', winningBidId: 'alice-6000', finalPrice: 10_000 } }]);
  });

  test('before the end: AUCTION_NOT_OVER', () => {
    const error = auction
      .given(liveAuction())
      .when(closeAuction(plusSeconds(ENDS_AT, -1)))
      .thenError('AUCTION_NOT_OVER', 'Auction has not reached its end yet');
    expect(error.details).toEqual({ endsAt: ENDS_AT });
  });

  test('before an extended end: AUCTION_NOT_OVER; at it: closes', () => {
    const history = after(
      liveAuction({ softClose: { windowSeconds: 600, latestEndsAt: plusSeconds(ENDS_AT, 3_600) } }),
      placeBid('alice', 6_000, { at: plusSeconds(ENDS_AT, -300) }),
    );
    auction
      .given(history)
      .when(closeAuction(ENDS_AT))
      .thenError('AUCTION_NOT_OVER', 'Auction has not reached its end yet');
    auction
      .given(history)
      .when(closeAuction('2026-12-08T12:05:00.000Z'))
      .thenEventsMatch([{ type: 'AuctionClosed', data: { closedAt: '2026-12-08T12:05:00.000Z', result: 'SOLD' } }]);
  });

  test('an auction closes exactly once: AUCTION_ALREADY_CLOSED', () => {
    auction
      .given(after(liveAuction(), closeAuction()))
      .when(closeAuction(plusSeconds(ENDS_AT, 5)))
      .thenError('AUCTION_ALREADY_CLOSED', 'Auction has already closed');
  });

  test('a pending auction past its end closes with NO_BIDS', () => {
    auction
      .given([auctionScheduled()])
      .when(closeAuction(plusSeconds(ENDS_AT, 60)))
      .thenEventsMatch([{ type: 'AuctionClosed', data: { result: 'NO_BIDS', closedBy: 'TIME', winnerId: null } }]);
  });

  test('an admin may close; a buyer may not: FORBIDDEN', () => {
    auction.given(liveAuction()).when(closeAuction(ENDS_AT, admin)).thenEventsMatch([{ type: 'AuctionClosed' }]);
    auction.given(liveAuction()).when(closeAuction(ENDS_AT, buyer('alice'))).thenError('FORBIDDEN', 'Access denied');
  });

  test('a cancelled auction cannot be closed: AUCTION_CANCELLED', () => {
    auction
      .given(after(liveAuction(), cancelAuction('Consignor withdrew')))
      .when(closeAuction())
      .thenError('AUCTION_CANCELLED', 'This auction was cancelled');
  });

  test('an unknown auction: AUCTION_NOT_FOUND', () => {
    auction.given([]).when(closeAuction()).thenError('AUCTION_NOT_FOUND', 'Auction not found');
  });

  test('the closed state keeps the closing', () => {
    const state = stateOf(after(liveAuction(), placeBid('alice', 6_000), closeAuction()));
    expect(state.status).toBe('ENDED');
    if (state.status !== 'ENDED') return;
    expect(state.closing).toMatchObject({ result: 'SOLD', winnerId: 'alice', finalPrice: 6_000 });
  });
});

// ---------------------------------------------------------------------------------------------

describe('CancelAuction', () => {
  test('an admin cancels with a reason: AuctionCancelled', () => {
    auction
      .given(liveAuction())
      .when(cancelAuction('  Authenticity in doubt  '))
      .thenEvents([
        {
          type: 'AuctionCancelled',
          data: { auctionId: AUCTION_ID, reason: 'Authenticity in doubt', cancelledAt: DURING },
          metadata: eventMetadata(admin, DURING, 'cmd-cancel'),
        },
      ]);
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

// ---------------------------------------------------------------------------------------------

describe('RetractBid', () => {
  /**
   * Three bidders with proxies, flat $1 increments from $50.00:
   *   alice $51 (max $90)  -> alice leads at $51
   *   bob   $52 (max $70)  -> alice's proxy answers: alice leads at $71
   *   carol $72 (max $80)  -> alice's proxy answers: alice leads at $81
   */
  const threeBidders = () =>
    after(
      liveAuction(),
      placeBid('alice', 5_100, { maximum: 9_000 }),
      placeBid('bob', 5_200, { maximum: 7_000 }),
      placeBid('carol', 7_200, { maximum: 8_000 }),
    );

  test('the three-bidder history stands as described', () => {
    expect(scheduledState(threeBidders()).standing).toEqual({
      price: 8_100,
      leaderId: 'alice',
      leadingBidId: 'alice-5100',
      leaderMaximum: 9_000,
      reserveMet: null,
    });
  });

  test('retracting the leader bid recomputes leader and price from the surviving bids', () => {
    // Without alice: bob leads at $52 (max $70), carol's $72 is above bob's maximum, so carol leads at $72.
    auction
      .given(threeBidders())
      .when(retractBid('alice-5100'))
      .thenEvents([
        {
          type: 'BidRetracted',
          data: {
            auctionId: AUCTION_ID,
            bidId: 'alice-5100',
            bidderId: 'alice',
            reason: 'Bidder entered the wrong amount',
            standing: { price: 7_200, leaderId: 'carol', leadingBidId: 'carol-7200', leaderMaximum: 8_000, reserveMet: null },
          },
          metadata: eventMetadata(admin, DURING, 'cmd-retract-alice-5100'),
        },
      ]);
  });

  test('retracting an outbid bid: the leader defends against the remaining challenger only', () => {
    // Without carol: alice (max $90) against bob (max $70) -> $71.
    auction
      .given(threeBidders())
      .when(retractBid('carol-7200'))
      .thenEventsMatch([
        { type: 'BidRetracted', data: { bidderId: 'carol', standing: { price: 7_100, leaderId: 'alice', leadingBidId: 'alice-5100', leaderMaximum: 9_000 } } },
      ]);
    // Without bob: alice (max $90) against carol (max $80) -> $81, unchanged.
    auction
      .given(threeBidders())
      .when(retractBid('bob-5200'))
      .thenEventsMatch([{ type: 'BidRetracted', data: { bidderId: 'bob', standing: { price: 8_100, leaderId: 'alice' } } }]);
  });

  test('retracting the only bid returns the price to the starting price with no leader', () => {
    auction
      .given(after(liveAuction({ reservePrice: 10_000 }), placeBid('alice', 6_000)))
      .when(retractBid('alice-6000', 'Duplicate account'))
      .thenEvents([
        {
          type: 'BidRetracted',
          data: {
            auctionId: AUCTION_ID,
            bidId: 'alice-6000',
            bidderId: 'alice',
            reason: 'Duplicate account',
            standing: { price: 5_000, leaderId: null, leadingBidId: null, leaderMaximum: null, reserveMet: false },
          },
          metadata: eventMetadata(admin, DURING, 'cmd-retract-alice-6000'),
        },
      ]);
  });

  test('a retracted bid stays in the history and is listed as retracted', () => {
    const state = scheduledState(after(threeBidders(), retractBid('alice-5100')));
    expect(chronological(state.submissions).map((submission) => submission.bidId)).toEqual(['alice-5100', 'bob-5200', 'carol-7200']);
    expect(state.retractedBidIds).toEqual(['alice-5100']);
    expect(state.standing).toMatchObject({ price: 7_200, leaderId: 'carol' });
    expect(state.bidCount).toBe(3);
  });

  test('bidding continues from the recomputed standing', () => {
    const history = after(threeBidders(), retractBid('alice-5100'));
    auction.given(history).when(placeBid('dave', 7_250)).thenError('BID_BELOW_INCREMENT', 'Bid must be at least $73.00');
    auction
      .given(history)
      .when(placeBid('dave', 7_300))
      .thenEventsMatch([
        {
          type: 'BidPlaced',
          data: {
            autoBids: [{ bidderId: 'carol', amount: 7_400, forBidId: 'carol-7200' }],
            standing: { price: 7_400, leaderId: 'carol' },
          },
        },
      ]);
  });

  test('two retractions: each recomputes from every bid still standing', () => {
    const history = after(threeBidders(), retractBid('alice-5100'));
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
      .given(after(threeBidders(), retractBid('alice-5100')))
      .when(closeAuction())
      .thenEventsMatch([{ type: 'AuctionClosed', data: { result: 'SOLD', winnerId: 'carol', winningBidId: 'carol-7200', finalPrice: 7_200 } }]);
  });
});

// ---------------------------------------------------------------------------------------------

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

// ---------------------------------------------------------------------------------------------

describe('event metadata', () => {
  test('every event of one decision carries the command actor, roles, now, correlation id and command id', () => {
    const at = plusSeconds(ENDS_AT, -60);
    const actor = { userId: 'alice', roles: ['BUYER' as const] };
    const command = {
      ...placeBid('alice', 6_000, { at }),
      metadata: metadata(actor, at, 'cmd-42', 'corr-checkout-7'),
    };
    const events = auction
      .given([auctionScheduled({ rules: { softClose: { windowSeconds: 600, latestEndsAt: plusSeconds(ENDS_AT, 3_600) } } })])
      .when(command)
      .thenEventsMatch([{ type: 'AuctionOpened' }, { type: 'BidPlaced' }, { type: 'AuctionExtended' }]);
    for (const event of events as unknown as AuctionEvent[]) {
      expect(event.metadata).toEqual({
        actorId: 'alice',
        actorRoles: ['BUYER'],
        occurredAt: at,
        correlationId: 'corr-checkout-7',
        commandId: 'cmd-42',
      });
    }
  });

  test('the open event of a scheduled history carries the scheduler as actor', () => {
    expect(auctionOpened().metadata).toEqual(eventMetadata(scheduler, STARTS_AT, 'cmd-open'));
  });
});

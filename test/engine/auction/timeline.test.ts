import { describe, expect, test } from 'vitest';
import {
  auctionTimeline,
  bidRejection,
  commandMetadata,
  decideAuction,
  DomainError,
  evolveAuction,
  incrementBands,
  initialAuctionState,
  type Actor,
  type AuctionCommand,
  type AuctionLogEntry,
  type AuctionRules,
  type AuctionSummary,
  type AuctionTimelineStep,
} from '../../../engine/domain';
import { admin, AUCTION_ID, auctionRules, buyer, LISTING_ID, scheduler, SELLER_ID } from '../fixtures';

/**
 * The timeline of an auction: given the log the decider wrote (its events, and the refused
 * attempts recorded beside them, merged in log order), then every step, its summary and its
 * explanation, exactly.
 */

// ---- a log, written by the real decider -----------------------------------------------------

/** Runs the commands as the command handler does: accepted events go to the stream, refused bids and buy-nows to the rejections. */
function logOf(...commands: AuctionCommand[]): AuctionLogEntry<string>[] {
  const entries: AuctionLogEntry<string>[] = [];
  let state = initialAuctionState;
  let revision = 0;
  for (const command of commands) {
    const position = () => `p${entries.length}`;
    try {
      for (const event of decideAuction(command, state)) {
        state = evolveAuction(state, event);
        entries.push({ kind: 'EVENT', position: position(), revision: revision++, event });
      }
    } catch (error) {
      if (!(error instanceof DomainError) || (command.type !== 'PlaceBid' && command.type !== 'BuyNow')) throw error;
      entries.push({ kind: 'REFUSED', position: position(), rejection: bidRejection(command, error, state) });
    }
  }
  return entries;
}

const DAY = '2026-12-01';
const at = (time: string) => `${DAY}T${time}.000Z`;
const meta = (actor: Actor, time: string, id: string) => commandMetadata(actor, at(time), { correlationId: `corr-${id}`, commandId: `cmd-${id}` });

const ALICE = 'user-a41f';
const BOB = 'user-b2c3';
const CAROL = 'user-c9d0';

function schedule(rules: AuctionRules, ends = '16:02:00'): AuctionCommand {
  return {
    type: 'ScheduleAuction',
    data: { auctionId: AUCTION_ID, listingId: LISTING_ID, sellerId: SELLER_ID, startsAt: at('12:00:00'), endsAt: at(ends), rules },
    metadata: commandMetadata(admin, '2026-11-30T09:30:00.000Z', { correlationId: 'corr-schedule', commandId: 'cmd-schedule' }),
  };
}
const open = (): AuctionCommand => ({ type: 'OpenAuction', data: { auctionId: AUCTION_ID }, metadata: meta(scheduler, '12:00:00', 'open') });
function bid(bidderId: string, bidId: string, amount: number, maximum: number | null, time: string): AuctionCommand {
  return { type: 'PlaceBid', data: { auctionId: AUCTION_ID, bidId, amount, maximum }, metadata: meta(buyer(bidderId), time, bidId) };
}
const buyNow = (bidderId: string, bidId: string, time: string): AuctionCommand => ({
  type: 'BuyNow',
  data: { auctionId: AUCTION_ID, bidId },
  metadata: meta(buyer(bidderId), time, bidId),
});
const retract = (bidId: string, reason: string, time: string): AuctionCommand => ({
  type: 'RetractBid',
  data: { auctionId: AUCTION_ID, bidId, reason },
  metadata: meta(admin, time, `retract-${bidId}`),
});
const close = (time: string): AuctionCommand => ({ type: 'CloseAuction', data: { auctionId: AUCTION_ID }, metadata: meta(scheduler, time, 'close') });
const cancel = (reason: string, time: string): AuctionCommand => ({
  type: 'CancelAuction',
  data: { auctionId: AUCTION_ID, reason },
  metadata: meta(admin, time, 'cancel'),
});

/** What a step's summary shows (the figures the timeline's wire shape carries). */
function figures({ status, price, leaderId, minimumNextBid, endsAt, reserveMet, buyNowAvailable, bidCount }: AuctionSummary) {
  return { status, price, leaderId, minimumNextBid, endsAt, reserveMet, buyNowAvailable, bidCount };
}

/** An explanation line that only shows with maxima revealed, or that reads otherwise while they are hidden. */
type Line = string | { readonly revealed: string | null; readonly hidden: string | null };
const onlyRevealed = (revealed: string): Line => ({ revealed, hidden: null });
const linesWhen = (revealMaxima: boolean, lines: readonly Line[]): string[] =>
  lines.flatMap((line) => {
    const text = typeof line === 'string' ? line : revealMaxima ? line.revealed : line.hidden;
    return text === null ? [] : [text];
  });

// ---- the scenario ---------------------------------------------------------------------------

/** $100.00 start; $10 increments below $500, $25 to $999.99, $50 from $1,000; reserve $500; buy-now $800; 3-minute soft close. */
const RULES = auctionRules({
  startingPrice: 10_000,
  incrementTable: [
    { from: 0, increment: 1_000 },
    { from: 50_000, increment: 2_500 },
    { from: 100_000, increment: 5_000 },
  ],
  softClose: { windowSeconds: 180, latestEndsAt: at('20:00:00') },
  reservePrice: 50_000,
  buyNowPrice: 80_000,
});

/**
 *   alice $150                        -> alice leads at $150
 *   bob   $200 (max $450)             -> bob leads at $200
 *   alice $250 (max $700)             -> bob's proxy answers $450, alice's goes to the reserve: alice leads at $500
 *   carol $500                        -> refused: not above the price
 *   alice raises her maximum to $900  -> the price stays $500
 *   alice tries $550 (max $800)       -> refused: her maximum is not raised
 *   carol $525 (max $600) at 16:00    -> her proxy goes to $600, alice's answers $625; the end moves to 16:03
 *   an admin retracts carol's bid     -> alice leads at $500 again
 *   closed at 16:03                   -> sold to alice for $500
 */
const LOG = logOf(
  schedule(RULES),
  open(),
  bid(ALICE, 'bid-0001', 15_000, null, '13:00:00'),
  bid(BOB, 'bid-0002', 20_000, 45_000, '13:30:00'),
  bid(ALICE, 'bid-0003', 25_000, 70_000, '14:00:00'),
  bid(CAROL, 'bid-0004', 50_000, null, '15:00:00'),
  bid(ALICE, 'bid-0005', 52_500, 90_000, '15:10:00'),
  bid(ALICE, 'bid-0006', 55_000, 80_000, '15:20:00'),
  bid(CAROL, 'bid-0007', 52_500, 60_000, '16:00:00'),
  retract('bid-0007', 'Shill bidding suspected', '16:02:30'),
  close('16:03:00'),
);

const revealed = auctionTimeline(LOG, { revealMaxima: true });
const hidden = auctionTimeline(LOG, { revealMaxima: false });

/** Each step's explanation: the same whether maxima are revealed or not, except where a line says otherwise. */
const EXPLANATIONS: Line[][] = [
  ['Scheduled from 2026-12-01 12:00:00 to 2026-12-01 16:02:00, starting at $100.00'],
  ['Opened'],
  ['Accepted: $150.00 is at least $100.00 + the $10.00 increment of the $0.00–$499.99 band', '…a41f leads at $150.00; reserve not met yet'],
  [
    'Accepted: $200.00 is at least $150.00 + the $10.00 increment of the $0.00–$499.99 band',
    onlyRevealed('Bidder …b2c3 set a maximum of $450.00'),
    '…b2c3 leads at $200.00; reserve not met yet',
  ],
  [
    'Accepted: $250.00 is at least $200.00 + the $10.00 increment of the $0.00–$499.99 band',
    onlyRevealed('Bidder …a41f set a maximum of $700.00'),
    { revealed: "Bidder …b2c3's maximum of $450.00 answered automatically at $450.00", hidden: "Bidder …b2c3's proxy answered automatically at $450.00" },
    { revealed: "Bidder …a41f's maximum of $700.00 answered automatically at $500.00", hidden: "Bidder …a41f's proxy answered automatically at $500.00" },
    '…a41f leads at $500.00; reserve met',
  ],
  ['Refused: Bid must be higher than current price of $500.00'],
  [
    { revealed: 'Leader …a41f raised their maximum to $900.00; the price is unchanged', hidden: 'Leader …a41f raised their maximum; the price is unchanged' },
    '…a41f leads at $500.00; reserve met',
  ],
  [
    {
      revealed: 'Refused: You are already the highest bidder, with a maximum of $900.00',
      hidden: 'Refused: the bidder already leads and did not raise their maximum (hidden while the auction runs)',
    },
  ],
  [
    'Accepted: $525.00 is at least $500.00 + the $25.00 increment of the $500.00–$999.99 band',
    onlyRevealed('Bidder …c9d0 set a maximum of $600.00'),
    { revealed: "Bidder …c9d0's maximum of $600.00 answered automatically at $600.00", hidden: "Bidder …c9d0's proxy answered automatically at $600.00" },
    { revealed: "Bidder …a41f's maximum of $900.00 answered automatically at $625.00", hidden: "Bidder …a41f's proxy answered automatically at $625.00" },
    '…a41f leads at $625.00; reserve met',
  ],
  ['End moved from 16:02:00 to 16:03:00: bid inside the 3-minute soft-close window (latest possible end 20:00:00)'],
  ["…c9d0's bid …0007 retracted by an admin: Shill bidding suspected", '…a41f leads at $500.00; reserve met'],
  ['Closed: sold to …a41f for $500.00; reserve $500.00 met'],
];

type StepFacts = Omit<AuctionTimelineStep<string>, 'explanation' | 'summary'>;
const tried = (bidderId: string, bidId: string, amount: number, maximum: number | null) => ({ attempt: 'BID' as const, bidId, bidderId, amount, maximum });
const byBuyer = (bidderId: string, id: string) => ({ actorId: bidderId, correlationId: `corr-${id}` });

/** Each step without explanation and summary, maxima revealed. */
const STEPS: StepFacts[] = [
  { kind: 'EVENT', type: 'AuctionScheduled', position: 'p0', revision: 0, at: '2026-11-30T09:30:00.000Z', actorId: 'admin-1', correlationId: 'corr-schedule', tried: null, outcome: 'SCHEDULED' },
  { kind: 'EVENT', type: 'AuctionOpened', position: 'p1', revision: 1, at: at('12:00:00'), actorId: 'scheduler', correlationId: 'corr-open', tried: null, outcome: 'OPENED' },
  { kind: 'EVENT', type: 'BidPlaced', position: 'p2', revision: 2, at: at('13:00:00'), ...byBuyer(ALICE, 'bid-0001'), tried: tried(ALICE, 'bid-0001', 15_000, null), outcome: 'ACCEPTED' },
  { kind: 'EVENT', type: 'BidPlaced', position: 'p3', revision: 3, at: at('13:30:00'), ...byBuyer(BOB, 'bid-0002'), tried: tried(BOB, 'bid-0002', 20_000, 45_000), outcome: 'ACCEPTED' },
  { kind: 'EVENT', type: 'BidPlaced', position: 'p4', revision: 4, at: at('14:00:00'), ...byBuyer(ALICE, 'bid-0003'), tried: tried(ALICE, 'bid-0003', 25_000, 70_000), outcome: 'ACCEPTED' },
  { kind: 'REFUSED', type: 'BidRejected', position: 'p5', revision: null, at: at('15:00:00'), ...byBuyer(CAROL, 'bid-0004'), tried: tried(CAROL, 'bid-0004', 50_000, null), outcome: 'REFUSED' },
  { kind: 'EVENT', type: 'MaximumBidRaised', position: 'p6', revision: 5, at: at('15:10:00'), ...byBuyer(ALICE, 'bid-0005'), tried: tried(ALICE, 'bid-0005', 52_500, 90_000), outcome: 'MAXIMUM_RAISED' },
  { kind: 'REFUSED', type: 'BidRejected', position: 'p7', revision: null, at: at('15:20:00'), ...byBuyer(ALICE, 'bid-0006'), tried: tried(ALICE, 'bid-0006', 55_000, 80_000), outcome: 'REFUSED' },
  { kind: 'EVENT', type: 'BidPlaced', position: 'p8', revision: 6, at: at('16:00:00'), ...byBuyer(CAROL, 'bid-0007'), tried: tried(CAROL, 'bid-0007', 52_500, 60_000), outcome: 'ACCEPTED' },
  { kind: 'EVENT', type: 'AuctionExtended', position: 'p9', revision: 7, at: at('16:00:00'), ...byBuyer(CAROL, 'bid-0007'), tried: null, outcome: 'EXTENDED' },
  { kind: 'EVENT', type: 'BidRetracted', position: 'p10', revision: 8, at: at('16:02:30'), actorId: 'admin-1', correlationId: 'corr-retract-bid-0007', tried: null, outcome: 'RETRACTED' },
  { kind: 'EVENT', type: 'AuctionClosed', position: 'p11', revision: 9, at: at('16:03:00'), actorId: 'scheduler', correlationId: 'corr-close', tried: null, outcome: 'CLOSED' },
];

const opening = { leaderId: null, endsAt: at('16:02:00'), reserveMet: false, buyNowAvailable: true } as const;
const aliceAtReserve = { price: 50_000, leaderId: ALICE, minimumNextBid: 52_500, reserveMet: true, buyNowAvailable: false } as const;

/** The summary after each step. */
const SUMMARIES: ReturnType<typeof figures>[] = [
  { status: 'PENDING', price: 10_000, minimumNextBid: 11_000, bidCount: 0, ...opening },
  { status: 'ACTIVE', price: 10_000, minimumNextBid: 11_000, bidCount: 0, ...opening },
  { status: 'ACTIVE', price: 15_000, minimumNextBid: 16_000, bidCount: 1, ...opening, leaderId: ALICE },
  { status: 'ACTIVE', price: 20_000, minimumNextBid: 21_000, bidCount: 2, ...opening, leaderId: BOB },
  { status: 'ACTIVE', ...aliceAtReserve, endsAt: at('16:02:00'), bidCount: 3 },
  { status: 'ACTIVE', ...aliceAtReserve, endsAt: at('16:02:00'), bidCount: 3 },
  { status: 'ACTIVE', ...aliceAtReserve, endsAt: at('16:02:00'), bidCount: 3 },
  { status: 'ACTIVE', ...aliceAtReserve, endsAt: at('16:02:00'), bidCount: 3 },
  { status: 'ACTIVE', ...aliceAtReserve, price: 62_500, minimumNextBid: 65_000, endsAt: at('16:02:00'), bidCount: 4 },
  { status: 'ACTIVE', ...aliceAtReserve, price: 62_500, minimumNextBid: 65_000, endsAt: at('16:03:00'), bidCount: 4 },
  { status: 'ACTIVE', ...aliceAtReserve, endsAt: at('16:03:00'), bidCount: 4 },
  { status: 'ENDED', ...aliceAtReserve, endsAt: at('16:03:00'), bidCount: 4 },
];

describe('auction timeline: proxies, a refused bid, a soft-close extension, a retraction, a close', () => {
  test('the rule set as recorded when the auction was scheduled', () => {
    expect(revealed).toMatchObject({
      auctionId: AUCTION_ID,
      listingId: LISTING_ID,
      rules: RULES,
      startsAt: at('12:00:00'),
      scheduledEndsAt: at('16:02:00'),
    });
  });

  test('every step in log order, refused attempts between the events: who, when, what was tried, the outcome', () => {
    expect(revealed.steps.map(({ explanation: _explanation, summary: _summary, ...step }) => step)).toEqual(STEPS);
  });

  test('the summary after each step; a refused attempt keeps the one it was judged against', () => {
    expect(revealed.steps.map((step) => figures(step.summary))).toEqual(SUMMARIES);
    expect(figures(revealed.summary)).toEqual(SUMMARIES.at(-1));
  });

  test('the explanations, maxima revealed', () => {
    expect(revealed.steps.map((step) => step.explanation)).toEqual(EXPLANATIONS.map((lines) => linesWhen(true, lines)));
  });

  test('the explanations, maxima hidden: no maximum is named', () => {
    expect(hidden.steps.map((step) => step.explanation)).toEqual(EXPLANATIONS.map((lines) => linesWhen(false, lines)));
  });

  test('hiding maxima changes nothing else than the maxima: the explanations above and what was tried', () => {
    const withoutMaxima = revealed.steps.map((step) => ({
      ...step,
      tried: step.tried && { ...step.tried, maximum: null },
      explanation: hidden.steps[revealed.steps.indexOf(step)]!.explanation,
    }));
    expect(hidden.steps).toEqual(withoutMaxima);
    expect(hidden.summary).toEqual(revealed.summary);
  });

  test('asOf a revision: the steps up to its event, the refused attempts logged before it included', () => {
    const atRaise = auctionTimeline(LOG, { revealMaxima: true, asOf: { revision: 5 } });
    expect(atRaise.steps).toEqual(revealed.steps.slice(0, 7));
    expect(atRaise.summary).toEqual(revealed.steps[6]!.summary);
    const atThirdBid = auctionTimeline(LOG, { revealMaxima: true, asOf: { revision: 4 } });
    expect(atThirdBid.steps).toEqual(revealed.steps.slice(0, 5));
    expect(figures(atThirdBid.summary)).toEqual(SUMMARIES[4]);
    expect(auctionTimeline(LOG, { revealMaxima: true, asOf: { revision: 0 } }).steps).toEqual(revealed.steps.slice(0, 1));
    expect(auctionTimeline(LOG, { revealMaxima: true, asOf: { revision: 9 } })).toEqual(revealed);
  });

  test('asOf a time: every step at or before it', () => {
    const quarterPast = auctionTimeline(LOG, { revealMaxima: true, asOf: { time: at('15:15:00') } });
    expect(quarterPast.steps).toEqual(revealed.steps.slice(0, 7));
    expect(quarterPast.summary).toEqual(auctionTimeline(LOG, { revealMaxima: true, asOf: { revision: 5 } }).summary);
    // The extension was decided with the bid: both are in at that very instant.
    const atLateBid = auctionTimeline(LOG, { revealMaxima: true, asOf: { time: at('16:00:00') } });
    expect(atLateBid.steps.map((step) => step.type).slice(-2)).toEqual(['BidPlaced', 'AuctionExtended']);
    expect(figures(atLateBid.summary)).toEqual(SUMMARIES[9]);
    expect(auctionTimeline(LOG, { revealMaxima: true, asOf: { time: '2026-11-30T09:30:00.000Z' } }).steps).toEqual(revealed.steps.slice(0, 1));
  });

  test('asOf a revision the stream lacks, or a time before the scheduling: a clear refusal', () => {
    expect(() => auctionTimeline(LOG, { revealMaxima: true, asOf: { revision: 10 } })).toThrowError(
      expect.objectContaining({ code: 'INVALID_AS_OF', kind: 'invalid', message: 'asOf: this auction has no revision 10; its latest is 9' }),
    );
    expect(() => auctionTimeline(LOG, { revealMaxima: true, asOf: { time: '2026-11-30T09:29:59.999Z' } })).toThrowError(
      expect.objectContaining({ code: 'INVALID_AS_OF', message: 'asOf: the auction was not scheduled yet at 2026-11-30T09:29:59.999Z' }),
    );
  });
});

describe('auction timeline: other endings and rules', () => {
  const explanations = (entries: AuctionLogEntry<string>[], revealMaxima = true) =>
    auctionTimeline(entries, { revealMaxima }).steps.map((step) => step.explanation);

  test('no bids', () => {
    expect(explanations(logOf(schedule(RULES), open(), close('16:02:00'))).at(-1)).toEqual(['Closed: no bids']);
  });

  test('reserve not met: the highest bid stays the price', () => {
    expect(explanations(logOf(schedule(RULES), open(), bid(ALICE, 'bid-1', 30_000, null, '13:00:00'), close('16:02:00'))).at(-1)).toEqual([
      'Closed: reserve $500.00 not met (highest bid $300.00)',
    ]);
  });

  test('bought now: the step tried a buy-now, whose price is the price', () => {
    const timeline = auctionTimeline(logOf(schedule(RULES), buyNow(BOB, 'buy-1', '12:30:00')), { revealMaxima: false });
    expect(timeline.steps.map((step) => [step.outcome, step.explanation])).toEqual([
      ['SCHEDULED', ['Scheduled from 2026-12-01 12:00:00 to 2026-12-01 16:02:00, starting at $100.00']],
      ['OPENED', ['Opened']],
      ['CLOSED', ['Closed: bought now by …b2c3 for $800.00']],
    ]);
    expect(timeline.steps[2]!.tried).toEqual({ attempt: 'BUY_NOW', bidId: 'buy-1', bidderId: BOB, amount: 80_000, maximum: null });
    expect(figures(timeline.summary)).toMatchObject({ status: 'ENDED', price: 80_000, buyNowAvailable: false });
  });

  test('a refused buy-now: its message, nothing tried but the attempt', () => {
    const timeline = auctionTimeline(logOf(schedule(RULES), open(), bid(ALICE, 'bid-1', 60_000, null, '13:00:00'), buyNow(BOB, 'buy-1', '13:05:00')), {
      revealMaxima: true,
    });
    expect(timeline.steps.at(-1)).toMatchObject({
      kind: 'REFUSED',
      tried: { attempt: 'BUY_NOW', bidId: 'buy-1', bidderId: BOB, amount: null, maximum: null },
      explanation: ['Refused: Buy now is no longer available: bidding has started'],
    });
  });

  test('cancelled: the reason', () => {
    expect(explanations(logOf(schedule(RULES), cancel('Item damaged in transit', '13:00:00'))).at(-1)).toEqual(['Cancelled: Item damaged in transit']);
  });

  test('without a reserve: a sale and a lead say nothing of one', () => {
    const plain = auctionRules();
    const steps = explanations(logOf(schedule(plain), open(), bid(ALICE, 'bid-1', 6_000, null, '13:00:00'), close('16:02:00')));
    expect(steps.slice(-2)).toEqual([
      ['Accepted: $60.00 is at least $50.00 + the $1.00 increment of the $0.00 and up band', '…a41f leads at $60.00'],
      ['Closed: sold to …a41f for $60.00'],
    ]);
  });

  test('retracting the only bid: no bid stands and the price is back at the start', () => {
    const steps = explanations(logOf(schedule(RULES), open(), bid(ALICE, 'bid-0001', 15_000, null, '13:00:00'), retract('bid-0001', 'Duplicate account', '13:10:00')));
    expect(steps.at(-1)).toEqual(["…a41f's bid …0001 retracted by an admin: Duplicate account", 'No bid stands: the price is $100.00; reserve not met yet']);
  });

  test('a soft-close window in seconds, a latest end on another day: the date is shown', () => {
    const rules = { ...RULES, softClose: { windowSeconds: 90, latestEndsAt: '2026-12-02T08:00:00.000Z' } };
    const steps = explanations(logOf(schedule(rules), open(), bid(ALICE, 'bid-1', 15_000, null, '16:01:00')));
    expect(steps.at(-1)).toEqual(['End moved from 16:02:00 to 16:02:30: bid inside the 90-second soft-close window (latest possible end 2026-12-02 08:00:00)']);
  });

  test('a bid that opens the auction: the opening is its own step, in the same correlation', () => {
    const timeline = auctionTimeline(logOf(schedule(RULES), bid(ALICE, 'bid-1', 15_000, null, '13:00:00')), { revealMaxima: true });
    expect(timeline.steps.map((step) => [step.type, step.correlationId, step.summary.status])).toEqual([
      ['AuctionScheduled', 'corr-schedule', 'PENDING'],
      ['AuctionOpened', 'corr-bid-1', 'ACTIVE'],
      ['BidPlaced', 'corr-bid-1', 'ACTIVE'],
    ]);
  });

  test('an attempt refused before the auction was scheduled is left out: it was judged against no auction', () => {
    const early = logOf(bid(ALICE, 'bid-0', 15_000, null, '11:00:00'));
    expect(early.map((entry) => entry.kind)).toEqual(['REFUSED']);
    const timeline = auctionTimeline([...early, ...logOf(schedule(RULES)).map((entry) => ({ ...entry, position: 'p1' }))], { revealMaxima: true });
    expect(timeline.steps.map((step) => step.type)).toEqual(['AuctionScheduled']);
  });

  test('a log that never schedules the auction: not found', () => {
    expect(() => auctionTimeline(logOf(bid(ALICE, 'bid-0', 15_000, null, '11:00:00')), { revealMaxima: true })).toThrowError(
      expect.objectContaining({ code: 'AUCTION_NOT_FOUND', kind: 'not_found', message: 'Auction not found' }),
    );
  });
});

describe('increment bands', () => {
  test('each band runs up to one cent below the next; the last has no end', () => {
    expect(incrementBands(RULES.incrementTable)).toEqual([
      { from: 0, to: 49_999, increment: 1_000 },
      { from: 50_000, to: 99_999, increment: 2_500 },
      { from: 100_000, to: null, increment: 5_000 },
    ]);
  });
});

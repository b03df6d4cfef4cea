import fc from 'fast-check';
import {
  DomainError,
  EBAY_INCREMENTS,
  FLAT_ONE_DOLLAR,
  decideAuction,
  evolveAuction,
  fromMillis,
  initialAuctionState,
  minimumNextBid,
  type Actor,
  type AuctionCommand,
  type AuctionEvent,
  type AuctionRules,
  type AuctionState,
  type CommandMetadata,
  type IncrementBand,
} from '../../engine/domain';

/**
 * Random auctions for the property tests: a rule set and schedule, then a list of plain-data steps
 * (a move of the clock and an action). The driver turns each step into a command against the
 * state it has reached, so the data shrinks well and the commands stay near the interesting edges
 * (the minimum next bid, the leader's maximum, the start, the end and the soft-close window).
 */

export const AUCTION_ID = 'auction-1';
export const LISTING_ID = 'listing-1';
export const SELLER_ID = 'sally';
/** Index 4 is the seller, who holds the BUYER role too and must be refused. */
export const BIDDERS = ['alice', 'bob', 'carol', 'dave', SELLER_ID] as const;

const BASE_MS = Date.parse('2026-03-01T12:00:00.000Z');

export const ADMIN: Actor = { userId: 'admin-1', roles: ['ADMIN'] };
export const SYSTEM: Actor = { userId: 'scheduler', roles: ['SYSTEM'] };
export const buyer = (userId: string): Actor => ({ userId, roles: ['BUYER'] });

export interface AuctionSchedule {
  readonly scheduledAt: number;
  readonly startsAt: number;
  readonly endsAt: number;
  readonly rules: AuctionRules;
}

export type TimeMove =
  | { readonly kind: 'step'; readonly ms: number }
  | { readonly kind: 'nearStart'; readonly offsetMs: number }
  /** Relative to the end in force at that moment (soft close may have moved it). */
  | { readonly kind: 'nearEnd'; readonly offsetMs: number };

export type MaximumSpec =
  | { readonly kind: 'none' }
  | { readonly kind: 'above'; readonly extra: number }
  /** The leader's current maximum plus delta: produces ties and near-ties with the leader. */
  | { readonly kind: 'tieLeader'; readonly delta: number }
  /** Below the amount: an invalid command. */
  | { readonly kind: 'below'; readonly by: number };

export type AuctionAction =
  /** amount = minimum next bid + delta (at least 1 cent). */
  | { readonly kind: 'bid'; readonly bidder: number; readonly delta: number; readonly maximum: MaximumSpec }
  | { readonly kind: 'buyNow'; readonly bidder: number }
  | { readonly kind: 'open' }
  | { readonly kind: 'close'; readonly by: 'SYSTEM' | 'ADMIN' | 'BUYER' }
  | { readonly kind: 'cancel'; readonly reason: string }
  /** pick indexes the accepted submissions so far; one past the end names an unknown bid. */
  | { readonly kind: 'retract'; readonly pick: number; readonly reason: string };

export interface AuctionStep {
  readonly time: TimeMove;
  readonly action: AuctionAction;
}

export interface AuctionScenario {
  readonly schedule: AuctionSchedule;
  readonly steps: readonly AuctionStep[];
}

// ---- rules and schedule ---------------------------------------------------------------------

export const incrementTableArb: fc.Arbitrary<IncrementBand[]> = fc.oneof(
  fc.constant(null).map(() => FLAT_ONE_DOLLAR.map((band) => ({ ...band }))),
  fc.constant(null).map(() => EBAY_INCREMENTS.map((band) => ({ ...band }))),
  fc
    .record({
      first: fc.integer({ min: 1, max: 2_000 }),
      rest: fc.uniqueArray(
        fc.record({ from: fc.integer({ min: 1, max: 400_000 }), increment: fc.integer({ min: 1, max: 10_000 }) }),
        { selector: (band) => band.from, maxLength: 5 },
      ),
    })
    .map(({ first, rest }) => [
      { from: 0, increment: first },
      // Plain objects: fc.record may build them without a prototype, which a JSON round trip would not keep.
      ...[...rest].sort((a, b) => a.from - b.from).map(({ from, increment }) => ({ from, increment })),
    ]),
);

export const scheduleArb: fc.Arbitrary<AuctionSchedule> = fc
  .record({
    startingPrice: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 2_000 }), fc.integer({ min: 0, max: 300_000 })),
    incrementTable: incrementTableArb,
    reserveExtra: fc.option(fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 5_000 }), fc.integer({ min: 0, max: 100_000 }))),
    buyNowExtra: fc.option(fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 50_000 }))),
    softClose: fc.option(
      fc.record({
        windowSeconds: fc.oneof(fc.integer({ min: 1, max: 60 }), fc.integer({ min: 60, max: 1_800 })),
        capMs: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 600_000 }), fc.integer({ min: 0, max: 3_600_000 })),
      }),
    ),
    durationMs: fc.oneof(fc.integer({ min: 60_000, max: 600_000 }), fc.integer({ min: 60_000, max: 2 * 3_600_000 })),
    /** When the schedule command is decided, relative to the start: before it, or after (opens at once). */
    scheduledOffsetMs: fc.oneof(
      { weight: 1, arbitrary: fc.integer({ min: -600_000, max: 0 }) },
      { weight: 2, arbitrary: fc.integer({ min: -10_000, max: 0 }) },
      { weight: 1, arbitrary: fc.integer({ min: 0, max: 30_000 }) },
    ),
  })
  .map(({ startingPrice, incrementTable, reserveExtra, buyNowExtra, softClose, durationMs, scheduledOffsetMs }) => {
    const startsAt = BASE_MS;
    const endsAt = startsAt + durationMs;
    const reservePrice = reserveExtra === null ? null : Math.max(1, startingPrice + reserveExtra);
    const buyNowPrice = buyNowExtra === null ? null : Math.max(startingPrice + 1, reservePrice ?? 0) + buyNowExtra;
    const rules: AuctionRules = {
      currency: 'USD',
      startingPrice,
      incrementTable,
      softClose: softClose === null ? null : { windowSeconds: softClose.windowSeconds, latestEndsAt: fromMillis(endsAt + softClose.capMs) },
      reservePrice,
      buyNowPrice,
    };
    return { scheduledAt: startsAt + Math.min(scheduledOffsetMs, durationMs - 1), startsAt, endsAt, rules };
  });

// ---- steps ----------------------------------------------------------------------------------

const timeMoveArb: fc.Arbitrary<TimeMove> = fc.oneof(
  { weight: 8, arbitrary: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 2_000 })).map((ms): TimeMove => ({ kind: 'step', ms })) },
  { weight: 3, arbitrary: fc.integer({ min: 1, max: 30_000 }).map((ms): TimeMove => ({ kind: 'step', ms })) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 300_000 }).map((ms): TimeMove => ({ kind: 'step', ms })) },
  {
    // Mostly into the soft-close window, sometimes right on or just past the end.
    weight: 1,
    arbitrary: fc
      .oneof(
        { weight: 6, arbitrary: fc.integer({ min: -1_800_000, max: -1 }) },
        { weight: 4, arbitrary: fc.integer({ min: -5_000, max: 0 }) },
        { weight: 1, arbitrary: fc.constantFrom(-1, 0, 1) },
        { weight: 1, arbitrary: fc.integer({ min: 0, max: 5_000 }) },
      )
      .map((offsetMs): TimeMove => ({ kind: 'nearEnd', offsetMs })),
  },
  { weight: 1, arbitrary: fc.integer({ min: -5_000, max: 5_000 }).map((offsetMs): TimeMove => ({ kind: 'nearStart', offsetMs })) },
);

/** Mostly three rivals, so that the same bidders meet again and again; now and then a fourth, or the seller. */
const bidderArb = fc.oneof(
  { weight: 16, arbitrary: fc.integer({ min: 0, max: 2 }) },
  { weight: 2, arbitrary: fc.constant(3) },
  { weight: 1, arbitrary: fc.constant(4) },
);

const deltaArb = fc.oneof(
  { weight: 4, arbitrary: fc.constant(0) },
  { weight: 3, arbitrary: fc.integer({ min: 1, max: 100 }) },
  { weight: 2, arbitrary: fc.integer({ min: 101, max: 20_000 }) },
  { weight: 2, arbitrary: fc.integer({ min: -500, max: -1 }) },
);

const maximumSpecArb: fc.Arbitrary<MaximumSpec> = fc.oneof(
  { weight: 3, arbitrary: fc.constant<MaximumSpec>({ kind: 'none' }) },
  { weight: 4, arbitrary: fc.oneof(fc.integer({ min: 0, max: 500 }), fc.integer({ min: 0, max: 30_000 })).map((extra): MaximumSpec => ({ kind: 'above', extra })) },
  { weight: 3, arbitrary: fc.integer({ min: -2, max: 2 }).map((delta): MaximumSpec => ({ kind: 'tieLeader', delta })) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 100 }).map((by): MaximumSpec => ({ kind: 'below', by })) },
);

const reasonArb = fc.oneof({ weight: 5, arbitrary: fc.constant('shill bidding suspected') }, { weight: 1, arbitrary: fc.constantFrom('', '   ') });

const actionArb: fc.Arbitrary<AuctionAction> = fc.oneof(
  {
    weight: 60,
    arbitrary: fc.record({ bidder: bidderArb, delta: deltaArb, maximum: maximumSpecArb }).map((bid): AuctionAction => ({ kind: 'bid', ...bid })),
  },
  { weight: 3, arbitrary: bidderArb.map((bidder): AuctionAction => ({ kind: 'buyNow', bidder })) },
  { weight: 2, arbitrary: fc.constant<AuctionAction>({ kind: 'open' }) },
  {
    weight: 6,
    arbitrary: fc
      .oneof({ weight: 4, arbitrary: fc.constant('SYSTEM' as const) }, { weight: 1, arbitrary: fc.constantFrom('ADMIN' as const, 'BUYER' as const) })
      .map((by): AuctionAction => ({ kind: 'close', by })),
  },
  { weight: 1, arbitrary: reasonArb.map((reason): AuctionAction => ({ kind: 'cancel', reason })) },
  {
    weight: 10,
    arbitrary: fc.record({ pick: fc.nat({ max: 1_000 }), reason: reasonArb }).map((retract): AuctionAction => ({ kind: 'retract', ...retract })),
  },
);

export const auctionScenarioArb: fc.Arbitrary<AuctionScenario> = fc.record({
  schedule: scheduleArb,
  steps: fc.array(fc.record({ time: timeMoveArb, action: actionArb }), { maxLength: 60, size: 'max' }),
});

// ---- driver ---------------------------------------------------------------------------------

export interface AuctionStepRecord {
  readonly command: AuctionCommand;
  readonly before: AuctionState;
  readonly after: AuctionState;
  /** The events the command caused; empty when it was refused. */
  readonly events: readonly AuctionEvent[];
  readonly error: DomainError | null;
}

export interface AuctionRun {
  readonly scenario: AuctionScenario;
  readonly rules: AuctionRules;
  readonly records: readonly AuctionStepRecord[];
  /** Every accepted event, in order: the auction's stream. */
  readonly events: readonly AuctionEvent[];
  readonly final: AuctionState;
}

type Scheduled = Exclude<AuctionState, { status: 'UNSCHEDULED' }>;

export function scheduled(state: AuctionState): Scheduled {
  if (state.status === 'UNSCHEDULED') throw new Error('the auction should have been scheduled');
  return state;
}

function metadata(actor: Actor, nowMs: number, index: number): CommandMetadata {
  return { actor, now: fromMillis(nowMs), correlationId: `corr-${index}`, commandId: `cmd-${index}` };
}

/** Runs the scenario: decide each command; a DomainError leaves the state unchanged; else fold. */
export function runAuction(scenario: AuctionScenario): AuctionRun {
  const { schedule } = scenario;
  const records: AuctionStepRecord[] = [];
  const events: AuctionEvent[] = [];
  const submissionIds: string[] = [];
  let state: AuctionState = initialAuctionState;

  const submit = (command: AuctionCommand): void => {
    const before = state;
    let produced: AuctionEvent[] = [];
    let error: DomainError | null = null;
    // Most random commands are refused; capturing a stack for each DomainError would dominate the run.
    const stackTraceLimit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    try {
      produced = decideAuction(command, before);
    } catch (caught) {
      // Anything but a DomainError is a crash, which fails the property.
      if (!(caught instanceof DomainError)) throw caught;
      error = caught;
    } finally {
      Error.stackTraceLimit = stackTraceLimit;
    }
    for (const event of produced) {
      state = evolveAuction(state, event);
      if (event.type === 'BidPlaced' || event.type === 'MaximumBidRaised') submissionIds.push(event.data.bidId);
    }
    events.push(...produced);
    records.push({ command, before, after: state, events: produced, error });
  };

  submit({
    type: 'ScheduleAuction',
    data: {
      auctionId: AUCTION_ID,
      listingId: LISTING_ID,
      sellerId: SELLER_ID,
      startsAt: fromMillis(schedule.startsAt),
      endsAt: fromMillis(schedule.endsAt),
      rules: schedule.rules,
    },
    metadata: metadata(ADMIN, schedule.scheduledAt, 0),
  });
  if (records[0]!.error) throw new Error(`generator bug: schedule refused: ${records[0]!.error.code}`);

  let now = schedule.scheduledAt;
  scenario.steps.forEach((step, position) => {
    const index = position + 1;
    const live = scheduled(state);
    const target =
      step.time.kind === 'step'
        ? now + step.time.ms
        : step.time.kind === 'nearStart'
          ? schedule.startsAt + step.time.offsetMs
          : Date.parse(live.endsAt) + step.time.offsetMs;
    now = Math.max(now, target); // time never runs backwards
    submit(commandFor(step.action, live, now, index, submissionIds));
  });

  return { scenario, rules: schedule.rules, records, events, final: state };
}

function commandFor(action: AuctionAction, live: Scheduled, now: number, index: number, submissionIds: readonly string[]): AuctionCommand {
  const auctionId = AUCTION_ID;
  switch (action.kind) {
    case 'bid': {
      const { standing } = live;
      let amount = Math.max(1, minimumNextBid(live.facts.rules, standing) + action.delta);
      let maximum: number | null;
      switch (action.maximum.kind) {
        case 'none':
          maximum = null;
          break;
        case 'above':
          maximum = amount + action.maximum.extra;
          break;
        case 'tieLeader':
          maximum = Math.max(1, (standing.leaderMaximum ?? standing.price) + action.maximum.delta);
          amount = Math.min(amount, maximum);
          break;
        case 'below':
          maximum = Math.max(1, amount - action.maximum.by);
          break;
      }
      return {
        type: 'PlaceBid',
        data: { auctionId, bidId: `bid-${index}`, amount, maximum },
        metadata: metadata(buyer(BIDDERS[action.bidder]!), now, index),
      };
    }
    case 'buyNow':
      return { type: 'BuyNow', data: { auctionId, bidId: `bid-${index}` }, metadata: metadata(buyer(BIDDERS[action.bidder]!), now, index) };
    case 'open':
      return { type: 'OpenAuction', data: { auctionId }, metadata: metadata(SYSTEM, now, index) };
    case 'close': {
      const actor = action.by === 'SYSTEM' ? SYSTEM : action.by === 'ADMIN' ? ADMIN : buyer('alice');
      return { type: 'CloseAuction', data: { auctionId }, metadata: metadata(actor, now, index) };
    }
    case 'cancel':
      return { type: 'CancelAuction', data: { auctionId, reason: action.reason }, metadata: metadata(ADMIN, now, index) };
    case 'retract': {
      const pick = action.pick % (submissionIds.length + 1);
      const bidId = submissionIds[pick] ?? 'bid-unknown';
      return { type: 'RetractBid', data: { auctionId, bidId, reason: action.reason }, metadata: metadata(ADMIN, now, index) };
    }
    default: {
      const unreachable: never = action;
      return unreachable;
    }
  }
}

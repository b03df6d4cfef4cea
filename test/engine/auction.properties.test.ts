import fc from 'fast-check';
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import {
  auctionCommandSchema,
  auctionDecider,
  auctionEventSchema,
  buyNowAvailable,
  chronological,
  evolveAuction,
  fold,
  incrementAt,
  initialAuctionState,
  replaySubmissions,
  type AuctionEvent,
  type AuctionState,
} from '../../engine/domain';
import {
  auctionScenarioArb,
  runAuction,
  scheduled,
  type AuctionRun,
  type AuctionScenario,
  type AuctionStep,
  type AuctionStepRecord,
} from './arbitraries';

/**
 * Properties of the auction decider over random rule sets and random command sequences (see
 * arbitraries.ts). Every property drives decideAuction / evolveAuction the way the command handler
 * does and checks the recorded outcome against a rule stated independently of the engine's code.
 */

const RUNS = 500;
/** Runs the property over RUNS random scenarios, after any given examples (always run first). */
const check = (property: (run: AuctionRun) => void, examples: AuctionScenario[] = []) =>
  fc.assert(
    fc.property(auctionScenarioArb, (scenario) => property(runAuction(scenario))),
    { numRuns: RUNS, examples: examples.map((scenario): [AuctionScenario] => [scenario]) },
  );

const START = Date.parse('2026-03-01T12:00:00.000Z');
const at = (steps: AuctionStep['action'][]): AuctionStep[] => steps.map((action) => ({ time: { kind: 'step', ms: 1_000 }, action }));

/**
 * Alice bids $1.00, then (still leading) raises her maximum to $1,002.00 with an amount of $2.00;
 * Bob bids $2.00 and Alice's proxy answers at $3.00. Retracting Alice's first bid should leave a
 * price near $3.00; the engine shows $1,002.00, Alice's whole secret maximum.
 */
const RETRACTION_REVEALS_MAXIMUM: AuctionScenario = {
  schedule: {
    scheduledAt: START,
    startsAt: START,
    endsAt: START + 3_600_000,
    rules: { currency: 'USD', startingPrice: 0, incrementTable: [{ from: 0, increment: 100 }], softClose: null, reservePrice: null, buyNowPrice: null },
  },
  steps: at([
    { kind: 'bid', bidder: 0, delta: 0, maximum: { kind: 'none' } }, // alice $1.00
    { kind: 'bid', bidder: 0, delta: 0, maximum: { kind: 'above', extra: 100_000 } }, // alice: amount $2.00, maximum $1,002.00
    { kind: 'bid', bidder: 1, delta: 0, maximum: { kind: 'none' } }, // bob $2.00; alice's proxy answers $3.00
    { kind: 'retract', pick: 0, reason: 'entered in error' }, // retract alice's $1.00
  ]),
};

/**
 * Assertions for hot loops: vitest's expect costs far more than the comparison, so compare first
 * and let expect build the report only when the comparison fails.
 */
const must = {
  be(actual: unknown, expected: unknown, message?: string) {
    if (!Object.is(actual, expected)) expect(actual, message).toBe(expected);
  },
  equal(actual: unknown, expected: unknown, message?: string) {
    if (!isDeepStrictEqual(actual, expected)) expect(actual, message).toStrictEqual(expected);
  },
  lt(actual: number, limit: number, message?: string) {
    if (!(actual < limit)) expect(actual, message).toBeLessThan(limit);
  },
  le(actual: number, limit: number, message?: string) {
    if (!(actual <= limit)) expect(actual, message).toBeLessThanOrEqual(limit);
  },
  gt(actual: number, limit: number, message?: string) {
    if (!(actual > limit)) expect(actual, message).toBeGreaterThan(limit);
  },
  ge(actual: number, limit: number, message?: string) {
    if (!(actual >= limit)) expect(actual, message).toBeGreaterThanOrEqual(limit);
  },
  hold(condition: boolean, message: string) {
    if (!condition) expect(condition, message).toBe(true);
  },
};

interface EventVisit {
  readonly before: AuctionState;
  readonly event: AuctionEvent;
  readonly after: AuctionState;
  readonly record: AuctionStepRecord;
}

/** Every accepted event with the state just before and just after it. */
function eachEvent(run: AuctionRun, visit: (visit: EventVisit) => void): void {
  for (const record of run.records) {
    let state = record.before;
    for (const event of record.events) {
      const after = evolveAuction(state, event);
      visit({ before: state, event, after, record });
      state = after;
    }
  }
}

const isTerminal = (event: AuctionEvent) => event.type === 'AuctionClosed' || event.type === 'AuctionCancelled';

/**
 * An independent model of the accepted submissions: who submitted what maximum, in what order,
 * and which were retracted. It knows nothing of the engine's proxy algorithm.
 */
interface ModelSubmission {
  readonly seq: number;
  readonly bidId: string;
  readonly bidderId: string;
  readonly maximum: number;
  /** The amount the bidder typed in the PlaceBid command (for a raise too: the event does not record it). */
  readonly explicitAmount: number;
}

class Ledger {
  readonly submissions: ModelSubmission[] = [];
  readonly retracted = new Set<string>();

  apply(event: AuctionEvent, record: AuctionStepRecord): void {
    if (event.type === 'BidPlaced') {
      const { bidId, bidderId, amount, maximum } = event.data;
      this.submissions.push({ seq: this.submissions.length, bidId, bidderId, maximum: maximum ?? amount, explicitAmount: amount });
    } else if (event.type === 'MaximumBidRaised') {
      const { bidId, bidderId, maximum } = event.data;
      if (record.command.type !== 'PlaceBid') throw new Error('a maximum raise comes from a PlaceBid command');
      this.submissions.push({ seq: this.submissions.length, bidId, bidderId, maximum, explicitAmount: record.command.data.amount });
    } else if (event.type === 'BidRetracted') {
      this.retracted.add(event.data.bidId);
    }
  }

  surviving(): ModelSubmission[] {
    return this.submissions.filter((submission) => !this.retracted.has(submission.bidId));
  }

  byId(bidId: string): ModelSubmission | undefined {
    return this.submissions.find((submission) => submission.bidId === bidId);
  }

  maximumOf(bidderId: string): number | null {
    const own = this.surviving().filter((submission) => submission.bidderId === bidderId);
    return own.length === 0 ? null : Math.max(...own.map((submission) => submission.maximum));
  }

  /**
   * Each bidder's standing maximum is the highest of their surviving submissions, reached first by
   * the earliest submission carrying it. The leader has the highest; a tie goes to the bidder whose
   * qualifying submission came first. Returns that qualifying submission.
   */
  expectedLeader(): ModelSubmission | null {
    const best = new Map<string, ModelSubmission>();
    for (const submission of this.surviving()) {
      const current = best.get(submission.bidderId);
      if (!current || submission.maximum > current.maximum) best.set(submission.bidderId, submission);
    }
    let leader: ModelSubmission | null = null;
    for (const candidate of best.values()) {
      if (!leader || candidate.maximum > leader.maximum || (candidate.maximum === leader.maximum && candidate.seq < leader.seq)) {
        leader = candidate;
      }
    }
    return leader;
  }
}

describe('auction properties', () => {
  it('P1: the visible price never decreases, except on a BidRetracted event', () => {
    check((run) => {
      eachEvent(run, ({ before, event, after }) => {
        if (event.type === 'BidRetracted' || before.status === 'UNSCHEDULED') return;
        must.ge(scheduled(after).standing.price, before.standing.price, `${event.type} lowered the price`);
      });
    });
  });

  it('P2: the leader holds the highest surviving maximum; among equal maxima the earliest submission wins', () => {
    check((run) => {
      const ledger = new Ledger();
      eachEvent(run, ({ event, after, record }) => {
        ledger.apply(event, record);
        const { standing } = scheduled(after);
        const expected = ledger.expectedLeader();
        must.equal(
          { leaderId: standing.leaderId, leaderMaximum: standing.leaderMaximum, leadingBidId: standing.leadingBidId },
          { leaderId: expected?.bidderId ?? null, leaderMaximum: expected?.maximum ?? null, leadingBidId: expected?.bidId ?? null },
          `leader after ${event.type} ${JSON.stringify(event.data)}`,
        );
      });
    });
  });

  it('P3: every accepted bid clears price + increment; every automatic bid stays within its bidder’s maximum', () => {
    check((run) => {
      const { incrementTable } = run.rules;
      const ledger = new Ledger();
      eachEvent(run, ({ before, event, record }) => {
        ledger.apply(event, record);
        if (event.type !== 'BidPlaced' && event.type !== 'MaximumBidRaised') return;
        const priceBefore = scheduled(before).standing.price;
        const minimum = priceBefore + incrementAt(incrementTable, priceBefore);
        if (event.type === 'BidPlaced') {
          must.gt(event.data.amount, priceBefore, 'bid not above the price');
          must.ge(event.data.amount, minimum, 'bid below price + increment');
          if (event.data.maximum !== null) must.ge(event.data.maximum, event.data.amount, 'maximum below the amount');
        } else {
          // A raise is judged by the same rule, and records what the leader offered.
          must.gt(event.data.amount, priceBefore, 'raise not above the price');
          must.ge(event.data.amount, minimum, 'raise below price + increment');
          must.gt(event.data.maximum, scheduled(before).standing.leaderMaximum ?? -1, 'raise does not raise the maximum');
          must.ge(event.data.maximum, event.data.amount, 'raised maximum below its amount');
          if (record.command.type === 'PlaceBid') must.be(event.data.amount, record.command.data.amount, 'raise records another amount');
        }
        for (const autoBid of event.data.autoBids) {
          const source = ledger.byId(autoBid.forBidId);
          if (!source) throw new Error(`auto-bid draws on unknown submission ${autoBid.forBidId}`);
          must.be(source.bidderId, autoBid.bidderId, 'auto-bid for another bidder’s submission');
          must.hold(!ledger.retracted.has(autoBid.forBidId), 'auto-bid draws on a retracted submission');
          must.le(autoBid.amount, source.maximum, 'auto-bid above its submission’s maximum');
          must.le(autoBid.amount, ledger.maximumOf(autoBid.bidderId) ?? -1, 'auto-bid above its bidder’s maximum');
        }
      });
    });
  });

  it('P4: nothing is accepted after the auction closes or is cancelled; it ends at most once', () => {
    check((run) => {
      const terminals = run.events.filter(isTerminal);
      must.le(terminals.length, 1, 'closed or cancelled more than once');
      if (terminals.length === 1) must.be(run.events.at(-1), terminals[0], 'events after the end');
      must.le(run.events.filter((event) => event.type === 'AuctionOpened').length, 1, 'opened more than once');

      let ended = false;
      let opened = false;
      for (const record of run.records) {
        if (ended) {
          must.hold(record.error !== null, `${record.command.type} was accepted after the end`);
          must.be(record.events.length, 0);
        }
        // A refused command leaves the state as it was.
        if (record.error) must.be(record.after, record.before);
        for (const event of record.events) {
          if (event.type === 'AuctionOpened') opened = true;
          if (event.type === 'BidPlaced' || event.type === 'MaximumBidRaised') must.hold(opened, 'bid before the auction opened');
          if (event.type === 'AuctionClosed' && event.data.closedBy === 'BUY_NOW') must.hold(opened, 'buy-now before the auction opened');
          if (isTerminal(event)) ended = true;
        }
      }
      if (ended) expect(['ENDED', 'CANCELLED']).toContain(run.final.status);
    });
  });

  it('P5: soft close only ever moves the end later, within the cap, and no bid lands at or after the end in force', () => {
    check((run) => {
      const { softClose } = run.rules;
      for (const record of run.records) {
        if (record.before.status === 'UNSCHEDULED' || record.error) continue;
        const before = record.before;
        const after = scheduled(record.after);
        const endBefore = Date.parse(before.endsAt);
        must.ge(Date.parse(after.endsAt), endBefore, 'the end moved earlier');

        let endInForce = endBefore;
        for (const event of record.events) {
          switch (event.type) {
            case 'AuctionExtended': {
              if (softClose === null) throw new Error('extended without a soft-close rule');
              must.be(Date.parse(event.data.previousEndsAt), endInForce, 'previousEndsAt is not the end in force');
              must.gt(Date.parse(event.data.endsAt), endInForce, 'extension does not move the end later');
              must.le(Date.parse(event.data.endsAt), Date.parse(softClose.latestEndsAt), 'extension past the cap');
              endInForce = Date.parse(event.data.endsAt);
              break;
            }
            case 'BidPlaced':
            case 'MaximumBidRaised':
              must.lt(Date.parse(event.data.placedAt), endInForce, 'bid at or after the end');
              break;
            case 'AuctionClosed':
              if (event.data.closedBy === 'BUY_NOW') must.lt(Date.parse(event.data.closedAt), endInForce, 'buy-now at or after the end');
              else must.ge(Date.parse(event.data.closedAt), endInForce, 'closed before the end');
              break;
            default:
              break;
          }
        }

        // An accepted, price-changing bid inside the window moves the end to now + window, up to the cap.
        if (record.command.type === 'PlaceBid' && softClose !== null) {
          const now = Date.parse(record.command.metadata.now);
          const windowMs = softClose.windowSeconds * 1000;
          const priceChanged = after.standing.price > before.standing.price;
          const expectedEnd =
            priceChanged && endBefore - now <= windowMs
              ? Math.max(endBefore, Math.min(now + windowMs, Date.parse(softClose.latestEndsAt)))
              : endBefore;
          must.be(Date.parse(after.endsAt), expectedEnd, 'end after a bid');
        }
      }
    });
  });

  it('P6: replaying the log from scratch rebuilds the same state, and every event in it is valid data', () => {
    check((run) => {
      for (const record of run.records) {
        const command = auctionCommandSchema.safeParse(record.command);
        must.hold(command.success, `generator produced an invalid command: ${command.error?.message}`);
      }
      for (const event of run.events) {
        const parsed = auctionEventSchema.safeParse(event);
        must.hold(parsed.success, `${event.type} is not valid data: ${parsed.error?.message}`);
      }
      const replayed = run.events.reduce<AuctionState>((state, event) => evolveAuction(state, event), initialAuctionState);
      must.equal(replayed, run.final, 'replayed state');
      // What the event store hands back is JSON: the same state must come out of it.
      const stored = JSON.parse(JSON.stringify(run.events)) as AuctionEvent[];
      must.equal(stored, run.events, 'events do not survive a JSON round trip');
      must.equal(fold(auctionDecider, stored), run.final, 'state replayed from stored events');

      // The standing is a function of the surviving submissions alone.
      const final = scheduled(run.final);
      const surviving = chronological(final.submissions).filter((submission) => !final.retractedBidIds.includes(submission.bidId));
      must.equal(replaySubmissions(run.rules, surviving), final.standing, 'standing is not the replay of the surviving submissions');
    });
  });

  it('P7: the closing result agrees with the standing it closed on', () => {
    check((run) => {
      const { reservePrice, buyNowPrice } = run.rules;
      eachEvent(run, ({ before, event, record }) => {
        if (event.type !== 'AuctionClosed') return;
        const live = scheduled(before);
        const { standing } = live;
        const closing = event.data;
        if (closing.closedBy === 'BUY_NOW') {
          expect(closing.result).toBe('SOLD');
          expect(closing.finalPrice).toBe(buyNowPrice);
          expect(closing.winnerId).toBe(record.command.metadata.actor.userId);
          expect(buyNowAvailable(live)).toBe(true);
          // Independently of buyNowAvailable: with a reserve, until a bid meets it; without, until the first bid.
          if (reservePrice !== null) expect(standing.leaderId === null || standing.price < reservePrice).toBe(true);
          else expect(live.bidCount).toBe(0);
          return;
        }
        switch (closing.result) {
          case 'SOLD':
            expect(standing.leaderId).not.toBeNull();
            expect(closing.winnerId).toBe(standing.leaderId);
            expect(closing.winningBidId).toBe(standing.leadingBidId);
            expect(closing.finalPrice).toBe(standing.price);
            if (reservePrice !== null) expect(standing.price).toBeGreaterThanOrEqual(reservePrice);
            break;
          case 'RESERVE_NOT_MET':
            expect(reservePrice).not.toBeNull();
            expect(standing.leaderId).not.toBeNull();
            expect(standing.price).toBeLessThan(reservePrice!);
            expect([closing.winnerId, closing.winningBidId, closing.finalPrice]).toEqual([null, null, null]);
            break;
          case 'NO_BIDS':
            expect(standing.leaderId).toBeNull();
            expect([closing.winnerId, closing.winningBidId, closing.finalPrice]).toEqual([null, null, null]);
            break;
        }
      });
    });
  });

  it('P8: a reserve is shown as met exactly when a bid stands at or above it; reserveMet is null without one', () => {
    // Stated for an auction with a leader. With no bid at all the engine shows the reserve as not
    // met, even when the starting price equals the reserve: there is no bid to meet it.
    check((run) => {
      const { reservePrice } = run.rules;
      eachEvent(run, ({ event, after }) => {
        const { standing } = scheduled(after);
        if (reservePrice === null) {
          must.be(standing.reserveMet, null, `reserveMet without a reserve, after ${event.type}`);
        } else if (standing.leaderId === null) {
          must.be(standing.reserveMet, false, `reserveMet without a bid, after ${event.type}`);
        } else {
          must.be(standing.reserveMet, standing.price >= reservePrice, `after ${event.type}: price ${standing.price}, reserve ${reservePrice}`);
          // A leading maximum that meets the reserve shows it met at once.
          must.be(standing.reserveMet, standing.leaderMaximum! >= reservePrice, `after ${event.type}: leader's maximum ${standing.leaderMaximum}`);
        }
      });
    });
  });

  it('P9: the visible price never exceeds what the competition justifies, nor the leader’s maximum', () => {
    // The price is at most the largest of: the starting price, an amount a surviving submission
    // explicitly bid, a rival's maximum plus one increment (capped at the leader's maximum), or the
    // reserve once the leader's maximum meets it. Anything above that reveals the leader's secret
    // maximum. (Retraction is "as if the bid had never been placed", so this holds after it too.)
    check((run) => {
      const { startingPrice, reservePrice, incrementTable } = run.rules;
      const ledger = new Ledger();
      eachEvent(run, ({ event, after, record }) => {
        ledger.apply(event, record);
        const { standing } = scheduled(after);
        if (standing.leaderId === null || standing.leaderMaximum === null) {
          must.be(standing.price, startingPrice, `price without a leader, after ${event.type}`);
          return;
        }
        const leaderMaximum = standing.leaderMaximum;
        const surviving = ledger.surviving();
        const justified = Math.max(
          startingPrice,
          ...surviving.map((submission) => submission.explicitAmount),
          ...surviving
            .filter((submission) => submission.bidderId !== standing.leaderId)
            .map((submission) => Math.min(leaderMaximum, submission.maximum + incrementAt(incrementTable, submission.maximum))),
          reservePrice !== null && leaderMaximum >= reservePrice ? reservePrice : 0,
        );
        must.le(standing.price, leaderMaximum, `price above the leader's maximum, after ${event.type}`);
        must.le(standing.price, justified, `after ${event.type}: the price exceeds what the surviving bids justify`);
      });
    }, [RETRACTION_REVEALS_MAXIMUM]);
  });
});

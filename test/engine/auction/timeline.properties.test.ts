import fc from 'fast-check';
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, test } from 'vitest';
import {
  auctionDecider,
  auctionTimeline,
  biddingTerms,
  bidRejection,
  DomainError,
  evolveAuction,
  fold,
  fromMillis,
  initialAuctionState,
  toMillis,
  type AuctionLogEntry,
  type AuctionState,
  type AuctionSummary,
  type AuctionTimeline,
} from '../../../engine/domain';
import { auctionScenarioArb, runAuction, scheduled, type AuctionRun } from '../arbitraries';

/**
 * The timeline over random auctions (see arbitraries.ts): its summaries are the decider's own state
 * replayed to the same point, asOf a time agrees with asOf a revision, and hidden maxima stay hidden.
 */

const RUNS = 500;

/** The log the command handler writes for the run: each accepted event, and each refused bid or buy-now beside them. */
function logOf(run: AuctionRun): AuctionLogEntry<number>[] {
  const entries: AuctionLogEntry<number>[] = [];
  let revision = 0;
  for (const { command, before, events, error } of run.records) {
    if (error && (command.type === 'PlaceBid' || command.type === 'BuyNow')) {
      entries.push({ kind: 'REFUSED', position: entries.length, rejection: bidRejection(command, error, before) });
    }
    for (const event of events) entries.push({ kind: 'EVENT', position: entries.length, revision: revision++, event });
  }
  return entries;
}

/** What the decider's state shows of the auction, by the decider's own rules. */
function shownBy(state: AuctionState) {
  const auction = scheduled(state);
  const { standing } = auction;
  const { minimumBid, buyNowAvailable } = biddingTerms(auction);
  return {
    status: auction.status,
    // A sale's price is the one shown from then on (a buy-now's is not the standing's).
    price: auction.status === 'ENDED' ? (auction.closing.finalPrice ?? standing.price) : standing.price,
    leaderId: standing.leaderId,
    endsAt: auction.endsAt,
    reserveMet: standing.reserveMet,
    buyNowAvailable,
    minimumNextBid: minimumBid,
    bidCount: auction.bidCount,
  };
}

function shownIn({ status, price, leaderId, endsAt, reserveMet, buyNowAvailable, minimumNextBid, bidCount }: AuctionSummary): ReturnType<typeof shownBy> {
  return { status, price, leaderId, endsAt, reserveMet, buyNowAvailable, minimumNextBid, bidCount };
}

/** Compares first, so that vitest builds its report only on a mismatch (it would dominate the run). */
function mustEqual(actual: unknown, expected: unknown, message: string): void {
  if (!isDeepStrictEqual(actual, expected)) expect(actual, message).toStrictEqual(expected);
}

const scenarioArb = fc.record({
  scenario: auctionScenarioArb,
  revealMaxima: fc.boolean(),
  /** Indexes of the revisions (modulo the stream's length) to look at the auction as of. */
  picks: fc.array(fc.nat(), { minLength: 1, maxLength: 4 }),
  /** Times to look at: each is a step's time moved by a few milliseconds either way. */
  moments: fc.array(fc.record({ step: fc.nat(), shiftMs: fc.integer({ min: -2, max: 2 }) }), { minLength: 1, maxLength: 4 }),
});

describe('auction timeline properties', () => {
  test("each event's step shows the decider's state after that event; a refused attempt shows the state it was judged against", () => {
    fc.assert(
      fc.property(scenarioArb, ({ scenario, revealMaxima }) => {
        const entries = logOf(runAuction(scenario));
        const { steps } = auctionTimeline(entries, { revealMaxima });
        let state = initialAuctionState;
        mustEqual(steps.length, entries.length, 'one step per entry');
        entries.forEach((entry, index) => {
          if (entry.kind === 'EVENT') state = evolveAuction(state, entry.event);
          mustEqual(shownIn(steps[index]!.summary), shownBy(state), `step ${index}`);
        });
      }),
      { numRuns: RUNS },
    );
  });

  test('asOf a revision equals a replay from scratch of the events up to it', () => {
    fc.assert(
      fc.property(scenarioArb, ({ scenario, revealMaxima, picks }) => {
        const run = runAuction(scenario);
        const entries = logOf(run);
        const full = auctionTimeline(entries, { revealMaxima });
        const revisions = [0, run.events.length - 1, ...picks.map((pick) => pick % run.events.length)];
        for (const revision of revisions) {
          const timeline = auctionTimeline(entries, { revealMaxima, asOf: { revision } });
          const replayed = fold(auctionDecider, run.events.slice(0, revision + 1));
          mustEqual(shownIn(timeline.summary), shownBy(replayed), `asOf revision ${revision}`);
          // The steps up to the event of that revision, the refused attempts logged before it included.
          const last = full.steps.findIndex((step) => step.revision === revision);
          mustEqual(timeline.steps, full.steps.slice(0, last + 1), `steps asOf revision ${revision}`);
        }
      }),
      { numRuns: RUNS },
    );
  });

  test('asOf a time equals asOf the revision of the last event at or before it', () => {
    fc.assert(
      fc.property(scenarioArb, ({ scenario, revealMaxima, moments }) => {
        const entries = logOf(runAuction(scenario));
        const full = auctionTimeline(entries, { revealMaxima });
        for (const { step, shiftMs } of moments) {
          const time = fromMillis(toMillis(full.steps[step % full.steps.length]!.at) + shiftMs);
          const until = toMillis(time);
          const lastEvent = full.steps.findLast((candidate) => candidate.revision !== null && toMillis(candidate.at) <= until);
          if (lastEvent === undefined) {
            const refusal = (() => {
              try {
                auctionTimeline(entries, { revealMaxima, asOf: { time } });
              } catch (error) {
                return error;
              }
              return null;
            })();
            mustEqual(refusal instanceof DomainError && refusal.code, 'INVALID_AS_OF', `asOf ${time}, before the scheduling`);
            continue;
          }
          const byTime = auctionTimeline(entries, { revealMaxima, asOf: { time } });
          const byRevision = auctionTimeline(entries, { revealMaxima, asOf: { revision: lastEvent.revision! } });
          mustEqual(byTime.summary, byRevision.summary, `asOf ${time} against asOf revision ${lastEvent.revision}`);
          mustEqual(byTime.steps, full.steps.filter((candidate) => toMillis(candidate.at) <= until), `steps asOf ${time}`);
        }
      }),
      { numRuns: RUNS },
    );
  });

  test('with maxima hidden, no step names a maximum; revealing them changes only the maxima', () => {
    const mentionsAmountOfMaximum = (line: string) => /maximum/i.test(line) && line.includes('$');
    fc.assert(
      fc.property(auctionScenarioArb, (scenario) => {
        const entries = logOf(runAuction(scenario));
        const hidden: AuctionTimeline<number> = auctionTimeline(entries, { revealMaxima: false });
        const revealed = auctionTimeline(entries, { revealMaxima: true });
        hidden.steps.forEach((step, index) => {
          mustEqual(step.tried?.maximum ?? null, null, `step ${index}: tried maximum`);
          mustEqual(step.explanation.filter(mentionsAmountOfMaximum), [], `step ${index}: explanation`);
          const { tried, explanation: _explanation, ...rest } = revealed.steps[index]!;
          const { tried: hiddenTried, explanation: _hiddenExplanation, ...hiddenRest } = step;
          mustEqual(hiddenRest, rest, `step ${index}: all but the maxima`);
          mustEqual(hiddenTried, tried && { ...tried, maximum: null }, `step ${index}: what was tried`);
        });
      }),
      { numRuns: RUNS },
    );
  });
});

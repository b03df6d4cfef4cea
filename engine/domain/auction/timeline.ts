import { assertNever, invalid, notFound } from '../shared/errors';
import { formatUsd, type Cents } from '../shared/money';
import { fromMillis, toMillis, type Instant } from '../shared/time';
import type { AuctionClosing } from './auction';
import type { AuctionEvent, BidRejected } from './messages';
import type { AutoBid } from './proxy-bidding';
import { incrementBandAt, type AuctionRules, type IncrementBandRange } from './rules';
import { evolveAuctionSummary, initialAuctionSummary, type AuctionSummary, type AuctionSummaryState } from './summary';

/**
 * An auction's timeline, for admins and auditors replaying it: every event of its stream and every
 * refused attempt of its rejections stream, in log order, each with the summary after it and an
 * explanation in plain words drawn from the engine's own rules and from what the events recorded.
 */

/** One entry of the auction's log, as the caller read it; `position` is passed through untouched. */
export type AuctionLogEntry<Position> =
  | { readonly kind: 'EVENT'; readonly position: Position; readonly revision: number; readonly event: AuctionEvent }
  | { readonly kind: 'REFUSED'; readonly position: Position; readonly rejection: BidRejected };

/** The timeline up to and including the event of this revision, or of every step at or before this time. */
export type TimelineAsOf = { readonly revision: number } | { readonly time: Instant };

export interface TimelineOptions {
  /** Bidders' maxima were private while the auction ran: reveal them only once that no longer matters. */
  readonly revealMaxima: boolean;
  readonly asOf?: TimelineAsOf;
}

export type TimelineOutcome = 'SCHEDULED' | 'OPENED' | 'ACCEPTED' | 'MAXIMUM_RAISED' | 'EXTENDED' | 'RETRACTED' | 'CLOSED' | 'CANCELLED' | 'REFUSED';

/** The bid or buy-now a step tried. */
export interface TriedBid {
  readonly attempt: 'BID' | 'BUY_NOW';
  readonly bidId: string;
  readonly bidderId: string;
  readonly amount: Cents | null;
  /** null unless maxima are revealed. */
  readonly maximum: Cents | null;
}

export interface AuctionTimelineStep<Position> {
  readonly kind: 'EVENT' | 'REFUSED';
  readonly type: AuctionEvent['type'] | BidRejected['type'];
  readonly position: Position;
  /** The event's revision in the auction's stream; null for a refused attempt. */
  readonly revision: number | null;
  readonly at: Instant;
  readonly actorId: string;
  readonly correlationId: string;
  readonly tried: TriedBid | null;
  readonly outcome: TimelineOutcome;
  readonly explanation: readonly string[];
  /** The auction after this step; a refused attempt leaves the one it was judged against. */
  readonly summary: AuctionSummary;
}

export interface AuctionTimeline<Position> {
  readonly auctionId: string;
  readonly listingId: string;
  /** As recorded when the auction was scheduled. */
  readonly rules: AuctionRules;
  readonly startsAt: Instant;
  readonly scheduledEndsAt: Instant;
  readonly steps: readonly AuctionTimelineStep<Position>[];
  /** The auction after the last step kept. */
  readonly summary: AuctionSummary;
}

// ---- wording: every sentence the timeline says, in one place --------------------------------

const say = {
  scheduled: (startsAt: string, endsAt: string, startingPrice: Cents) =>
    `Scheduled from ${startsAt} to ${endsAt}, starting at ${formatUsd(startingPrice)}`,
  opened: () => 'Opened',
  accepted: (amount: Cents, price: Cents, increment: Cents, band: IncrementBandRange) =>
    `Accepted: ${formatUsd(amount)} is at least ${formatUsd(price)} + the ${formatUsd(increment)} increment of the ${bandText(band)} band`,
  maximumSet: (bidderId: string, maximum: Cents) => `Bidder ${shortId(bidderId)} set a maximum of ${formatUsd(maximum)}`,
  maximumRaised: (bidderId: string, maximum: Cents | null, priceUnchanged: boolean) =>
    `Leader ${shortId(bidderId)} raised their maximum${maximum === null ? '' : ` to ${formatUsd(maximum)}`}${priceUnchanged ? '; the price is unchanged' : ''}`,
  autoBid: (bidderId: string, amount: Cents, maximum: Cents | null) =>
    maximum === null
      ? `Bidder ${shortId(bidderId)}'s proxy answered automatically at ${formatUsd(amount)}`
      : `Bidder ${shortId(bidderId)}'s maximum of ${formatUsd(maximum)} answered automatically at ${formatUsd(amount)}`,
  standing: (leaderId: string | null, price: Cents, reserveMet: boolean | null) =>
    (leaderId === null ? `No bid stands: the price is ${formatUsd(price)}` : `${shortId(leaderId)} leads at ${formatUsd(price)}`) +
    (reserveMet === null ? '' : reserveMet ? '; reserve met' : '; reserve not met yet'),
  extended: (from: string, to: string, windowSeconds: number | null, latestEnd: string | null) =>
    `End moved from ${from} to ${to}` +
    (windowSeconds === null || latestEnd === null ? '' : `: bid inside the ${windowText(windowSeconds)} soft-close window (latest possible end ${latestEnd})`),
  retracted: (bidderId: string, bidId: string, reason: string) => `${shortId(bidderId)}'s bid ${shortId(bidId)} retracted by an admin: ${reason}`,
  sold: (winnerId: string, price: Cents, reserve: Cents | null) =>
    `Closed: sold to ${shortId(winnerId)} for ${formatUsd(price)}${reserve === null ? '' : `; reserve ${formatUsd(reserve)} met`}`,
  boughtNow: (winnerId: string, price: Cents) => `Closed: bought now by ${shortId(winnerId)} for ${formatUsd(price)}`,
  noBids: () => 'Closed: no bids',
  reserveNotMet: (reserve: Cents, highestBid: Cents) => `Closed: reserve ${formatUsd(reserve)} not met (highest bid ${formatUsd(highestBid)})`,
  cancelled: (reason: string) => `Cancelled: ${reason}`,
  refused: (message: string) => `Refused: ${message}`,
  /** MAXIMUM_NOT_RAISED's message states the leader's maximum, which stays private while the auction runs. */
  refusedHiddenMaximum: () => 'Refused: the bidder already leads and did not raise their maximum (hidden while the auction runs)',
};

function bandText({ from, to }: IncrementBandRange): string {
  return to === null ? `${formatUsd(from)} and up` : `${formatUsd(from)}–${formatUsd(to)}`;
}

function windowText(seconds: number): string {
  return seconds % 60 === 0 ? `${seconds / 60}-minute` : `${seconds}-second`;
}

/** "…a41f": enough to tell bidders apart on one screen; the step's fields carry the whole id. */
function shortId(id: string): string {
  return id.length > 4 ? `…${id.slice(-4)}` : id;
}

/** "16:05:00" (UTC), with the date in front when it is not the step's own day. */
function clock(instant: Instant, stepAt: Instant): string {
  const iso = fromMillis(toMillis(instant));
  const day = iso.slice(0, 10);
  const time = iso.slice(11, 19);
  return day === fromMillis(toMillis(stepAt)).slice(0, 10) ? time : `${day} ${time}`;
}

// ---- the timeline ---------------------------------------------------------------------------

/**
 * The timeline of one auction from its log entries, already merged in log order. Throws
 * AUCTION_NOT_FOUND when the entries never schedule it, INVALID_AS_OF when asOf names a revision
 * the stream lacks or a time before the scheduling.
 */
export function auctionTimeline<Position>(entries: Iterable<AuctionLogEntry<Position>>, options: TimelineOptions): AuctionTimeline<Position> {
  const { revealMaxima } = options;
  const steps: AuctionTimelineStep<Position>[] = [];
  /** Every accepted submission's maximum, for the automatic bids that draw on it. */
  const maxima = new Map<string, Cents>();
  let summary: AuctionSummaryState = initialAuctionSummary;

  for (const entry of entries) {
    if (entry.kind === 'REFUSED') {
      // An attempt refused before the scheduling was judged against no auction: there is nothing to show it against.
      if (summary.status !== 'UNSCHEDULED') steps.push(refusedStep(entry, summary, revealMaxima));
      continue;
    }
    const { event } = entry;
    const before = summary;
    summary = evolveAuctionSummary(summary, event);
    if (summary.status === 'UNSCHEDULED') continue;
    if (event.type === 'BidPlaced' || event.type === 'MaximumBidRaised') maxima.set(event.data.bidId, event.data.maximum ?? event.data.amount);
    // The scheduling has no summary before it, and its explanation needs none.
    const explanation = explainEvent(event, before.status === 'UNSCHEDULED' ? summary : before, summary, (bidId) =>
      revealMaxima ? (maxima.get(bidId) ?? null) : null,
    );
    steps.push({
      kind: 'EVENT',
      type: event.type,
      position: entry.position,
      revision: entry.revision,
      at: event.metadata.occurredAt,
      actorId: event.metadata.actorId,
      correlationId: event.metadata.correlationId,
      tried: triedBy(event, revealMaxima),
      outcome: OUTCOME_OF[event.type],
      explanation,
      summary,
    });
  }

  const scheduling = steps[0];
  if (scheduling === undefined) throw notFound('AUCTION_NOT_FOUND', 'Auction not found');
  const kept = stepsAsOf(steps, options.asOf);
  const { auctionId, listingId, rules, startsAt, scheduledEndsAt } = scheduling.summary;
  return { auctionId, listingId, rules, startsAt, scheduledEndsAt, steps: kept, summary: kept.at(-1)!.summary };
}

const OUTCOME_OF: Record<AuctionEvent['type'], TimelineOutcome> = {
  AuctionScheduled: 'SCHEDULED',
  AuctionOpened: 'OPENED',
  BidPlaced: 'ACCEPTED',
  MaximumBidRaised: 'MAXIMUM_RAISED',
  AuctionExtended: 'EXTENDED',
  BidRetracted: 'RETRACTED',
  AuctionClosed: 'CLOSED',
  AuctionCancelled: 'CANCELLED',
};

function stepsAsOf<Step extends { readonly revision: number | null; readonly at: Instant }>(steps: Step[], asOf: TimelineAsOf | undefined): Step[] {
  if (asOf === undefined) return steps;
  if ('revision' in asOf) {
    const last = steps.findIndex((step) => step.revision === asOf.revision);
    if (last < 0) {
      const latest = steps.findLast((step) => step.revision !== null)?.revision;
      throw invalid('INVALID_AS_OF', `asOf: this auction has no revision ${asOf.revision}; its latest is ${latest}`);
    }
    return steps.slice(0, last + 1);
  }
  const until = toMillis(asOf.time);
  const kept = steps.filter((step) => toMillis(step.at) <= until);
  if (kept[0] !== steps[0]) throw invalid('INVALID_AS_OF', `asOf: the auction was not scheduled yet at ${asOf.time}`);
  return kept;
}

function refusedStep<Position>(
  { position, rejection }: Extract<AuctionLogEntry<Position>, { kind: 'REFUSED' }>,
  summary: AuctionSummary,
  revealMaxima: boolean,
): AuctionTimelineStep<Position> {
  const { data, metadata } = rejection;
  const hidesMaximum = !revealMaxima && data.code === 'MAXIMUM_NOT_RAISED';
  return {
    kind: 'REFUSED',
    type: rejection.type,
    position,
    revision: null,
    at: data.attemptedAt,
    actorId: metadata.actorId,
    correlationId: metadata.correlationId,
    tried: { attempt: data.attempt, bidId: data.bidId, bidderId: data.bidderId, amount: data.amount, maximum: revealMaxima ? data.maximum : null },
    outcome: 'REFUSED',
    explanation: [hidesMaximum ? say.refusedHiddenMaximum() : say.refused(data.message)],
    summary,
  };
}

function triedBy(event: AuctionEvent, revealMaxima: boolean): TriedBid | null {
  switch (event.type) {
    case 'BidPlaced':
    case 'MaximumBidRaised': {
      const { bidId, bidderId, amount, maximum } = event.data;
      return { attempt: 'BID', bidId, bidderId, amount, maximum: revealMaxima ? maximum : null };
    }
    case 'AuctionClosed': {
      const { closedBy, winningBidId, winnerId, finalPrice } = event.data;
      if (closedBy !== 'BUY_NOW' || winningBidId === null || winnerId === null) return null;
      return { attempt: 'BUY_NOW', bidId: winningBidId, bidderId: winnerId, amount: finalPrice, maximum: null };
    }
    default:
      return null;
  }
}

function explainEvent(event: AuctionEvent, before: AuctionSummary, after: AuctionSummary, maximumOf: (bidId: string) => Cents | null): string[] {
  const at = event.metadata.occurredAt;
  const { rules } = after;
  const standing = say.standing(after.leaderId, after.price, after.reserveMet);
  const answers = (autoBids: readonly AutoBid[]) => autoBids.map(({ bidderId, amount, forBidId }) => say.autoBid(bidderId, amount, maximumOf(forBidId)));
  switch (event.type) {
    case 'AuctionScheduled': {
      const { startsAt, endsAt } = event.data;
      return [say.scheduled(clock(startsAt, at), clock(endsAt, at), rules.startingPrice)];
    }
    case 'AuctionOpened':
      return [say.opened()];
    case 'BidPlaced': {
      // Why it was accepted: the increment rule, judged against the price before it.
      const { bidderId, bidId, amount, maximum, autoBids } = event.data;
      const { incrementTable } = rules;
      const band = incrementBandAt(incrementTable, before.price);
      const accepted = say.accepted(amount, before.price, band.increment, band);
      const ownMaximum = maximum === null ? null : maximumOf(bidId);
      return [accepted, ...(ownMaximum === null ? [] : [say.maximumSet(bidderId, ownMaximum)]), ...answers(autoBids), standing];
    }
    case 'MaximumBidRaised': {
      const { bidderId, bidId, autoBids } = event.data;
      return [say.maximumRaised(bidderId, maximumOf(bidId), after.price === before.price), ...answers(autoBids), standing];
    }
    case 'AuctionExtended': {
      const { previousEndsAt, endsAt } = event.data;
      const { softClose } = rules;
      return [say.extended(clock(previousEndsAt, at), clock(endsAt, at), softClose?.windowSeconds ?? null, softClose ? clock(softClose.latestEndsAt, at) : null)];
    }
    case 'BidRetracted':
      return [say.retracted(event.data.bidderId, event.data.bidId, event.data.reason), standing];
    case 'AuctionClosed':
      return [explainClosing(event.data, rules, after.price)];
    case 'AuctionCancelled':
      return [say.cancelled(event.data.reason)];
    default:
      return assertNever(event);
  }
}

function explainClosing({ result, closedBy, winnerId, finalPrice }: AuctionClosing, rules: AuctionRules, price: Cents): string {
  switch (result) {
    // A sale always names its winner and its price.
    case 'SOLD':
      return closedBy === 'BUY_NOW' ? say.boughtNow(winnerId!, finalPrice!) : say.sold(winnerId!, finalPrice!, rules.reservePrice);
    case 'NO_BIDS':
      return say.noBids();
    // Only an auction with a reserve closes without meeting it.
    case 'RESERVE_NOT_MET':
      return say.reserveNotMet(rules.reservePrice!, price);
    default:
      return assertNever(result);
  }
}

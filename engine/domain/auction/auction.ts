import type { Decider } from '../shared/decider';
import { assertNever, invalid, notFound, rejected, type DomainError } from '../shared/errors';
import { eventMetadataFor, requireReason, requireRole } from '../shared/messages';
import { formatUsd, type Cents } from '../shared/money';
import { fromMillis, toMillis, type Instant } from '../shared/time';
import type { AuctionCommand, AuctionCommandOf, AuctionEvent, AuctionEventOf, BidRejected, ClosingResult } from './messages';
import { applySubmission, minimumNextBid, openingStanding, replaySubmissions, type Standing, type Submission } from './proxy-bidding';
import { validateSchedule, type AuctionRules } from './rules';

export interface AuctionFacts {
  readonly auctionId: string;
  readonly listingId: string;
  readonly sellerId: string;
  readonly startsAt: Instant;
  readonly rules: AuctionRules;
}

/** The facts an AuctionScheduled event fixes for the auction's life: the decider's state and the summary keep the same. */
export function auctionFactsOf(scheduled: AuctionEventOf<'AuctionScheduled'>['data']): AuctionFacts {
  const { auctionId, listingId, sellerId, startsAt, rules } = scheduled;
  return { auctionId, listingId, sellerId, startsAt, rules };
}

/** How an auction ended: the AuctionClosed event's data, kept whole. */
export type AuctionClosing = AuctionEventOf<'AuctionClosed'>['data'];

/** Accepted submissions, newest first: prepending keeps `evolve` O(1) on a hot auction. */
export type SubmissionList = { readonly head: Submission; readonly tail: SubmissionList } | null;

interface Scheduled {
  readonly facts: AuctionFacts;
  /** The current end: the scheduled end, moved later by soft-close extensions. */
  readonly endsAt: Instant;
  readonly standing: Standing;
  readonly submissions: SubmissionList;
  readonly retractedBidIds: readonly string[];
  /** Bids placed (retracted ones included); buy-now disappears with the first. */
  readonly bidCount: number;
}

export type AuctionState =
  | { readonly status: 'UNSCHEDULED' }
  | (Scheduled & { readonly status: 'PENDING' | 'ACTIVE' })
  | (Scheduled & { readonly status: 'ENDED'; readonly closing: AuctionClosing })
  | (Scheduled & { readonly status: 'CANCELLED'; readonly cancellationReason: string });

type ScheduledState = Exclude<AuctionState, { status: 'UNSCHEDULED' }>;
type OpenState = Extract<AuctionState, { status: 'PENDING' | 'ACTIVE' }>;

export const initialAuctionState: AuctionState = { status: 'UNSCHEDULED' };

export function auctionStreamId(auctionId: string): string {
  return `auction-${auctionId}`;
}

/** Refused attempts live beside the auction's stream, never in it (see BidRejected). */
export function auctionRejectionsStreamId(auctionId: string): string {
  return `auction_rejections-${auctionId}`;
}

// ---- evolve ---------------------------------------------------------------------------------

export function evolveAuction(state: AuctionState, event: AuctionEvent): AuctionState {
  if (event.type === 'AuctionScheduled') {
    const { endsAt, rules } = event.data;
    return {
      status: 'PENDING',
      facts: auctionFactsOf(event.data),
      endsAt,
      standing: openingStanding(rules),
      submissions: null,
      retractedBidIds: [],
      bidCount: 0,
    };
  }
  if (state.status === 'UNSCHEDULED') return state;

  switch (event.type) {
    case 'AuctionOpened':
      return { ...state, status: 'ACTIVE' } as AuctionState;
    case 'BidPlaced': {
      const { bidId, bidderId, amount, maximum, placedAt, standing } = event.data;
      const submission: Submission = { bidId, bidderId, amount, maximum: maximum ?? amount, placedAt };
      return { ...state, standing, submissions: { head: submission, tail: state.submissions }, bidCount: state.bidCount + 1 };
    }
    case 'MaximumBidRaised': {
      const { bidId, bidderId, amount, maximum, placedAt, standing } = event.data;
      const submission: Submission = { bidId, bidderId, amount, maximum, placedAt };
      return { ...state, standing, submissions: { head: submission, tail: state.submissions } };
    }
    case 'AuctionExtended':
      return { ...state, endsAt: event.data.endsAt };
    case 'BidRetracted':
      return { ...state, standing: event.data.standing, retractedBidIds: [...state.retractedBidIds, event.data.bidId] };
    case 'AuctionClosed':
      return { ...state, status: 'ENDED', closing: event.data };
    case 'AuctionCancelled':
      return { ...state, status: 'CANCELLED', cancellationReason: event.data.reason };
    default:
      return assertNever(event);
  }
}

// ---- decide ---------------------------------------------------------------------------------

export function decideAuction(command: AuctionCommand, state: AuctionState): AuctionEvent[] {
  switch (command.type) {
    case 'ScheduleAuction':
      return schedule(command, state);
    case 'OpenAuction':
      return open(command, state);
    case 'PlaceBid':
      return placeBid(command, state);
    case 'BuyNow':
      return buyNow(command, state);
    case 'CloseAuction':
      return close(command, state);
    case 'CancelAuction':
      return cancel(command, state);
    case 'RetractBid':
      return retract(command, state);
    default:
      return assertNever(command);
  }
}

export const auctionDecider: Decider<AuctionCommand, AuctionEvent, AuctionState> = {
  initialState: initialAuctionState,
  evolve: evolveAuction,
  decide: decideAuction,
};

function schedule(command: AuctionCommandOf<'ScheduleAuction'>, state: AuctionState): AuctionEvent[] {
  requireRole(command.metadata.actor, 'ADMIN', 'SYSTEM');
  if (state.status !== 'UNSCHEDULED') {
    throw rejected('AUCTION_ALREADY_SCHEDULED', 'This auction has already been scheduled');
  }
  const { startsAt, endsAt, rules } = command.data;
  validateSchedule(rules, startsAt, endsAt);
  const now = command.metadata.now;
  if (toMillis(endsAt) <= toMillis(now)) {
    throw invalid('INVALID_SCHEDULE', 'The auction must end in the future');
  }
  const scheduled: AuctionEvent = { type: 'AuctionScheduled', data: command.data, metadata: eventMetadataFor(command) };
  // An auction whose start has already come opens in the same decision.
  if (toMillis(startsAt) <= toMillis(now)) return [scheduled, opened(command)];
  return [scheduled];
}

function open(command: AuctionCommandOf<'OpenAuction'>, state: AuctionState): AuctionEvent[] {
  requireRole(command.metadata.actor, 'ADMIN', 'SYSTEM');
  const live = requireOpen(state);
  if (live.status === 'ACTIVE') return []; // a bid may already have opened it
  if (toMillis(command.metadata.now) < toMillis(live.facts.startsAt)) {
    throw rejected('AUCTION_NOT_STARTED', 'Auction has not started yet', { startsAt: live.facts.startsAt });
  }
  return [opened(command)];
}

function placeBid(command: AuctionCommandOf<'PlaceBid'>, state: AuctionState): AuctionEvent[] {
  const { actor, now } = command.metadata;
  requireRole(actor, 'BUYER');
  const { before, opening } = activeAt(command, state);
  const { rules, sellerId, auctionId } = before.facts;
  if (actor.userId === sellerId) {
    throw rejected('SELLER_CANNOT_BID', 'You cannot bid on your own listing');
  }

  const { bidId, amount, maximum } = command.data;
  const { standing } = before;
  if (amount <= standing.price) {
    throw rejected('BID_NOT_ABOVE_CURRENT_PRICE', `Bid must be higher than current price of ${formatUsd(standing.price)}`, {
      currentPrice: standing.price,
      minimumBid: minimumNextBid(rules, standing),
    });
  }
  const minimum = minimumNextBid(rules, standing);
  if (amount < minimum) {
    throw rejected('BID_BELOW_INCREMENT', `Bid must be at least ${formatUsd(minimum)}`, {
      currentPrice: standing.price,
      minimumBid: minimum,
    });
  }
  if (maximum !== null && maximum < amount) {
    throw invalid('MAXIMUM_BELOW_AMOUNT', 'Maximum bid must be at least the bid amount');
  }

  const submission: Submission = { bidId, bidderId: actor.userId, amount, maximum: maximum ?? amount, placedAt: now };
  const metadata = eventMetadataFor(command);
  let placed: AuctionEvent;
  if (standing.leaderId === actor.userId) {
    const current = standing.leaderMaximum ?? standing.price;
    if (submission.maximum <= current) {
      throw rejected('MAXIMUM_NOT_RAISED', `You are already the highest bidder, with a maximum of ${formatUsd(current)}`, {
        currentMaximum: current,
      });
    }
    const outcome = applySubmission(rules, standing, submission);
    placed = {
      type: 'MaximumBidRaised',
      data: { auctionId, bidId, bidderId: actor.userId, amount, maximum: submission.maximum, placedAt: now, ...outcome },
      metadata,
    };
  } else {
    const outcome = applySubmission(rules, standing, submission);
    placed = {
      type: 'BidPlaced',
      data: { auctionId, bidId, bidderId: actor.userId, amount, maximum, placedAt: now, ...outcome },
      metadata,
    };
  }

  const newPrice = placed.data.standing.price;
  const extension = newPrice > standing.price ? softCloseExtension(command, before, bidId) : [];
  return [...opening, placed, ...extension];
}

function buyNow(command: AuctionCommandOf<'BuyNow'>, state: AuctionState): AuctionEvent[] {
  const { actor, now } = command.metadata;
  requireRole(actor, 'BUYER');
  const { before, opening } = activeAt(command, state);
  const { rules, sellerId, auctionId } = before.facts;
  if (actor.userId === sellerId) {
    throw rejected('SELLER_CANNOT_BID', 'You cannot buy your own listing');
  }
  if (rules.buyNowPrice === null) {
    throw rejected('BUY_NOW_NOT_OFFERED', 'Buy now is not available for this auction');
  }
  if (!buyNowAvailable(before)) {
    throw rejected('BUY_NOW_WITHDRAWN', 'Buy now is no longer available: bidding has started');
  }
  return [
    ...opening,
    {
      type: 'AuctionClosed',
      data: {
        auctionId,
        closedAt: now,
        closedBy: 'BUY_NOW',
        result: 'SOLD',
        winnerId: actor.userId,
        winningBidId: command.data.bidId,
        finalPrice: rules.buyNowPrice,
      },
      metadata: eventMetadataFor(command),
    },
  ];
}

function close(command: AuctionCommandOf<'CloseAuction'>, state: AuctionState): AuctionEvent[] {
  requireRole(command.metadata.actor, 'ADMIN', 'SYSTEM');
  const live = requireOpen(state);
  const now = command.metadata.now;
  if (toMillis(now) < toMillis(live.endsAt)) {
    throw rejected('AUCTION_NOT_OVER', 'Auction has not reached its end yet', { endsAt: live.endsAt });
  }
  const { standing } = live;
  const result: ClosingResult =
    standing.leaderId === null ? 'NO_BIDS' : standing.reserveMet === false ? 'RESERVE_NOT_MET' : 'SOLD';
  const sold = result === 'SOLD';
  return [
    {
      type: 'AuctionClosed',
      data: {
        auctionId: live.facts.auctionId,
        closedAt: now,
        closedBy: 'TIME',
        result,
        winnerId: sold ? standing.leaderId : null,
        winningBidId: sold ? standing.leadingBidId : null,
        finalPrice: sold ? standing.price : null,
      },
      metadata: eventMetadataFor(command),
    },
  ];
}

function cancel(command: AuctionCommandOf<'CancelAuction'>, state: AuctionState): AuctionEvent[] {
  requireRole(command.metadata.actor, 'ADMIN');
  const reason = requireReason(command.data.reason);
  const live = requireOpen(state);
  return [
    {
      type: 'AuctionCancelled',
      data: { auctionId: live.facts.auctionId, reason, cancelledAt: command.metadata.now },
      metadata: eventMetadataFor(command),
    },
  ];
}

function retract(command: AuctionCommandOf<'RetractBid'>, state: AuctionState): AuctionEvent[] {
  requireRole(command.metadata.actor, 'ADMIN');
  const reason = requireReason(command.data.reason);
  const live = requireOpen(state);
  const { bidId } = command.data;
  const submissions = chronological(live.submissions);
  const target = submissions.find((submission) => submission.bidId === bidId);
  if (!target) throw notFound('BID_NOT_FOUND', 'Bid not found', { bidId });
  if (live.retractedBidIds.includes(bidId)) {
    throw rejected('BID_ALREADY_RETRACTED', 'This bid has already been retracted', { bidId });
  }
  const retracted = new Set([...live.retractedBidIds, bidId]);
  const standing = replaySubmissions(
    live.facts.rules,
    submissions.filter((submission) => !retracted.has(submission.bidId)),
  );
  return [
    {
      type: 'BidRetracted',
      data: { auctionId: live.facts.auctionId, bidId, bidderId: target.bidderId, reason, standing },
      metadata: eventMetadataFor(command),
    },
  ];
}

// ---- helpers --------------------------------------------------------------------------------

function opened(command: { metadata: AuctionCommand['metadata']; data: { auctionId: string } }): AuctionEvent {
  return {
    type: 'AuctionOpened',
    data: { auctionId: command.data.auctionId, openedAt: command.metadata.now },
    metadata: eventMetadataFor(command),
  };
}

/** The auction as it stands before a closing or cancelling command; refuses finished ones. */
function requireOpen(state: AuctionState): OpenState {
  switch (state.status) {
    case 'UNSCHEDULED':
      throw notFound('AUCTION_NOT_FOUND', 'Auction not found');
    case 'ENDED':
      throw rejected('AUCTION_ALREADY_CLOSED', 'Auction has already closed');
    case 'CANCELLED':
      throw rejected('AUCTION_CANCELLED', 'This auction was cancelled');
    case 'PENDING':
    case 'ACTIVE':
      return state;
    default:
      return assertNever(state);
  }
}

/**
 * The auction a bid or buy-now is judged against: it must be open at `now`. A scheduled auction
 * whose start has come is opened by the same decision, so a late scheduler never refuses a bid.
 */
function activeAt(
  command: Extract<AuctionCommand, { type: 'PlaceBid' | 'BuyNow' }>,
  state: AuctionState,
): { before: OpenState; opening: AuctionEvent[] } {
  if (state.status === 'ENDED') throw rejected('AUCTION_ENDED', 'Auction has ended');
  const live = requireOpen(state);
  const now = toMillis(command.metadata.now);
  if (now >= toMillis(live.endsAt)) throw rejected('AUCTION_ENDED', 'Auction has ended', { endsAt: live.endsAt });
  if (live.status === 'ACTIVE') return { before: live, opening: [] };
  if (now < toMillis(live.facts.startsAt)) {
    throw rejected('AUCTION_NOT_STARTED', 'Auction has not started yet', { startsAt: live.facts.startsAt });
  }
  const opening = opened(command);
  return { before: evolveAuction(live, opening) as OpenState, opening: [opening] };
}

/**
 * The soft-close rule: an accepted, price-changing bid at `at` inside the window moves the end to
 * `at` + window, up to the cap. The new end, or null when the bid does not move it. Whoever folds
 * a bid event can ask it too, and know the end the bid made before its AuctionExtended arrives.
 */
export function softCloseEndAfterBid(rules: AuctionRules, endsAt: Instant, at: Instant): Instant | null {
  const { softClose } = rules;
  if (softClose === null) return null;
  const now = toMillis(at);
  const end = toMillis(endsAt);
  const windowMs = softClose.windowSeconds * 1000;
  if (end - now > windowMs) return null;
  const newEnd = Math.min(now + windowMs, toMillis(softClose.latestEndsAt));
  return newEnd > end ? fromMillis(newEnd) : null;
}

function softCloseExtension(command: AuctionCommandOf<'PlaceBid'>, live: OpenState, bidId: string): AuctionEvent[] {
  const endsAt = softCloseEndAfterBid(live.facts.rules, live.endsAt, command.metadata.now);
  if (endsAt === null) return [];
  return [
    {
      type: 'AuctionExtended',
      data: { auctionId: live.facts.auctionId, previousEndsAt: live.endsAt, endsAt, triggeredByBidId: bidId },
      metadata: eventMetadataFor(command),
    },
  ];
}

/** Buy-now lasts until the first bid, or, when there is a reserve, until the reserve is met. */
export function buyNowAvailable(state: ScheduledState): boolean {
  if (state.status === 'ENDED' || state.status === 'CANCELLED') return false;
  return buyNowOffered(state.facts.rules, state.standing, state.bidCount);
}

/** The buy-now rule on its own, for an open auction: read models show it without a whole state. */
export function buyNowOffered(rules: AuctionRules, standing: Standing, bidCount: number): boolean {
  if (rules.buyNowPrice === null) return false;
  if (rules.reservePrice !== null) return standing.reserveMet !== true;
  return bidCount === 0;
}

export function chronological(submissions: SubmissionList): Submission[] {
  const result: Submission[] = [];
  for (let node = submissions; node !== null; node = node.tail) result.push(node.head);
  return result.reverse();
}

/** The record of a refused bid or buy-now, for the auction's rejections stream. */
export function bidRejection(
  command: Extract<AuctionCommand, { type: 'PlaceBid' | 'BuyNow' }>,
  error: DomainError,
  state: AuctionState,
): BidRejected {
  const isBid = command.type === 'PlaceBid';
  return {
    type: 'BidRejected',
    data: {
      auctionId: command.data.auctionId,
      bidId: command.data.bidId,
      bidderId: command.metadata.actor.userId,
      attempt: isBid ? 'BID' : 'BUY_NOW',
      amount: isBid ? command.data.amount : null,
      maximum: isBid ? command.data.maximum : null,
      attemptedAt: command.metadata.now,
      code: error.code,
      message: error.message,
      priceAtAttempt: state.status === 'UNSCHEDULED' ? null : state.standing.price,
    },
    metadata: eventMetadataFor(command),
  };
}

/** What a bidder needs to know before bidding: shown by the API, judged by the same rules. */
export function biddingTerms(state: ScheduledState): { minimumBid: Cents; buyNowAvailable: boolean } {
  return { minimumBid: minimumNextBid(state.facts.rules, state.standing), buyNowAvailable: buyNowAvailable(state) };
}

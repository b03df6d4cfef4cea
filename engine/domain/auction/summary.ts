import { assertNever } from '../shared/errors';
import type { Cents } from '../shared/money';
import type { Instant } from '../shared/time';
import { auctionFactsOf, buyNowOffered, softCloseEndAfterBid, type AuctionClosing, type AuctionFacts } from './auction';
import type { AuctionEvent, AuctionEventOf } from './messages';
import { minimumNextBid, openingStanding, type Standing } from './proxy-bidding';
import type { AuctionRules } from './rules';

/**
 * The auction as anyone may see it, folded from its events like a decider's state: the auctions
 * read model stores it and the live hub keeps it in memory, so both show the same figures. It
 * never holds the leader's secret maximum, nor the submissions (a retraction's event carries the
 * standing the decider recomputed).
 */

/** The standing without the leader's secret maximum. */
type PublicStanding = Omit<Standing, 'leaderMaximum'>;

interface Summary extends AuctionFacts, PublicStanding {
  /** The current end: the scheduled end, moved later by soft-close extensions. */
  readonly endsAt: Instant;
  readonly scheduledEndsAt: Instant;
  readonly minimumNextBid: Cents;
  /** Bids placed (retracted ones included); a leader raising their maximum is not one. */
  readonly bidCount: number;
  readonly buyNowAvailable: boolean;
  /** How many of the auction stream's events are folded in: of two summaries, the higher is newer. */
  readonly version: number;
}

export type AuctionSummary =
  | (Summary & { readonly status: 'PENDING' | 'ACTIVE' })
  | (Summary & { readonly status: 'ENDED'; readonly closing: AuctionClosing })
  | (Summary & { readonly status: 'CANCELLED'; readonly cancellationReason: string });

/** The fold's state: a summary once the auction is scheduled. */
export type AuctionSummaryState = { readonly status: 'UNSCHEDULED'; readonly version: number } | AuctionSummary;

export const initialAuctionSummary: AuctionSummaryState = { status: 'UNSCHEDULED', version: 0 };

export function evolveAuctionSummary(summary: AuctionSummary, event: AuctionEvent): AuctionSummary;
export function evolveAuctionSummary(summary: AuctionSummaryState, event: AuctionEvent): AuctionSummaryState;
export function evolveAuctionSummary(summary: AuctionSummaryState, event: AuctionEvent): AuctionSummaryState {
  const version = summary.version + 1;
  if (event.type === 'AuctionScheduled') {
    const { endsAt, rules } = event.data;
    const facts = auctionFactsOf(event.data);
    return { status: 'PENDING', ...facts, endsAt, scheduledEndsAt: endsAt, bidCount: 0, ...figures(rules, openingStanding(rules), 0), version };
  }
  if (summary.status === 'UNSCHEDULED') return { status: 'UNSCHEDULED', version };

  const next = { ...summary, version };
  switch (event.type) {
    case 'AuctionOpened':
      return { ...next, status: 'ACTIVE' } as AuctionSummary;
    case 'BidPlaced': {
      const bidCount = next.bidCount + 1;
      return { ...next, bidCount, ...figures(next.rules, event.data.standing, bidCount) };
    }
    case 'MaximumBidRaised':
    case 'BidRetracted':
      return { ...next, ...figures(next.rules, event.data.standing, next.bidCount) };
    case 'AuctionExtended':
      return { ...next, endsAt: event.data.endsAt };
    case 'AuctionClosed':
      // A sale's price is the one shown from then on: a buy-now's is not the standing's.
      return { ...next, status: 'ENDED', closing: event.data, price: event.data.finalPrice ?? next.price, buyNowAvailable: false };
    case 'AuctionCancelled':
      return { ...next, status: 'CANCELLED', cancellationReason: event.data.reason, buyNowAvailable: false };
    default:
      return assertNever(event);
  }
}

/** For `fold`: the summary of an auction's stream. */
export const auctionSummaryView = { initialState: initialAuctionSummary, evolve: evolveAuctionSummary };

/**
 * The end of the auction once the decision that made this bid event is complete, from the summary
 * just before it: the decider's own soft-close rule moves it when the bid raised the price. The
 * AuctionExtended that records the move is appended right after the bid, but may reach a reader
 * in a later batch (each of KurrentDB's events has its own position): with this, the live hub
 * tells the new end with the bid, without looking ahead for it.
 */
export function endsAtAfterBid(before: AuctionSummary, event: AuctionEventOf<'BidPlaced' | 'MaximumBidRaised'>): Instant {
  if (event.data.standing.price <= before.price) return before.endsAt;
  return softCloseEndAfterBid(before.rules, before.endsAt, event.data.placedAt) ?? before.endsAt;
}

/** What a standing shows a bidder, by the decider's own rules. */
function figures(rules: AuctionRules, standing: Standing, bidCount: number) {
  const { price, leaderId, leadingBidId, reserveMet } = standing;
  return {
    price,
    leaderId,
    leadingBidId,
    reserveMet,
    minimumNextBid: minimumNextBid(rules, standing),
    buyNowAvailable: buyNowOffered(rules, standing, bidCount),
  };
}

import { z } from 'zod';
import { centsSchema, type Cents } from '../shared/money';
import type { Instant } from '../shared/time';
import { incrementAt, type AuctionRules } from './rules';

/**
 * Proxy (maximum) bidding as on eBay and Catawiki, in closed form: each bidder's proxy raises their
 * bid one increment at a time up to their maximum; the outcome of that exchange is computed
 * directly instead of step by step. Ties in maximum go to the earlier bid.
 */

/** What a bidder can see of the auction, plus the leader's secret maximum. */
export const standingSchema = z.strictObject({
  price: centsSchema,
  leaderId: z.string().nullable(),
  /** The submission whose maximum currently leads. */
  leadingBidId: z.string().nullable(),
  leaderMaximum: centsSchema.nullable(),
  /** null when the auction has no reserve. */
  reserveMet: z.boolean().nullable(),
});
export type Standing = z.infer<typeof standingSchema>;

/** A bid the proxy placed on a bidder's behalf during one exchange. */
export const autoBidSchema = z.strictObject({
  bidderId: z.string(),
  amount: centsSchema,
  /** The submission whose maximum this automatic bid draws on. */
  forBidId: z.string(),
});
export type AutoBid = z.infer<typeof autoBidSchema>;

/**
 * The id of the n-th (from 1) automatic bid of the exchange a submission started: the bid history
 * stores it and the live feed announces it under this id, "{bidId}/auto/{n}".
 */
export function autoBidId(bidId: string, n: number): string {
  return `${bidId}/auto/${n}`;
}

/** Matches a submission's id, as `submissionIdPattern` (a regex source) does, or one of its automatic bids' ids. */
export function bidIdPattern(submissionIdPattern: string): RegExp {
  return new RegExp(`^${submissionIdPattern}(/auto/[1-9][0-9]{0,5})?$`);
}

/** One accepted bid or maximum raise, as the proxy sees it. */
export interface Submission {
  readonly bidId: string;
  readonly bidderId: string;
  readonly amount: Cents;
  /** The most this bidder will pay; equals `amount` for a plain bid. */
  readonly maximum: Cents;
  readonly placedAt: Instant;
}

export function openingStanding(rules: AuctionRules): Standing {
  return {
    price: rules.startingPrice,
    leaderId: null,
    leadingBidId: null,
    leaderMaximum: null,
    reserveMet: rules.reservePrice === null ? null : false,
  };
}

/** The least a new bid may be: the current price plus the increment of its band. */
export function minimumNextBid(rules: AuctionRules, standing: Standing): Cents {
  return standing.price + incrementAt(rules.incrementTable, standing.price);
}

export interface ExchangeOutcome {
  readonly standing: Standing;
  readonly autoBids: AutoBid[];
}

/**
 * Applies one submission to the standing. Total over any input so that a retraction can replay the
 * surviving submissions; `decide` checks the rules (amount, increment, who may bid) beforehand.
 */
export function applySubmission(rules: AuctionRules, standing: Standing, submission: Submission): ExchangeOutcome {
  const { bidderId, bidId, amount } = submission;
  const maximum = Math.max(amount, submission.maximum);
  const autoBids: AutoBid[] = [];
  let leaderId: string;
  let leadingBidId: string;
  let leaderMaximum: Cents;
  let price: Cents;

  if (standing.leaderId === null || standing.leaderMaximum === null || standing.leadingBidId === null) {
    leaderId = bidderId;
    leadingBidId = bidId;
    leaderMaximum = maximum;
    price = Math.max(amount, standing.price);
  } else if (standing.leaderId === bidderId) {
    // A leader raising their own maximum never raises the visible price against themselves.
    leaderId = bidderId;
    const raised = maximum > standing.leaderMaximum;
    leadingBidId = raised ? bidId : standing.leadingBidId;
    leaderMaximum = raised ? maximum : standing.leaderMaximum;
    price = standing.price;
  } else if (maximum > standing.leaderMaximum) {
    // The challenger's maximum is higher: the old leader's proxy answers up to its maximum, then
    // the challenger's proxy goes one increment above it (never past the challenger's maximum).
    const defenderMaximum = standing.leaderMaximum;
    leaderId = bidderId;
    leadingBidId = bidId;
    leaderMaximum = maximum;
    if (defenderMaximum >= amount) {
      autoBids.push({ bidderId: standing.leaderId, amount: defenderMaximum, forBidId: standing.leadingBidId });
      price = Math.min(maximum, defenderMaximum + incrementAt(rules.incrementTable, defenderMaximum));
      autoBids.push({ bidderId, amount: price, forBidId: bidId });
    } else {
      price = amount;
    }
  } else {
    // The leader's maximum holds (an equal maximum loses to the earlier bid): the challenger's
    // proxy goes to its maximum, the leader's answers one increment above it, capped at its own.
    leaderId = standing.leaderId;
    leadingBidId = standing.leadingBidId;
    leaderMaximum = standing.leaderMaximum;
    if (maximum > amount) autoBids.push({ bidderId, amount: maximum, forBidId: bidId });
    price = Math.max(standing.price, Math.min(leaderMaximum, maximum + incrementAt(rules.incrementTable, maximum)));
    autoBids.push({ bidderId: leaderId, amount: price, forBidId: leadingBidId });
  }

  // A leading maximum that meets the reserve lifts the price to the reserve at once.
  const reserve = rules.reservePrice;
  if (reserve !== null && price < reserve && leaderMaximum >= reserve) {
    price = reserve;
    const last = autoBids.at(-1);
    if (last && last.bidderId === leaderId) autoBids[autoBids.length - 1] = { ...last, amount: price };
    else autoBids.push({ bidderId: leaderId, amount: price, forBidId: leadingBidId });
  }

  return {
    standing: {
      price,
      leaderId,
      leadingBidId,
      leaderMaximum,
      reserveMet: reserve === null ? null : price >= reserve,
    },
    autoBids,
  };
}

/** The standing that the surviving submissions, in order, produce from the opening standing. */
export function replaySubmissions(rules: AuctionRules, submissions: Iterable<Submission>): Standing {
  let standing = openingStanding(rules);
  for (const submission of submissions) standing = applySubmission(rules, standing, submission).standing;
  return standing;
}

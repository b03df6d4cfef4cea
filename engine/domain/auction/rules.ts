import { z } from 'zod';
import { centsSchema, positiveCentsSchema, type Cents } from '../shared/money';
import { invalid } from '../shared/errors';
import { instantSchema, toMillis, type Instant } from '../shared/time';

/**
 * An auction's rules are fixed when it is scheduled and recorded in the AuctionScheduled event, so
 * a replay always uses the rules that applied to that auction.
 */

/** Price bands: from `from` (inclusive) upward, each bid must add at least `increment`. */
export const incrementBandSchema = z.strictObject({
  from: centsSchema,
  increment: positiveCentsSchema,
});
export type IncrementBand = z.infer<typeof incrementBandSchema>;

export const softCloseSchema = z.strictObject({
  /** A price-changing bid this close to the end pushes the end to now + window. */
  windowSeconds: z.number().int().positive().max(24 * 60 * 60),
  /** The end never moves past this instant, however many late bids arrive. */
  latestEndsAt: instantSchema,
});

/** The buyer's premium is at most 50% (the spec's range, 0 to 50 percent). */
export const MAX_BUYERS_PREMIUM_BASIS_POINTS = 5_000;
/** 0.01 hour: short enough for a test to see a window run out. */
export const MIN_PAYMENT_WINDOW_SECONDS = 36;
export const MAX_PAYMENT_WINDOW_SECONDS = 30 * 24 * 3_600;

/** What a publication gets unless the publisher chooses otherwise: a 20% premium, a week to pay. */
export const DEFAULT_AFTER_SALE_TERMS = { buyersPremiumBasisPoints: 2_000, paymentWindowSeconds: 7 * 24 * 3_600 } as const;

/** The terms of an auction scheduled before they were part of the rules: its bidders were shown no premium, so there is none. */
const LEGACY_AFTER_SALE_TERMS = { buyersPremiumBasisPoints: 0, paymentWindowSeconds: DEFAULT_AFTER_SALE_TERMS.paymentWindowSeconds } as const;

export const auctionRulesSchema = z.strictObject({
  currency: z.literal('USD'),
  startingPrice: centsSchema,
  incrementTable: z.array(incrementBandSchema).min(1),
  softClose: softCloseSchema.nullable(),
  reservePrice: positiveCentsSchema.nullable(),
  buyNowPrice: positiveCentsSchema.nullable(),
  /**
   * What the winner pays on top of the hammer price, in basis points (2000 = 20%). Absent from
   * auctions scheduled before after-sale terms were part of the rules: those charge none.
   */
  buyersPremiumBasisPoints: z.number().int().min(0).max(MAX_BUYERS_PREMIUM_BASIS_POINTS).optional(),
  /** How long the winner has to pay once the order is placed. Absent as above: a week. */
  paymentWindowSeconds: z.number().int().min(MIN_PAYMENT_WINDOW_SECONDS).max(MAX_PAYMENT_WINDOW_SECONDS).optional(),
});
export type AuctionRules = z.infer<typeof auctionRulesSchema>;

export interface AfterSaleTerms {
  readonly buyersPremiumBasisPoints: number;
  readonly paymentWindowSeconds: number;
}

/** The premium rate and payment window an auction was sold under, fixed when it was scheduled. */
export function afterSaleTermsOf(rules: AuctionRules): AfterSaleTerms {
  return {
    buyersPremiumBasisPoints: rules.buyersPremiumBasisPoints ?? LEGACY_AFTER_SALE_TERMS.buyersPremiumBasisPoints,
    paymentWindowSeconds: rules.paymentWindowSeconds ?? LEGACY_AFTER_SALE_TERMS.paymentWindowSeconds,
  };
}

/** The spec's behaviour: every bid adds at least 1 USD. */
export const FLAT_ONE_DOLLAR: IncrementBand[] = [{ from: 0, increment: 100 }];

/** eBay's published US increment table (amounts in cents). */
export const EBAY_INCREMENTS: IncrementBand[] = [
  { from: 0, increment: 5 },
  { from: 100, increment: 25 },
  { from: 500, increment: 50 },
  { from: 2_500, increment: 100 },
  { from: 10_000, increment: 250 },
  { from: 25_000, increment: 500 },
  { from: 50_000, increment: 1_000 },
  { from: 100_000, increment: 2_500 },
  { from: 250_000, increment: 5_000 },
  { from: 500_000, increment: 10_000 },
];

/** A band of the increment table with its upper bound: one cent below the next band's start; null for the last. */
export interface IncrementBandRange extends IncrementBand {
  readonly to: Cents | null;
}

/** The band a price falls in: the one with the highest `from` not above it. */
export function incrementBandAt(table: readonly IncrementBand[], price: Cents): IncrementBandRange {
  let index = 0;
  for (let i = 1; i < table.length && table[i]!.from <= price; i++) index = i;
  const next = table[index + 1];
  return { ...table[index]!, to: next === undefined ? null : next.from - 1 };
}

/** The smallest step a bid must add at `price`. */
export function incrementAt(table: readonly IncrementBand[], price: Cents): Cents {
  return incrementBandAt(table, price).increment;
}

/** Every band with its bounds, as an auditor reads the table. */
export function incrementBands(table: readonly IncrementBand[]): IncrementBandRange[] {
  return table.map((band) => incrementBandAt(table, band.from));
}

/** Checks what a schema cannot: the relations between the rules and the schedule. */
export function validateSchedule(rules: AuctionRules, startsAt: Instant, endsAt: Instant): void {
  const table = rules.incrementTable;
  if (table[0]!.from !== 0) {
    throw invalid('INVALID_INCREMENT_TABLE', 'The increment table must start at 0');
  }
  for (let i = 1; i < table.length; i++) {
    if (table[i]!.from <= table[i - 1]!.from) {
      throw invalid('INVALID_INCREMENT_TABLE', 'Increment bands must be in strictly ascending order');
    }
  }
  if (toMillis(endsAt) <= toMillis(startsAt)) {
    throw invalid('INVALID_SCHEDULE', 'The auction must end after it starts');
  }
  if (rules.softClose && toMillis(rules.softClose.latestEndsAt) < toMillis(endsAt)) {
    throw invalid('INVALID_SOFT_CLOSE', 'The latest possible end cannot be before the scheduled end');
  }
  if (rules.reservePrice !== null && rules.reservePrice < rules.startingPrice) {
    throw invalid('INVALID_RESERVE', 'The reserve price cannot be below the starting price');
  }
  if (rules.buyNowPrice !== null) {
    if (rules.buyNowPrice <= rules.startingPrice) {
      throw invalid('INVALID_BUY_NOW', 'The buy-now price must be above the starting price');
    }
    if (rules.reservePrice !== null && rules.buyNowPrice < rules.reservePrice) {
      throw invalid('INVALID_BUY_NOW', 'The buy-now price cannot be below the reserve price');
    }
  }
}

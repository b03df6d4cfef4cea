import { z } from 'zod';
import { EBAY_INCREMENTS, FLAT_ONE_DOLLAR, fromMillis, type AuctionRules, type Cents, type Instant } from '../../../engine/domain';
import { HttpError } from '../../http/errors';
import { toCents } from '../../http/money';

const HOUR_MS = 3_600_000;

/** Unless the publisher says otherwise: a week long, the spec's $1 step, and anti-sniping on. */
export const PUBLICATION_DEFAULTS = {
  durationHours: 7 * 24,
  incrementTable: 'FLAT_ONE_DOLLAR',
  // MatchWornShirt's 3-minute reset, never more than a day past the scheduled end.
  softClose: { windowSeconds: 180, maxExtensionHours: 24 },
} as const;

const INCREMENT_TABLES = { FLAT_ONE_DOLLAR, EBAY: EBAY_INCREMENTS } as const;

const dollars = z.number().min(0).max(100_000_000);

/** POST /api/admin/listings/{id}/publish: the auction's rule set, chosen at publish; every field optional. */
export const publicationBody = z
  .strictObject({
    startingPrice: dollars.optional().describe("Dollars. Default: the listing's asking price"),
    startsAt: z.iso.datetime({ offset: true }).optional().describe('Default: now (the auction opens at once)'),
    endsAt: z.iso.datetime({ offset: true }).optional().describe('Give endsAt or durationHours, not both'),
    durationHours: z.number().min(1).max(90 * 24).optional().describe(`From the start. Default ${PUBLICATION_DEFAULTS.durationHours}`),
    incrementTable: z.enum(['FLAT_ONE_DOLLAR', 'EBAY']).optional().describe("FLAT_ONE_DOLLAR (the spec's: every bid adds at least $1, default) or EBAY (eBay's US table)"),
    softClose: z
      .strictObject({
        windowSeconds: z.number().int().min(10).max(3_600).describe('A price-changing bid this close to the end moves the end to now + window'),
        maxExtensionHours: z.number().min(0).max(7 * 24).describe('The end never moves further than this past the scheduled end'),
      })
      .nullable()
      .optional()
      .describe('null: a hard close. Default: 180 s window, at most 24 h of extensions'),
    reservePrice: dollars.positive().nullable().optional().describe('Dollars; hidden from bidders, who only learn whether it is met. Default none'),
    buyNowPrice: dollars.positive().nullable().optional().describe('Dollars; offered until the first bid (with a reserve: until it is met). Default none'),
  })
  // A POST without a body arrives as null: publish with every default.
  .nullish();
export type PublicationBody = z.infer<typeof publicationBody>;

export interface Schedule {
  readonly startsAt: Instant;
  readonly endsAt: Instant;
  readonly rules: AuctionRules;
}

/** The body's choices, defaults filled in, in the engine's units; the engine checks how they relate. */
export function scheduleFrom(body: PublicationBody, askingPrice: Cents, now: Date): Schedule {
  const choice = body ?? {};
  if (choice.endsAt !== undefined && choice.durationHours !== undefined) {
    throw new HttpError(400, 'Give either endsAt or durationHours, not both', 'VALIDATION_FAILED');
  }
  const startsAt = choice.startsAt === undefined ? now.getTime() : Date.parse(choice.startsAt);
  const endsAt = choice.endsAt === undefined ? startsAt + (choice.durationHours ?? PUBLICATION_DEFAULTS.durationHours) * HOUR_MS : Date.parse(choice.endsAt);
  const softClose = choice.softClose === undefined ? PUBLICATION_DEFAULTS.softClose : choice.softClose;
  return {
    startsAt: fromMillis(startsAt),
    endsAt: fromMillis(endsAt),
    rules: {
      currency: 'USD',
      startingPrice: choice.startingPrice === undefined ? askingPrice : toCents(choice.startingPrice, 'startingPrice'),
      incrementTable: INCREMENT_TABLES[choice.incrementTable ?? PUBLICATION_DEFAULTS.incrementTable],
      softClose: softClose && { windowSeconds: softClose.windowSeconds, latestEndsAt: fromMillis(endsAt + softClose.maxExtensionHours * HOUR_MS) },
      reservePrice: choice.reservePrice == null ? null : toCents(choice.reservePrice, 'reservePrice'),
      buyNowPrice: choice.buyNowPrice == null ? null : toCents(choice.buyNowPrice, 'buyNowPrice'),
    },
  };
}

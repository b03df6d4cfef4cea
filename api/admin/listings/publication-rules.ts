import { DEFAULT_AFTER_SALE_TERMS, EBAY_INCREMENTS, FLAT_ONE_DOLLAR, fromMillis, type AuctionRules, type Cents, type Instant } from '../../../engine/domain';
import { PUBLICATION_DEFAULTS, type PublicationRequest } from '../../contracts/admin/listings';
import { HttpError } from '../../http/errors';
import { toCents } from '../../http/money';

const HOUR_MS = 3_600_000;

const INCREMENT_TABLES = { FLAT_ONE_DOLLAR, EBAY: EBAY_INCREMENTS } as const;

export interface Schedule {
  readonly startsAt: Instant;
  readonly endsAt: Instant;
  readonly rules: AuctionRules;
}

/** The body's choices, defaults filled in, in the engine's units; the engine checks how they relate. */
export function scheduleFrom(body: PublicationRequest, askingPrice: Cents, now: Date): Schedule {
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
      buyersPremiumBasisPoints: choice.buyersPremiumPercent === undefined ? DEFAULT_AFTER_SALE_TERMS.buyersPremiumBasisPoints : basisPointsOf(choice.buyersPremiumPercent),
      paymentWindowSeconds: choice.paymentWindowHours === undefined ? DEFAULT_AFTER_SALE_TERMS.paymentWindowSeconds : Math.round(choice.paymentWindowHours * 3_600),
    },
  };
}

/** 12.5 percent -> 1250 basis points; more than two decimals is refused, like cents. */
function basisPointsOf(percent: number): number {
  const decimals = String(percent).split('.')[1] ?? '';
  if (/e/i.test(String(percent)) || decimals.length > 2) {
    throw new HttpError(400, 'buyersPremiumPercent must have at most two decimals', 'VALIDATION_FAILED');
  }
  return Math.round(percent * 100);
}

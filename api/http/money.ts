import type { Cents } from '../../engine/domain';
import { HttpError } from './errors';

/**
 * Money at the API edge (design.md): integer cents inside; listing prices go out as decimal
 * strings ("1234.50"), bid amounts as numbers of dollars (51.5).
 */

/** Read-model money columns are bigint: strings from node-postgres, numbers from PGlite. */
export function centsOf(column: string | number): Cents {
  return Number(column);
}

/** "1234.50", in integer arithmetic so that no amount picks up a binary fraction. */
export function toDecimalString(cents: Cents): string {
  const whole = Math.floor(cents / 100);
  return `${whole}.${String(cents - whole * 100).padStart(2, '0')}`;
}

/** 51.5 for 5150 cents: dividing an integer by 100 gives the double nearest the decimal amount. */
export function toDollars(cents: Cents): number {
  return cents / 100;
}

export function toDollarsOrNull(cents: Cents | string | number | null): number | null {
  return cents === null ? null : toDollars(centsOf(cents));
}

/**
 * 51.5 dollars -> 5150 cents. More than two decimals is refused rather than rounded: a bidder
 * must never bid an amount other than the one they sent. `label` names the field in the message.
 */
export function toCents(dollars: number, label: string): Cents {
  const written = String(dollars);
  const decimals = written.split('.')[1] ?? '';
  if (/e/i.test(written) || decimals.length > 2) {
    throw new HttpError(400, `${label} must be in whole cents`, 'AMOUNT_NOT_WHOLE_CENTS');
  }
  return Math.round(dollars * 100);
}

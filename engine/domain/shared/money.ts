import { z } from 'zod';

/** Money inside the engine is always an integer number of US cents. */
export type Cents = number;

export const centsSchema = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);
export const positiveCentsSchema = centsSchema.positive();

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

/** "$1,234.00": the form used in every message a buyer reads. */
export function formatUsd(amount: Cents): string {
  return usd.format(amount / 100);
}

import { formatUsd } from '../../../lib/money';
import type { Auction } from '../api';
import { isLeader } from './auction-facts';

/** The bid form's two inputs, as typed. */
export interface BidForm {
  readonly amount: string;
  readonly maxAmount: string;
}

/** The amount typed, as dollars; null when it is not a positive number. */
export function parseAmount(text: string): number | null {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  const value = Number(trimmed);
  return Number.isFinite(value) && value > 0 ? value : null;
}

/** The optional maximum: null when left empty. */
export function parseMaximum(form: BidForm): number | null {
  return form.maxAmount.trim() === '' ? null : parseAmount(form.maxAmount);
}

/**
 * What the amount input offers: the least the next bid may be, unless the user leads already, for
 * a bid of theirs would only raise their own maximum; then it stays empty.
 */
export function suggestedAmount(auction: Auction, userId: string | null): string {
  return isLeader(auction, userId) ? '' : String(auction.minimumBid);
}

/**
 * The amount after the auction moved on: a typed amount still above the price stays; one the price
 * has overtaken (or none) gives way to the suggestion.
 */
export function amountAfterChange(typed: string, auction: Auction, userId: string | null): string {
  const amount = parseAmount(typed);
  return amount !== null && amount > auction.currentPrice ? typed : suggestedAmount(auction, userId);
}

/** Why the form cannot be sent as typed, checked here without calling the server; null when it can. */
export function bidFormProblem(form: BidForm, auction: Auction): string | null {
  const amount = parseAmount(form.amount);
  if (amount === null) return 'Please enter a valid bid amount';
  if (amount <= auction.currentPrice) return `Bid must be higher than current price of ${formatUsd(auction.currentPrice)}`;
  if (form.maxAmount.trim() !== '' && (parseAmount(form.maxAmount) ?? 0) < amount) return 'Maximum bid must be at least the bid amount';
  return null;
}

/** A fresh Idempotency-Key per attempt; randomUUID needs a secure context, so fall back to random bytes. */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

import { formatUsd } from '../../../lib/money';
import type { AuctionStatus } from '../../../../../api/contracts/auctions';
import type { Auction, PlacedBid, Purchase } from '../api';

/** What the panel says; the machine and the component decide when. */

export const BID_SUCCESS_MESSAGE = 'Bid placed successfully! Updates will appear automatically.';
export const BIDDING_CLOSED_MESSAGE = 'Bidding is closed for this auction';
export const BUY_NOW_UNAVAILABLE_MESSAGE = 'Buy now is not available for this auction';

/** ACTIVE "Live Auction", PENDING "Starting Soon", anything else as it is. */
export function statusLabel(status: AuctionStatus): string {
  if (status === 'ACTIVE') return 'Live Auction';
  if (status === 'PENDING') return 'Starting Soon';
  return status;
}

/**
 * An accepted bid. A leader's bid only raises their private maximum (kind MAXIMUM): the price
 * stays, and the message says so instead of suggesting the price moved.
 */
export function placedBidMessage(placed: PlacedBid): string {
  if (placed.kind === 'MAXIMUM') {
    return `You are still the leader at ${formatUsd(placed.auction.currentPrice)}; your maximum is now ${formatUsd(placed.maxAmount ?? placed.amount)}`;
  }
  return BID_SUCCESS_MESSAGE;
}

export function purchaseMessage(purchase: Purchase): string {
  return `You bought this item for ${formatUsd(purchase.amount)}.`;
}

/** "<what failed>: <the server's reason>", or just what failed when there is no reason. */
export function failureMessage(what: 'Failed to place bid' | 'Failed to buy now', error: unknown): string {
  return error instanceof Error && error.message ? `${what}: ${error.message}` : what;
}

/** "Bidder •••3f2a", or "You" for the signed-in user's own bids. */
export function bidderLabel(bidderId: string, userId: string | null): string {
  if (userId !== null && bidderId === userId) return 'You';
  return `Bidder •••${bidderId.replace(/-/g, '').slice(-4)}`;
}

/** What the winner pays on top of the hammer, and how soon: the terms fixed when the lot was published. */
export function saleTerms(auction: Pick<Auction, 'buyersPremiumPercent' | 'paymentWindowHours'>): string {
  const hours = auction.paymentWindowHours;
  const count = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;
  const window = hours >= 48 && hours % 24 === 0 ? count(hours / 24, 'day') : hours >= 1 ? count(hours, 'hour') : count(Math.max(1, Math.round(hours * 60)), 'minute');
  return `The winner pays a ${auction.buyersPremiumPercent}% buyer's premium and shipping on top of the hammer price, by bank transfer within ${window} of the close.`;
}

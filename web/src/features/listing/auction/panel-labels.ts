import { formatUsd } from '../../../lib/money';
import type { AuctionStatus } from '../../../../../api/contracts/auctions';
import type { PlacedBid, Purchase } from '../api';

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

import type { AuctionStatus } from '../../../../api/contracts/auctions';
import type { UserBid } from './api';

/** The dashboard's figures, from the user's real bids (what the history call says, nothing invented). */
export interface BidSummary {
  /** Bids the user placed or their maximum placed for them; raising one's own maximum is not a bid. */
  readonly bidsPlaced: number;
  readonly auctionsBidOn: number;
  /** Auctions still running that the user leads / no longer leads. */
  readonly leading: number;
  readonly outbid: number;
  readonly won: number;
}

const OPEN_STATUSES: ReadonlySet<AuctionStatus> = new Set(['ACTIVE', 'PENDING']);

export function summarizeBids(bids: readonly UserBid[]): BidSummary {
  const placed = bids.filter((bid) => bid.kind !== 'MAXIMUM' && bid.status === 'ACCEPTED');
  // One verdict per auction, from its newest bid (the list is newest first); every bid carries the auction's current state.
  const auctions = new Map<string, UserBid>();
  for (const bid of bids) if (!auctions.has(bid.auctionId)) auctions.set(bid.auctionId, bid);
  let leading = 0;
  let outbid = 0;
  let won = 0;
  for (const bid of auctions.values()) {
    if (bid.auctionStatus && OPEN_STATUSES.has(bid.auctionStatus)) {
      if (bid.isLeading) leading += 1;
      else outbid += 1;
    } else if (bid.isWinner) won += 1;
  }
  return { bidsPlaced: placed.length, auctionsBidOn: auctions.size, leading, outbid, won };
}

export type BidStanding = 'Leading' | 'Outbid' | 'Won' | 'Ended' | 'Cancelled' | 'Retracted' | null;

/** What one row of Recent Activity says about where the user stands in that auction now. */
export function bidStanding(bid: UserBid): BidStanding {
  if (bid.status === 'RETRACTED') return 'Retracted';
  if (bid.auctionStatus && OPEN_STATUSES.has(bid.auctionStatus)) return bid.isLeading ? 'Leading' : 'Outbid';
  if (bid.auctionStatus === 'CANCELLED') return 'Cancelled';
  if (bid.auctionStatus === 'ENDED') return bid.isWinner ? 'Won' : 'Ended';
  return null;
}

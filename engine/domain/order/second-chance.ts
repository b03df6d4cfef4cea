import { chronological, type AuctionState } from '../auction/auction';
import type { Cents } from '../shared/money';

export interface SecondChanceCandidate {
  readonly bidderId: string;
  /** The bidder's own highest bid: the most they offered to pay (their maximum), retracted bids aside. */
  readonly amount: Cents;
}

/**
 * Who a cancelled sale may be offered to next (eBay's Second Chance Offer): the bidder with the
 * highest bid of their own among those not yet asked (the winner, earlier offers), at that bid, and
 * never below the reserve.
 * Equal bids go to whoever bid first, as they would have in the auction. Null when nobody is left.
 */
export function secondChanceCandidate(auction: AuctionState, excludedBidderIds: Iterable<string>): SecondChanceCandidate | null {
  if (auction.status !== 'ENDED') return null;
  const excluded = new Set(excludedBidderIds);
  const retracted = new Set(auction.retractedBidIds);
  // Below the reserve the lot would not have sold to them: no offer goes under it.
  const reserve = auction.facts.rules.reservePrice ?? 0;
  const best = new Map<string, { amount: Cents; order: number }>();
  chronological(auction.submissions).forEach((submission, order) => {
    if (retracted.has(submission.bidId) || excluded.has(submission.bidderId) || submission.maximum < reserve) return;
    const current = best.get(submission.bidderId);
    if (!current || submission.maximum > current.amount) best.set(submission.bidderId, { amount: submission.maximum, order });
  });
  let winner: (SecondChanceCandidate & { order: number }) | null = null;
  for (const [bidderId, { amount, order }] of best) {
    if (!winner || amount > winner.amount || (amount === winner.amount && order < winner.order)) winner = { bidderId, amount, order };
  }
  return winner && { bidderId: winner.bidderId, amount: winner.amount };
}

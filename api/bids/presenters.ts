import type { Bid, BidRejection, PlacedBid, Purchase, UserBid } from '../contracts/bids';
import type { HandledCommand } from '../../engine/application/command-handler';
import type { BidReceipt } from '../../engine/domain/integrity/receipts';
import { minimumNextBid, type AuctionEvent, type AuctionEventOf, type AuctionState } from '../../engine/domain';
import { centsOf, toDollars, toDollarsOrNull } from '../http/money';
import type { BidRejectionRow, BidRow, UserBidRow } from './queries';

export function presentBid(row: BidRow): Bid {
  return {
    id: row.id,
    auctionId: row.auction_id,
    bidderId: row.bidder_id,
    amount: toDollars(centsOf(row.amount)),
    placedAt: row.placed_at.toISOString(),
    status: row.status,
    kind: row.kind,
  };
}

/**
 * The answer to an accepted bid, from what the engine decided and appended: the read models may
 * not have caught up yet. A repeated command (same Idempotency-Key) finds its earlier events.
 */
export function presentPlacedBid(handled: HandledCommand<AuctionEvent, AuctionState>, receipt: BidReceipt): PlacedBid {
  const placed = handled.events.find(
    (event): event is AuctionEventOf<'BidPlaced' | 'MaximumBidRaised'> => event.type === 'BidPlaced' || event.type === 'MaximumBidRaised',
  );
  const { state } = handled;
  if (!placed || state.status === 'UNSCHEDULED') throw new Error('An accepted bid without its BidPlaced or MaximumBidRaised event');
  const { bidId, auctionId, bidderId, amount, maximum, placedAt, standing } = placed.data;
  return {
    id: bidId,
    auctionId,
    bidderId,
    amount: toDollars(amount),
    maxAmount: toDollarsOrNull(maximum),
    placedAt,
    status: 'ACCEPTED',
    kind: placed.type === 'BidPlaced' ? 'BID' : 'MAXIMUM',
    auction: {
      currentPrice: toDollars(standing.price),
      currentLeaderId: standing.leaderId,
      status: state.status,
      minimumBid: toDollars(minimumNextBid(state.facts.rules, standing)),
      endsAt: state.endsAt,
    },
    receipt,
  };
}

export function presentPurchase(handled: HandledCommand<AuctionEvent, AuctionState>, receipt: BidReceipt): Purchase {
  const closed = handled.events.find((event): event is AuctionEventOf<'AuctionClosed'> => event.type === 'AuctionClosed');
  if (!closed || closed.data.winnerId === null || closed.data.winningBidId === null || closed.data.finalPrice === null) {
    throw new Error('An accepted buy-now without its AuctionClosed event');
  }
  const { auctionId, winnerId, winningBidId, finalPrice, closedAt } = closed.data;
  return {
    id: winningBidId,
    auctionId,
    buyerId: winnerId,
    amount: toDollars(finalPrice),
    purchasedAt: closedAt,
    auction: { status: 'ENDED', result: 'SOLD', finalPrice: toDollars(finalPrice), closedAt },
    receipt,
  };
}

export function presentUserBid(row: UserBidRow): UserBid {
  return {
    id: row.id,
    auctionId: row.auction_id,
    bidderId: row.bidder_id,
    amount: toDollars(centsOf(row.amount)),
    maxAmount: toDollarsOrNull(row.maximum),
    placedAt: row.placed_at.toISOString(),
    status: row.status,
    kind: row.kind,
    listingId: row.listing_id,
    listingTitle: row.listing_title,
    listingSlug: row.listing_slug,
    auctionStatus: row.auction_status,
    currentPrice: toDollarsOrNull(row.current_price),
    endsAt: row.ends_at?.toISOString() ?? null,
    isLeading: row.leader_id === row.bidder_id,
    result: row.result,
    isWinner: row.winner_id === row.bidder_id,
  };
}

export function presentBidRejection(row: BidRejectionRow): BidRejection {
  return {
    bidId: row.bid_id,
    auctionId: row.auction_id,
    attempt: row.attempt,
    amount: toDollarsOrNull(row.amount),
    code: row.code,
    message: row.message,
    attemptedAt: row.attempted_at.toISOString(),
  };
}

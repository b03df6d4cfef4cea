import { z } from 'zod';
import type { HandledCommand } from '../../engine/application/command-handler';
import { minimumNextBid, type AuctionEvent, type AuctionEventOf, type AuctionState } from '../../engine/domain';
import { centsOf, toDollars, toDollarsOrNull } from '../http/money';
import type { BidRejectionRow, BidRow, UserBidRow } from './queries';

const bidKind = z.enum(['BID', 'AUTO', 'MAXIMUM', 'BUY_NOW']).describe('BID: placed by the bidder; AUTO: placed by their maximum (proxy); MAXIMUM: the leader raising their own maximum; BUY_NOW: the buy-now purchase');

/** A bid as anyone may see it: never a maximum. */
export const bidAnswerSchema = z.object({
  id: z.string(),
  auctionId: z.string(),
  bidderId: z.string(),
  amount: z.number().describe('Dollars'),
  placedAt: z.string(),
  status: z.enum(['ACCEPTED', 'RETRACTED']),
  kind: bidKind,
});

export function presentBid(row: BidRow): z.infer<typeof bidAnswerSchema> {
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

export const placedBidAnswerSchema = z.object({
  id: z.string(),
  auctionId: z.string(),
  bidderId: z.string(),
  amount: z.number().describe('Dollars'),
  maxAmount: z.number().nullable().describe('Your maximum (dollars), when you set one'),
  placedAt: z.string(),
  status: z.literal('ACCEPTED'),
  kind: z.enum(['BID', 'MAXIMUM']).describe('MAXIMUM: you already led, and this raised your maximum without raising the price'),
  auction: z.object({
    currentPrice: z.number(),
    currentLeaderId: z.string().nullable(),
    status: z.string(),
    minimumBid: z.number(),
    endsAt: z.string(),
  }),
});
export type PlacedBidAnswer = z.infer<typeof placedBidAnswerSchema>;

/**
 * The answer to an accepted bid, from what the engine decided and appended: the read models may
 * not have caught up yet. A repeated command (same Idempotency-Key) finds its earlier events.
 */
export function presentPlacedBid(handled: HandledCommand<AuctionEvent, AuctionState>): PlacedBidAnswer {
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
  };
}

/** A buy-now purchase: the auction closed, sold to the buyer at the buy-now price. */
export const boughtAnswerSchema = z.object({
  id: z.string().describe('The purchase, recorded as the winning bid'),
  auctionId: z.string(),
  buyerId: z.string(),
  amount: z.number().describe('Dollars: the buy-now price'),
  purchasedAt: z.string(),
  auction: z.object({ status: z.literal('ENDED'), result: z.literal('SOLD'), finalPrice: z.number(), closedAt: z.string() }),
});
export type BoughtAnswer = z.infer<typeof boughtAnswerSchema>;

export function presentPurchase(handled: HandledCommand<AuctionEvent, AuctionState>): BoughtAnswer {
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
  };
}

export const userBidAnswerSchema = z.object({
  id: z.string(),
  auctionId: z.string(),
  bidderId: z.string(),
  amount: z.number(),
  maxAmount: z.number().nullable().describe('Your maximum (dollars), when the bid set one'),
  placedAt: z.string(),
  status: z.enum(['ACCEPTED', 'RETRACTED']),
  kind: bidKind,
  listingId: z.string().nullable(),
  listingTitle: z.string().nullable(),
  listingSlug: z.string().nullable(),
  auctionStatus: z.string().nullable(),
  currentPrice: z.number().nullable(),
  endsAt: z.string().nullable(),
  isLeading: z.boolean().describe('You lead the auction now'),
  result: z.string().nullable().describe('Once the auction ended: SOLD, NO_BIDS or RESERVE_NOT_MET'),
  isWinner: z.boolean(),
});

export function presentUserBid(row: UserBidRow): z.infer<typeof userBidAnswerSchema> {
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

export const bidRejectionAnswerSchema = z.object({
  bidId: z.string(),
  auctionId: z.string(),
  attempt: z.string().describe('BID or BUY_NOW'),
  amount: z.number().nullable().describe('Dollars; null for a buy-now attempt'),
  code: z.string(),
  message: z.string().describe('Why it was refused, as the bidder was told'),
  attemptedAt: z.string(),
});

export function presentBidRejection(row: BidRejectionRow): z.infer<typeof bidRejectionAnswerSchema> {
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

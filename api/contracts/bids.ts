import { z } from 'zod';
import { auctionStatusSchema, closingResultSchema, dollarsSchema } from './auctions';
import { receiptSchema } from './receipts';

/** Far above any memorabilia sale, and low enough that every amount converts to cents exactly. */
export const MAX_BID_DOLLARS = 100_000_000;
const bidDollars = z.number().positive().max(MAX_BID_DOLLARS);

export const placeBidRequestSchema = z.strictObject({
  auctionId: z.uuid(),
  amount: bidDollars.describe('Dollars, in whole cents (51 or 51.5)'),
  maxAmount: bidDollars.nullable().optional().describe('Proxy bidding: the most you will pay (dollars); the auction bids for you up to it'),
});
export type PlaceBidRequest = z.infer<typeof placeBidRequestSchema>;

export const buyNowRequestSchema = z.strictObject({ auctionId: z.uuid() });
export type BuyNowRequest = z.infer<typeof buyNowRequestSchema>;

export const bidKindSchema = z
  .enum(['BID', 'AUTO', 'MAXIMUM', 'BUY_NOW'])
  .describe('BID: placed by the bidder; AUTO: placed by their maximum (proxy); MAXIMUM: the leader raising their own maximum; BUY_NOW: the buy-now purchase');
export type BidKind = z.infer<typeof bidKindSchema>;

export const bidStatusSchema = z.enum(['ACCEPTED', 'RETRACTED']);
export type BidStatus = z.infer<typeof bidStatusSchema>;

/** A bid as anyone may see it: never a maximum. */
export const bidSchema = z.object({
  id: z.string(),
  auctionId: z.string(),
  bidderId: z.string(),
  amount: dollarsSchema.describe('Dollars'),
  placedAt: z.string(),
  status: bidStatusSchema,
  kind: bidKindSchema,
});
export type Bid = z.infer<typeof bidSchema>;

/** The answer to an accepted bid: the bid and the auction right after it. */
export const placedBidSchema = z.object({
  id: z.string(),
  auctionId: z.string(),
  bidderId: z.string(),
  amount: dollarsSchema.describe('Dollars'),
  maxAmount: dollarsSchema.nullable().describe('Your maximum (dollars), when you set one'),
  placedAt: z.string(),
  status: z.literal('ACCEPTED'),
  kind: z.enum(['BID', 'MAXIMUM']).describe('MAXIMUM: you already led, and this raised your maximum without raising the price'),
  auction: z.object({
    currentPrice: dollarsSchema,
    currentLeaderId: z.string().nullable(),
    status: auctionStatusSchema,
    minimumBid: dollarsSchema,
    endsAt: z.string(),
  }),
  receipt: receiptSchema,
});
export type PlacedBid = z.infer<typeof placedBidSchema>;

/** A buy-now purchase: the auction closed, sold to the buyer at the buy-now price. */
export const purchaseSchema = z.object({
  id: z.string().describe('The purchase, recorded as the winning bid'),
  auctionId: z.string(),
  buyerId: z.string(),
  amount: dollarsSchema.describe('Dollars: the buy-now price'),
  purchasedAt: z.string(),
  auction: z.object({ status: z.literal('ENDED'), result: z.literal('SOLD'), finalPrice: dollarsSchema, closedAt: z.string() }),
  receipt: receiptSchema,
});
export type Purchase = z.infer<typeof purchaseSchema>;

/** One of the caller's own bids, with how its auction stands for them. */
export const userBidSchema = z.object({
  id: z.string(),
  auctionId: z.string(),
  bidderId: z.string(),
  amount: dollarsSchema,
  maxAmount: dollarsSchema.nullable().describe('Your maximum (dollars), when the bid set one'),
  placedAt: z.string(),
  status: bidStatusSchema,
  kind: bidKindSchema,
  listingId: z.string().nullable(),
  listingTitle: z.string().nullable(),
  listingSlug: z.string().nullable(),
  auctionStatus: auctionStatusSchema.nullable(),
  currentPrice: dollarsSchema.nullable(),
  endsAt: z.string().nullable(),
  isLeading: z.boolean().describe('You lead the auction now'),
  result: closingResultSchema.nullable().describe('Once the auction ended: SOLD, NO_BIDS or RESERVE_NOT_MET'),
  isWinner: z.boolean(),
});
export type UserBid = z.infer<typeof userBidSchema>;

/** A refused bid or buy-now, as its bidder was told. */
export const bidRejectionSchema = z.object({
  bidId: z.string(),
  auctionId: z.string(),
  attempt: z.enum(['BID', 'BUY_NOW']).describe('BID or BUY_NOW'),
  amount: dollarsSchema.nullable().describe('Dollars; null for a buy-now attempt'),
  code: z.string(),
  message: z.string().describe('Why it was refused, as the bidder was told'),
  attemptedAt: z.string(),
});
export type BidRejection = z.infer<typeof bidRejectionSchema>;

import { z } from 'zod';
import { closingResultSchema } from '../../engine/domain/auction/messages';

/** Money on the wire of auctions and bids: dollars as numbers (listing prices are decimal strings). */
export const dollarsSchema = z.number();

/** A scheduled auction whose start has come is ACTIVE, although no event has said so yet. */
export const auctionStatusSchema = z.enum(['PENDING', 'ACTIVE', 'ENDED', 'CANCELLED']);
export type AuctionStatus = z.infer<typeof auctionStatusSchema>;

export { closingResultSchema };
export type ClosingResult = z.infer<typeof closingResultSchema>;

const incrementBandSchema = z.object({ from: dollarsSchema, increment: dollarsSchema });

/** What a bidder may know of an auction. The leader's maximum is never part of it. */
export const auctionSchema = z.object({
  auctionId: z.string(),
  listingId: z.string(),
  status: auctionStatusSchema.describe('PENDING, ACTIVE, ENDED or CANCELLED; a scheduled auction whose start has come is ACTIVE (the first bid opens it)'),
  isActive: z.boolean().describe('Bids are taken now: ACTIVE and before endsAt'),
  startsAt: z.string(),
  endsAt: z.string().describe('The current end, moved by soft-close extensions'),
  currentPrice: dollarsSchema.describe('Dollars'),
  currentLeaderId: z.string().nullable(),
  minimumBid: dollarsSchema.describe('The least the next bid may be, in dollars: current price plus the increment of its band'),
  bidCount: z.number(),
  reserveMet: z.boolean().nullable().describe('null when the auction has no reserve'),
  buyNowPrice: dollarsSchema.nullable(),
  buyNowAvailable: z.boolean(),
  incrementTable: z.array(incrementBandSchema).describe('From each price (dollars) upward, the least a bid must add (dollars)'),
  softClose: z.object({ windowSeconds: z.number(), latestEndsAt: z.string() }).nullable(),
  buyersPremiumPercent: z.number().describe("What the winner pays on top of the hammer price, in percent, fixed when the auction was published"),
  paymentWindowHours: z.number().describe('How long the winner has to pay once the auction closes'),
  result: closingResultSchema.nullable().describe('Once ended: SOLD, NO_BIDS or RESERVE_NOT_MET'),
  winnerId: z.string().nullable(),
  finalPrice: dollarsSchema.nullable(),
  version: z.number().int().describe("How many of the auction's events these figures include: of two answers about one auction, the higher is newer"),
});
export type Auction = z.infer<typeof auctionSchema>;

/** The auction's live figures only, for polling. */
export const auctionStatusAnswerSchema = auctionSchema.pick({
  auctionId: true,
  status: true,
  isActive: true,
  endsAt: true,
  currentPrice: true,
  currentLeaderId: true,
  minimumBid: true,
  version: true,
});
export type AuctionStatusAnswer = z.infer<typeof auctionStatusAnswerSchema>;

/** When an auction takes bids, by the engine's own rules: a client asks as the time passes. */
export { effectiveStatus, hasEndedAt, takesBidsAt } from '../../engine/domain/auction/timing';

import { z } from 'zod';
import { auctionSchema } from '../auctions';

/** Moderating a running auction. */

/** POST /api/admin/auctions/{auctionId}/bids/{bidId}/retract */
export const retractBidRequestSchema = z.strictObject({
  reason: z.string().max(2000).describe('Required: why the bid is withdrawn (recorded in the log, shown in the auction\'s history)'),
});
export type RetractBidRequest = z.infer<typeof retractBidRequestSchema>;

/** A retracted bid, and the auction as it stands after the leader was worked out again without it. */
export const bidRetractionAnswerSchema = z.object({
  auctionId: z.string(),
  bidId: z.string(),
  reason: z.string(),
  auction: auctionSchema,
});
export type BidRetractionAnswer = z.infer<typeof bidRetractionAnswerSchema>;

import { z } from 'zod';
import type { Cents } from '../../engine/domain';

/**
 * What travels over /ws/bidding. The client asks to follow auctions; the server sends what the
 * event log says happened to them, with money as numbers in dollars (spec section 3, "Live message").
 */

/** The largest message a client may send; ws refuses bigger ones with close code 1009. */
export const MAX_CLIENT_MESSAGE_BYTES = 1024;

const auctionId = z.string().min(1).max(200);

export const clientMessageSchema = z.discriminatedUnion('action', [
  z.strictObject({ action: z.literal('subscribe'), auctionId }),
  z.strictObject({ action: z.literal('unsubscribe'), auctionId }),
]);
export type ClientMessage = z.infer<typeof clientMessageSchema>;

const dollars = z.number();

export const auctionDataSchema = z.strictObject({
  currentPrice: dollars,
  currentLeaderId: z.string().nullable(),
  status: z.string(),
  minimumBid: dollars,
});

export const serverMessageSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('subscribed'), auctionId }),
  z.strictObject({ type: z.literal('unsubscribed'), auctionId }),
  z.strictObject({ type: z.literal('error'), message: z.string() }),
  z.strictObject({
    type: z.literal('bid_placed'),
    auctionId,
    auctionData: auctionDataSchema.extend({ status: z.literal('ACTIVE'), endsAt: z.string() }),
    bidData: z.strictObject({
      bidId: z.string(),
      bidderId: z.string(),
      amount: dollars,
      placedAt: z.string(),
      status: z.literal('ACCEPTED'),
      /** BID: placed by the bidder; AUTO: placed for them by their proxy (maximum) bid. */
      kind: z.enum(['BID', 'AUTO']),
    }),
  }),
  z.strictObject({ type: z.literal('auction_opened'), auctionId }),
  z.strictObject({ type: z.literal('auction_extended'), auctionId, endsAt: z.string(), previousEndsAt: z.string() }),
  z.strictObject({
    type: z.literal('auction_closed'),
    auctionId,
    result: z.enum(['SOLD', 'NO_BIDS', 'RESERVE_NOT_MET']),
    winnerId: z.string().nullable(),
    finalPrice: dollars.nullable(),
    closedAt: z.string(),
  }),
  z.strictObject({ type: z.literal('auction_cancelled'), auctionId, reason: z.string() }),
  z.strictObject({ type: z.literal('bid_retracted'), auctionId, bidId: z.string(), auctionData: auctionDataSchema }),
]);
export type ServerMessage = z.infer<typeof serverMessageSchema>;

export function toDollars(amount: Cents): number {
  return amount / 100;
}

/** The error a client reads when its message is not one of the two it may send. */
export const MALFORMED_MESSAGE = 'Expected {"action":"subscribe"|"unsubscribe","auctionId":"..."}';

import { z } from 'zod';
import { auctionSchema, auctionStatusSchema, closingResultSchema, dollarsSchema } from './auctions';
import { bidKindSchema } from './bids';
import { notificationSchema } from './notifications';

/**
 * What travels over /ws/bidding. The client asks to follow auctions; the server sends what the
 * event log says happened to them, with money as numbers in dollars. The web app validates every
 * message against serverMessageSchema and drops what does not parse.
 */

/** The largest message a client may send; ws refuses bigger ones with close code 1009. */
export const MAX_CLIENT_MESSAGE_BYTES = 1024;

const auctionId = z.string().min(1).max(200);

export const clientMessageSchema = z.discriminatedUnion('action', [
  z.strictObject({ action: z.literal('subscribe'), auctionId }),
  z.strictObject({ action: z.literal('unsubscribe'), auctionId }),
  /** Hear of the signed-in user's own notices on this socket; the token goes in a message, never in the URL. */
  z.strictObject({ action: z.literal('authenticate'), token: z.string().min(1).max(900) }),
  /** Back to public news only (signing out). */
  z.strictObject({ action: z.literal('deauthenticate') }),
]);
export type ClientMessage = z.infer<typeof clientMessageSchema>;

export const auctionDataSchema = z.strictObject({
  currentPrice: dollarsSchema,
  currentLeaderId: z.string().nullable(),
  status: auctionStatusSchema,
  minimumBid: dollarsSchema,
  /** The current end: sent with every bid_placed (a bid may extend the auction). */
  endsAt: z.string().optional(),
});

/**
 * Every message about an auction carries the auction as GET /api/public/listings/{id}/auction
 * answers it, with its version: a client keeps whichever summary it has seen with the higher
 * version and needs no rules of its own to merge them.
 */
const auction = auctionSchema;

export const serverMessageSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('subscribed'), auctionId }),
  z.strictObject({ type: z.literal('unsubscribed'), auctionId }),
  z.strictObject({ type: z.literal('error'), message: z.string() }),
  /** The socket now carries the user's notices, until the access token expires or the account's sessions end. */
  z.strictObject({ type: z.literal('authenticated'), userId: z.string(), unreadCount: z.number().int() }),
  /** The socket carries public news only again: asked for, refused (reason), or the token expired. */
  z.strictObject({ type: z.literal('unauthenticated'), reason: z.string() }),
  /** A new notice for the authenticated user, with their unread count after it. */
  z.strictObject({ type: z.literal('notification'), notification: notificationSchema, unreadCount: z.number().int() }),
  /** The unread count changed without a new notice (read on another device). */
  z.strictObject({ type: z.literal('unread_count'), unreadCount: z.number().int() }),
  z.strictObject({
    type: z.literal('bid_placed'),
    auctionId,
    auctionData: auctionDataSchema.extend({ status: z.literal('ACTIVE'), endsAt: z.string() }),
    auction,
    bidData: z.strictObject({
      bidId: z.string(),
      bidderId: z.string(),
      amount: dollarsSchema,
      placedAt: z.string(),
      status: z.literal('ACCEPTED'),
      /** BID: placed by the bidder; AUTO: placed for them by their proxy (maximum) bid. */
      kind: bidKindSchema.extract(['BID', 'AUTO']),
    }),
  }),
  z.strictObject({ type: z.literal('auction_opened'), auctionId, auction }),
  z.strictObject({ type: z.literal('auction_extended'), auctionId, endsAt: z.string(), previousEndsAt: z.string(), auction }),
  z.strictObject({
    type: z.literal('auction_closed'),
    auctionId,
    result: closingResultSchema,
    winnerId: z.string().nullable(),
    finalPrice: dollarsSchema.nullable(),
    closedAt: z.string(),
    auction,
  }),
  z.strictObject({ type: z.literal('auction_cancelled'), auctionId, reason: z.string(), auction }),
  z.strictObject({ type: z.literal('bid_retracted'), auctionId, bidId: z.string(), auctionData: auctionDataSchema, auction }),
]);
export type ServerMessage = z.infer<typeof serverMessageSchema>;
export type LiveAuctionData = z.infer<typeof auctionDataSchema>;

/** The error a client reads when its message is not one of those it may send. */
export const MALFORMED_MESSAGE = 'Expected {"action":"subscribe"|"unsubscribe","auctionId":"..."}, {"action":"authenticate","token":"..."} or {"action":"deauthenticate"}';

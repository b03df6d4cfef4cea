import { z } from 'zod';
import { centsSchema, positiveCentsSchema } from '../shared/money';
import { commandMetadataSchema, eventMetadataSchema, messageSchema } from '../shared/messages';
import { instantSchema } from '../shared/time';
import { autoBidSchema, standingSchema } from './proxy-bidding';
import { auctionRulesSchema } from './rules';

const id = z.string().min(1).max(200);
const reason = z.string().max(2000);

/** An auction as scheduled: the command asks for it and the event records it, rules included. */
const auctionScheduleSchema = z.strictObject({
  auctionId: id,
  listingId: id,
  sellerId: id,
  startsAt: instantSchema,
  endsAt: instantSchema,
  rules: auctionRulesSchema,
});

// ---- Commands -------------------------------------------------------------------------------

export const auctionCommandSchema = z.discriminatedUnion('type', [
  messageSchema(
    'ScheduleAuction',
    auctionScheduleSchema,
    commandMetadataSchema,
  ),
  messageSchema('OpenAuction', z.strictObject({ auctionId: id }), commandMetadataSchema),
  messageSchema(
    'PlaceBid',
    z.strictObject({
      auctionId: id,
      bidId: id,
      amount: positiveCentsSchema,
      /** Proxy bidding: the most the bidder will pay; the engine bids for them up to it. */
      maximum: positiveCentsSchema.nullable(),
    }),
    commandMetadataSchema,
  ),
  messageSchema('BuyNow', z.strictObject({ auctionId: id, bidId: id }), commandMetadataSchema),
  messageSchema('CloseAuction', z.strictObject({ auctionId: id }), commandMetadataSchema),
  messageSchema('CancelAuction', z.strictObject({ auctionId: id, reason }), commandMetadataSchema),
  messageSchema('RetractBid', z.strictObject({ auctionId: id, bidId: id, reason }), commandMetadataSchema),
]);
export type AuctionCommand = z.infer<typeof auctionCommandSchema>;

// ---- Events ---------------------------------------------------------------------------------

export const closingResultSchema = z.enum(['SOLD', 'NO_BIDS', 'RESERVE_NOT_MET']);
export type ClosingResult = z.infer<typeof closingResultSchema>;

export const auctionEventSchema = z.discriminatedUnion('type', [
  messageSchema(
    'AuctionScheduled',
    auctionScheduleSchema,
    eventMetadataSchema,
  ),
  messageSchema('AuctionOpened', z.strictObject({ auctionId: id, openedAt: instantSchema }), eventMetadataSchema),
  messageSchema(
    'BidPlaced',
    z.strictObject({
      auctionId: id,
      bidId: id,
      bidderId: id,
      amount: positiveCentsSchema,
      maximum: positiveCentsSchema.nullable(),
      placedAt: instantSchema,
      /** Bids the proxies placed in answer, in order; each becomes a row of the bid history. */
      autoBids: z.array(autoBidSchema),
      /** The standing once this bid and its automatic answers are applied. */
      standing: standingSchema,
    }),
    eventMetadataSchema,
  ),
  messageSchema(
    'MaximumBidRaised',
    z.strictObject({
      auctionId: id,
      bidId: id,
      bidderId: id,
      /** What the leader offered; kept so that a replay after a retraction judges it as offered. */
      amount: positiveCentsSchema,
      maximum: positiveCentsSchema,
      placedAt: instantSchema,
      autoBids: z.array(autoBidSchema),
      standing: standingSchema,
    }),
    eventMetadataSchema,
  ),
  messageSchema(
    'AuctionExtended',
    z.strictObject({
      auctionId: id,
      previousEndsAt: instantSchema,
      endsAt: instantSchema,
      triggeredByBidId: id,
    }),
    eventMetadataSchema,
  ),
  messageSchema(
    'BidRetracted',
    z.strictObject({
      auctionId: id,
      bidId: id,
      bidderId: id,
      reason,
      /** Recomputed from every submission that still stands. */
      standing: standingSchema,
    }),
    eventMetadataSchema,
  ),
  messageSchema(
    'AuctionClosed',
    z.strictObject({
      auctionId: id,
      closedAt: instantSchema,
      closedBy: z.enum(['TIME', 'BUY_NOW']),
      result: closingResultSchema,
      winnerId: id.nullable(),
      winningBidId: id.nullable(),
      finalPrice: centsSchema.nullable(),
    }),
    eventMetadataSchema,
  ),
  messageSchema(
    'AuctionCancelled',
    z.strictObject({ auctionId: id, reason, cancelledAt: instantSchema }),
    eventMetadataSchema,
  ),
]);
export type AuctionEvent = z.infer<typeof auctionEventSchema>;

const auctionEventTypes: ReadonlySet<string> = new Set(auctionEventSchema.options.map((option) => option.shape.type.value));

/** Whether a message read from the log (where every stream's events mix) is an event of an auction's stream. */
export function isAuctionEvent<E extends { readonly type: string }>(event: E): event is Extract<E, { readonly type: AuctionEvent['type'] }> {
  return auctionEventTypes.has(event.type);
}

/**
 * A refused bid or buy-now attempt. It is not a fact about the auction, so it is kept out of the
 * auction's own stream (where it would contend with accepted bids) and recorded in the auction's
 * rejections stream, so that a bidder or an auditor can later see why an attempt was refused.
 */
export const bidRejectedSchema = messageSchema(
  'BidRejected',
  z.strictObject({
    auctionId: id,
    bidId: id,
    bidderId: id,
    attempt: z.enum(['BID', 'BUY_NOW']),
    amount: centsSchema.nullable(),
    maximum: centsSchema.nullable(),
    attemptedAt: instantSchema,
    code: z.string(),
    message: z.string(),
    /** The price the attempt was judged against; null when the auction does not exist. */
    priceAtAttempt: centsSchema.nullable(),
  }),
  eventMetadataSchema,
);
export type BidRejected = z.infer<typeof bidRejectedSchema>;

export type AuctionCommandOf<T extends AuctionCommand['type']> = Extract<AuctionCommand, { type: T }>;
export type AuctionEventOf<T extends AuctionEvent['type']> = Extract<AuctionEvent, { type: T }>;

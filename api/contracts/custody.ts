import { z } from 'zod';
import { listingStatusSchema } from '../../engine/domain/listing/listing';

export const custodyEventSchema = z
  .enum([
    // In story order: entries of one atomic append (a publication with its auction) are told in this order.
    'TAG_PROVISIONED',
    'TAG_BOUND',
    'LISTING_PUBLISHED',
    'AUCTION_SCHEDULED',
    'AUCTION_OPENED',
    'AUCTION_EXTENDED',
    'AUCTION_CLOSED',
    'LISTING_WITHDRAWN',
    'AUCTION_CANCELLED',
    'LISTING_SOLD',
    'LISTING_UNSOLD',
    'SALE_CANCELLED',
    'SOLD_TO_RUNNER_UP',
    'ORDER_PAID',
    'ORDER_SHIPPED',
    'ORDER_DELIVERED',
    'SALE_COMPLETED',
    'LISTING_RELISTED',
    'TAG_UNBOUND',
  ])
  .describe(
    'TAG_PROVISIONED, TAG_BOUND, TAG_UNBOUND, LISTING_PUBLISHED, AUCTION_SCHEDULED, AUCTION_OPENED, AUCTION_EXTENDED, ' +
      'AUCTION_CLOSED, AUCTION_CANCELLED, LISTING_SOLD, LISTING_UNSOLD, LISTING_WITHDRAWN; after a sale SALE_CANCELLED, ' +
      'SOLD_TO_RUNNER_UP, ORDER_PAID, ORDER_SHIPPED, ORDER_DELIVERED, SALE_COMPLETED, LISTING_RELISTED',
  );
export type CustodyEvent = z.infer<typeof custodyEventSchema>;

export const custodyDetailsSchema = z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()]));
export type CustodyDetails = z.infer<typeof custodyDetailsSchema>;

export const custodyEntrySchema = z.object({
  event: custodyEventSchema,
  at: z.string().describe('When it happened'),
  eventId: z.string().describe('The id of the event in the log: anyone with access to the log can check it'),
  stream: z.string().describe('The stream holding the event (nfc_tag-{uid}, listing-{id}, auction-{id})'),
  revision: z.number().describe("The event's revision in its stream"),
  summary: z.string().describe('One sentence for people'),
  details: custodyDetailsSchema.describe("Facts of the event; amounts in dollars. The buyer, signed in, also sees yourOrderId and their tracking number on their own order's steps"),
});
export type CustodyEntry = z.infer<typeof custodyEntrySchema>;

/** An item's chain of custody, read from the event log: what anyone scanning its tag may check. */
export const chainOfCustodySchema = z.object({
  uid: z.string(),
  status: z.enum(['AVAILABLE', 'BOUND']),
  listing: z
    .object({ id: z.string(), slug: z.string(), title: z.string(), status: listingStatusSchema })
    .nullable()
    .describe('The listing the tag is on now'),
  history: z.array(custodyEntrySchema).describe('In the order the log recorded it'),
});
export type ChainOfCustody = z.infer<typeof chainOfCustodySchema>;

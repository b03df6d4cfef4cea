import { z } from 'zod';
import { decideAuction, type AuctionState } from './auction/auction';
import type { AuctionEvent } from './auction/messages';
import { auctionRulesSchema } from './auction/rules';
import { decideListing, type ListingEvent, type ListingState } from './listing/listing';
import { commandMetadataSchema, messageSchema } from './shared/messages';
import { instantSchema } from './shared/time';

const id = z.string().min(1).max(200);

/**
 * Putting a listing up for sale, or taking it off, changes two aggregates: the listing (LIVE, or
 * WITHDRAWN) and its auction (scheduled with its rules, or cancelled). Each decider keeps its own
 * rules; this decision runs both, and the caller appends both outcomes in one atomic multi-stream
 * append, so there is never a live listing without its auction, nor an auction for a listing that
 * was refused publication.
 */
export const listingPublicationCommandSchema = z.discriminatedUnion('type', [
  messageSchema(
    'PublishListingAtAuction',
    z.strictObject({ listingId: id, auctionId: id, startsAt: instantSchema, endsAt: instantSchema, rules: auctionRulesSchema }),
    commandMetadataSchema,
  ),
  messageSchema('WithdrawListingFromSale', z.strictObject({ listingId: id, reason: z.string().max(2000) }), commandMetadataSchema),
]);
export type ListingPublicationCommand = z.infer<typeof listingPublicationCommandSchema>;

export interface ListingPublicationDecision {
  readonly listingEvents: ListingEvent[];
  readonly auctionEvents: AuctionEvent[];
}

export function decideListingPublication(
  command: ListingPublicationCommand,
  listing: ListingState,
  auction: AuctionState,
): ListingPublicationDecision {
  const { metadata } = command;
  if (command.type === 'PublishListingAtAuction') {
    const { listingId, auctionId, startsAt, endsAt, rules } = command.data;
    // The listing speaks first: "Listing must be created before publishing" and "NFC tag must be
    // bound before publishing" come before any complaint about the auction's rules.
    const listingEvents = decideListing({ type: 'PublishListing', data: { listingId, auctionId }, metadata }, listing);
    // (decideListing has refused a listing that does not exist; this only tells the compiler.)
    if (listing.status === 'NONE') return { listingEvents, auctionEvents: [] };
    const auctionEvents = decideAuction(
      { type: 'ScheduleAuction', data: { auctionId, listingId, sellerId: listing.ownerId, startsAt, endsAt, rules }, metadata },
      auction,
    );
    return { listingEvents, auctionEvents };
  }
  const { listingId, reason } = command.data;
  const listingEvents = decideListing({ type: 'WithdrawListing', data: { listingId, reason }, metadata }, listing);
  const auctionId = listing.status === 'LIVE' ? listing.auctionId : null;
  // A live listing takes its auction with it; bids already placed stay on record in the cancelled auction.
  const auctionEvents = auctionId === null ? [] : decideAuction({ type: 'CancelAuction', data: { auctionId, reason }, metadata }, auction);
  return { listingEvents, auctionEvents };
}

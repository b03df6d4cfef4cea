import { decideListing, type ListingEvent, type ListingState } from '../listing/listing';
import type { OrderCommandOf, OrderEvent } from './messages';
import { decideOrder, type OrderState } from './order';

/**
 * Relisting an item whose sale fell through changes two aggregates: the cancelled order records
 * that its item went back on sale (no runner-up can be offered it any more), and the listing returns
 * to NFC_BOUND, tag still bound, to be published at a new auction. Both deciders decide; the caller
 * appends both outcomes atomically.
 */
export function decideListingRelease(
  command: OrderCommandOf<'ReleaseListing'>,
  order: OrderState,
  listing: ListingState,
): { orderEvents: OrderEvent[]; listingEvents: ListingEvent[] } {
  const orderEvents = decideOrder(command, order);
  // (decideOrder has refused an order that does not exist; this only tells the compiler.)
  if (order.status === 'NONE') return { orderEvents, listingEvents: [] };
  const { listingId, auctionId } = order.facts;
  const listingEvents = decideListing({ type: 'RelistListing', data: { listingId, auctionId }, metadata: command.metadata }, listing);
  return { orderEvents, listingEvents };
}

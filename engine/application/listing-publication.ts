import { auctionDecider, auctionStreamId } from '../domain/auction/auction';
import type { AuctionEvent } from '../domain/auction/messages';
import { evolveListing, initialListingState, listingStreamId, type ListingEvent } from '../domain/listing/listing';
import { decideListingPublication, type ListingPublicationCommand } from '../domain/publication';
import { appendDecision, loadStream, type CommandHandler } from './command-handler';

const listingFold = { initialState: initialListingState, evolve: evolveListing };

export interface ListingPublicationOutcome {
  readonly listingEvents: readonly ListingEvent[];
  readonly auctionEvents: readonly AuctionEvent[];
  /** The auction published or withdrawn with the listing; null when a withdrawn listing had none. */
  readonly auctionId: string | null;
}

/**
 * Publishes a listing with its auction, or withdraws it and cancels its auction: both streams are
 * read, both deciders decide, and both outcomes are appended atomically with both expected
 * revisions. A repeated command (same commandId) writes the same event ids, so it is a no-op.
 */
export async function handleListingPublication(handler: CommandHandler, command: ListingPublicationCommand): Promise<ListingPublicationOutcome> {
  const { store } = handler;
  const listingStream = listingStreamId(command.data.listingId);
  const namedAuction = command.type === 'PublishListingAtAuction' ? command.data.auctionId : null;
  const lockKeys = namedAuction === null ? [listingStream] : [listingStream, auctionStreamId(namedAuction)];
  return handler.exclusive(lockKeys, async () => {
    const listing = await loadStream(store, listingFold, listingStream);
    const auctionId = namedAuction ?? (listing.state.status === 'LIVE' ? listing.state.auctionId : null);
    const auction = auctionId === null ? null : await loadStream(store, auctionDecider, auctionStreamId(auctionId));
    const decision = decideListingPublication(command, listing.state, auction?.state ?? auctionDecider.initialState);
    await appendDecision(store, command, [{ stream: listing, events: decision.listingEvents }, auction && { stream: auction, events: decision.auctionEvents }]);
    return { ...decision, auctionId };
  });
}

import { listingDecider, listingStreamId, type ListingCommand, type ListingEvent, type ListingState } from '../domain/listing/listing';
import type { CommandHandler, HandledCommand } from './command-handler';

/** Handles a command on one listing's stream (those that span streams have handlers of their own). */
export function handleListingCommand(handler: CommandHandler, command: ListingCommand): Promise<HandledCommand<ListingEvent, ListingState>> {
  return handler.handle(listingDecider, listingStreamId(command.data.listingId), command);
}

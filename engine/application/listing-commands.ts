import { fold } from '../domain/shared/decider';
import { listingDecider, listingStreamId, type ListingCommand, type ListingEvent, type ListingState } from '../domain/listing/listing';
import { appendDecision, loadStream, type CommandHandler, type HandledCommand } from './command-handler';

/** Handles a command on one listing's stream (those that span streams have handlers of their own). */
export function handleListingCommand(handler: CommandHandler, command: ListingCommand): Promise<HandledCommand<ListingEvent, ListingState>> {
  return handler.handle(listingDecider, listingStreamId(command.data.listingId), command);
}

/**
 * Several commands on one listing (e.g. revise its details and rearrange its media, from one form),
 * decided in order and appended together: all of them happen, or, when the decider refuses any,
 * none. They share the first command's metadata for their event ids.
 */
export async function handleListingCommands(handler: CommandHandler, commands: readonly [ListingCommand, ...ListingCommand[]]): Promise<ListingState> {
  const [first] = commands;
  const streamId = listingStreamId(first.data.listingId);
  if (commands.some((command) => listingStreamId(command.data.listingId) !== streamId)) throw new Error('handleListingCommands: one listing only');
  return handler.exclusive([streamId], async () => {
    const loaded = await loadStream(handler.store, listingDecider, streamId);
    let state = loaded.state;
    const events: ListingEvent[] = [];
    for (const command of commands) {
      const decided = listingDecider.decide(command, state);
      state = fold({ initialState: state, evolve: listingDecider.evolve }, decided);
      events.push(...decided);
    }
    await appendDecision(handler.store, first, [{ stream: loaded, events }]);
    return state;
  });
}

import { decideTagBinding, type TagBindingCommand } from '../domain/binding';
import { evolveListing, initialListingState, listingStreamId, type ListingEvent } from '../domain/listing/listing';
import { normalizeNfcUid } from '../domain/nfc-tag/identifiers';
import { evolveNfcTag, initialNfcTagState, nfcTagStreamId, type NfcTagEvent } from '../domain/nfc-tag/nfc-tag';
import { appendDecision, loadStream, type CommandHandler } from './command-handler';

const listingFold = { initialState: initialListingState, evolve: evolveListing };
const tagFold = { initialState: initialNfcTagState, evolve: evolveNfcTag };

export interface TagBindingOutcome {
  readonly listingEvents: readonly ListingEvent[];
  readonly tagEvents: readonly NfcTagEvent[];
}

/**
 * Binds or unbinds a tag: both streams are read, both deciders decide, and both outcomes are
 * appended atomically with both expected revisions. Of two admins binding one tag (or one listing)
 * at the same moment, one succeeds; the other re-reads and gets the decider's refusal.
 */
export async function handleTagBinding(handler: CommandHandler, command: TagBindingCommand): Promise<TagBindingOutcome> {
  const { store } = handler;
  const listingStream = listingStreamId(command.data.listingId);
  // The tag to lock: the one named, or for an unbind the one the listing holds (found below).
  const namedUid = command.type === 'BindTagToListing' ? normalizeNfcUid(command.data.uid) : null;
  const lockKeys = namedUid === null ? [listingStream] : [listingStream, nfcTagStreamId(namedUid)];
  return handler.exclusive(lockKeys, async () => {
    const listing = await loadStream(store, listingFold, listingStream);
    const uid = namedUid ?? (listing.state.status !== 'NONE' ? listing.state.nfcUid : null);
    const tag = uid === null ? null : await loadStream(store, tagFold, nfcTagStreamId(uid));
    const decision = decideTagBinding(command, listing.state, tag?.state ?? initialNfcTagState);
    await appendDecision(store, command, [{ stream: listing, events: decision.listingEvents }, tag && { stream: tag, events: decision.tagEvents }]);
    return decision;
  });
}

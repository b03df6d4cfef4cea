import { z } from 'zod';
import { commandMetadataSchema, messageSchema, type CommandMetadata } from './shared/messages';
import { decideListing, type ListingEvent, type ListingState } from './listing/listing';
import { decideNfcTag, type NfcTagEvent, type NfcTagState } from './nfc-tag/nfc-tag';

/**
 * Binding a tag to a listing changes two aggregates: the tag (bound to at most one listing) and the
 * listing (at most one tag). Each decider keeps its own rule; this decision runs both, and the
 * caller appends both outcomes in one atomic multi-stream append with both expected revisions, so
 * two admins binding at the same moment cannot both succeed.
 */
export const tagBindingCommandSchema = z.discriminatedUnion('type', [
  messageSchema('BindTagToListing', z.strictObject({ listingId: z.string().min(1), uid: z.string().max(64) }), commandMetadataSchema),
  messageSchema(
    'UnbindTagFromListing',
    z.strictObject({ listingId: z.string().min(1), reason: z.string().max(2000) }),
    commandMetadataSchema,
  ),
]);
export type TagBindingCommand = z.infer<typeof tagBindingCommandSchema>;

export interface TagBindingDecision {
  readonly listingEvents: ListingEvent[];
  readonly tagEvents: NfcTagEvent[];
}

export function decideTagBinding(
  command: TagBindingCommand,
  listing: ListingState,
  tag: NfcTagState,
): TagBindingDecision {
  const metadata: CommandMetadata = command.metadata;
  if (command.type === 'BindTagToListing') {
    const { listingId, uid } = command.data;
    // The listing speaks first: "Listing must be saved before binding NFC tag" comes before any tag check.
    const listingEvents = decideListing({ type: 'BindListingTag', data: { listingId, uid }, metadata }, listing);
    const tagEvents = decideNfcTag({ type: 'BindNfcTag', data: { uid, listingId }, metadata }, tag);
    return { listingEvents, tagEvents };
  }
  const { listingId, reason } = command.data;
  const listingEvents = decideListing({ type: 'UnbindListingTag', data: { listingId, reason }, metadata }, listing);
  const unbound = listingEvents.find((event) => event.type === 'ListingTagUnbound');
  const tagEvents = unbound ? decideNfcTag({ type: 'UnbindNfcTag', data: { uid: unbound.data.uid, reason }, metadata }, tag) : [];
  return { listingEvents, tagEvents };
}

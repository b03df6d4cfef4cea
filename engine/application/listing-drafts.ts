import { decideTagBinding } from '../domain/binding';
import { decideListing, evolveListing, initialListingState, listingStreamId, type ListingCommand, type ListingEvent } from '../domain/listing/listing';
import { evolveNfcTag, initialNfcTagState, nfcTagStreamId } from '../domain/nfc-tag/nfc-tag';
import { fold } from '../domain/shared/decider';
import { decideSlugClaim, listingSlugStreamId, MAX_SLUG_LENGTH } from '../domain/listing/slug-claim';
import { rejected } from '../domain/shared/errors';
import { appendDecision, loadStream, type CommandHandler, type StreamDecision } from './command-handler';

type DraftListing = Extract<ListingCommand, { type: 'DraftListing' }>;

const listingFold = { initialState: initialListingState, evolve: evolveListing };
const tagFold = { initialState: initialNfcTagState, evolve: evolveNfcTag };
/** tom-brady-12, then tom-brady-12-2 ... -9, then the listing id's first characters, which are its own. */
const NUMBERED_ATTEMPTS = 8;

export interface DraftedListing {
  readonly events: readonly ListingEvent[];
  /** The slug the listing got: the one asked for, or that slug made unique. */
  readonly slug: string;
}

/**
 * Drafts a listing under a slug no other listing has: the listing's first events and the slug's
 * claim go in one atomic append. A slug taken already gets "-2", "-3"..., then a piece of the
 * listing's id; the listing keeps a readable address either way.
 *
 * `bindTag`: a saved draft can take its NFC tag in the same append (the jersey form's nfcUid), so
 * a refused binding leaves no listing behind.
 */
export async function handleListingDraft(handler: CommandHandler, command: DraftListing, options: { bindTag?: string } = {}): Promise<DraftedListing> {
  const { store } = handler;
  const { listingId } = command.data;
  const listingStream = listingStreamId(listingId);
  const tagStream = options.bindTag === undefined ? null : nfcTagStreamId(options.bindTag);
  for (const slug of slugCandidates(command.data.slug, listingId)) {
    const slugStream = listingSlugStreamId(slug);
    const drafted = await handler.exclusive([listingStream, slugStream, ...(tagStream ? [tagStream] : [])], async () => {
      const listing = await loadStream(store, listingFold, listingStream);
      const slugHolder = await store.readStream(slugStream);
      const claimedBy = slugHolder.length > 0 ? String((slugHolder[0]!.data as { listingId: string }).listingId) : null;
      if (claimedBy !== null && claimedBy !== listingId) return null;
      const claim = decideSlugClaim(slug, listingId, claimedBy, command.metadata);
      const events = decideListing({ ...command, data: { ...command.data, slug } }, listing.state);
      let tagBinding: StreamDecision | null = null;
      if (tagStream !== null) {
        const tag = await loadStream(store, tagFold, tagStream);
        const binding = decideTagBinding(
          { type: 'BindTagToListing', data: { listingId, uid: options.bindTag! }, metadata: command.metadata },
          fold({ initialState: listing.state, evolve: evolveListing }, events),
          tag.state,
        );
        events.push(...binding.listingEvents);
        tagBinding = { stream: tag, events: binding.tagEvents };
      }
      const slugClaim = { stream: { streamId: slugStream, expectedRevision: 'no_stream' as const }, events: claim };
      await appendDecision(store, command, [{ stream: listing, events }, slugClaim, tagBinding]);
      return { events, slug };
    });
    if (drafted) return drafted;
  }
  throw rejected('SLUG_TAKEN', `No free address could be found for "${command.data.slug}"`);
}

function* slugCandidates(slug: string, listingId: string): Generator<string> {
  yield slug;
  const stem = (suffixLength: number) => slug.slice(0, MAX_SLUG_LENGTH - suffixLength).replace(/-+$/, '');
  for (let n = 2; n < 2 + NUMBERED_ATTEMPTS; n++) yield `${stem(String(n).length + 1)}-${n}`;
  const own = listingId.toLowerCase().replace(/[^a-z0-9]/g, '').slice(0, 12);
  yield `${stem(own.length + 1)}-${own}`;
}

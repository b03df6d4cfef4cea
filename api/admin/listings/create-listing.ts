import { randomUUID } from 'node:crypto';
import { handleListingDraft } from '../../../engine/application/listing-drafts';
import { commandMetadata, listingStreamId, nfcTagStreamId, slugify, type Actor, type ListingDetails } from '../../../engine/domain';
import type { AppDependencies } from '../../dependencies';
import { readModelsCaughtUpWith } from '../../read-after-write';
import { requireCompletedMedia } from './media-ids';

export interface NewListing {
  readonly details: ListingDetails;
  readonly mediaIds: readonly string[];
  /** The words its address is made of; made unique by the engine if another listing has it. */
  readonly slugParts: readonly string[];
  /** Save at once (needs media), as the form's Save Listing does; false leaves a draft (bulk import). */
  readonly save: boolean;
  /** Bind this tag in the same append; needs `save`. */
  readonly nfcUid?: string | undefined;
}

export interface CreatedListing {
  readonly listingId: string;
  readonly slug: string;
}

/**
 * Creates a listing as events: drafted (and saved, and bound) in one atomic append under a slug no
 * other listing has. The jersey form, the general create call and bulk import all come through here.
 * Returns once the read models show it, unless `awaitReadModels` is false (a bulk import waits once,
 * for its last listing).
 */
export async function createListing(
  deps: Pick<AppDependencies, 'db' | 'commands' | 'eventStore' | 'projections' | 'clock'>,
  actor: Actor,
  listing: NewListing,
  correlationId: string = randomUUID(),
  { awaitReadModels = true }: { awaitReadModels?: boolean } = {},
): Promise<CreatedListing> {
  await requireCompletedMedia(deps.db, listing.mediaIds);
  const listingId = randomUUID();
  const { slug } = await handleListingDraft(
    deps.commands,
    {
      type: 'DraftListing',
      data: { listingId, slug: slugify(...listing.slugParts), details: listing.details, mediaIds: [...listing.mediaIds], save: listing.save },
      metadata: commandMetadata(actor, deps.clock(), { correlationId, commandId: randomUUID() }),
    },
    listing.nfcUid === undefined ? {} : { bindTag: listing.nfcUid },
  );
  if (awaitReadModels) await readModelsCaughtUpWith(deps, listingStreamId(listingId), ...(listing.nfcUid === undefined ? [] : [nfcTagStreamId(listing.nfcUid)]));
  return { listingId, slug };
}

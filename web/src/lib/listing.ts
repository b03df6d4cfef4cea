/** Every feature reads the one listing shape the API declares. */
export type { JerseyDetails, Listing } from '../../../api/contracts/listings';

/**
 * A listing's page: by slug, or by id for one without a slug (a favourite saved before it had
 * one). Both are encoded, so a slug or id can never reach into another route.
 */
export function listingPath(listing: { readonly id: string; readonly slug: string | null }): string {
  return listing.slug ? `/marketplace/${encodeURIComponent(listing.slug)}` : `/marketplace/listing/${encodeURIComponent(listing.id)}`;
}

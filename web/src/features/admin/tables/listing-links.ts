import type { ListingStatus } from '../../../../../api/contracts/listings';
import { listingPath } from '../../../lib/listing';

/** The statuses the marketplace shows a page for: at auction, and its past lots. */
const PUBLIC_STATUSES: readonly ListingStatus[] = ['LIVE', 'SOLD', 'UNSOLD'];

export function hasPublicPage(status: ListingStatus): boolean {
  return PUBLIC_STATUSES.includes(status);
}

/** The Add Item tab, loading this saved listing for editing. */
export function editPath(listingId: string): string {
  return `/admin/dashboard?${new URLSearchParams({ tab: 'add-item', listing: listingId })}`;
}

/** Where "open" leads: the listing's public page once it has one, else the admin's edit view. */
export function openPath(listing: { readonly id: string; readonly slug: string | null; readonly status: ListingStatus }): string {
  return hasPublicPage(listing.status) ? listingPath(listing) : editPath(listing.id);
}

import { nfcTagStatusSchema } from '../../../../../api/contracts/admin/nfc';
import { listingPath } from '../../../lib/listing';
import { hasPublicPage } from '../tables/listing-links';
import { readChoice, readPage, tableParams } from '../tables/table-params';
import type { BoundListing, NfcTag, TagsQuery } from './api';

export const TAG_STATUSES = nfcTagStatusSchema.options;

/** ?status=AVAILABLE|BOUND&search=...&page=n beside ?tab=nfc-tags. */
export function readTagsQuery(params: URLSearchParams): TagsQuery {
  return { status: readChoice(params, 'status', TAG_STATUSES), search: (params.get('search') ?? '').trim(), page: readPage(params) };
}

export function writeTagsQuery(current: URLSearchParams, query: TagsQuery): URLSearchParams {
  return tableParams(current, { status: query.status, search: query.search }, query.page);
}

/**
 * A tag's public chain of custody: on the page of the listing it is on, once that page is public
 * (the page shows the chain); otherwise the public record itself, GET /api/public/nfc/{uid}
 * (the web app has no page of its own for a tag).
 */
export function custodyLink(tag: NfcTag, listing: BoundListing | undefined): { readonly href: string; readonly page: boolean } {
  if (listing && hasPublicPage(listing.status)) return { href: `${listingPath(listing)}#chain-of-custody`, page: true };
  return { href: `/api/public/nfc/${encodeURIComponent(tag.uid)}`, page: false };
}

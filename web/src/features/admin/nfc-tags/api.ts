import type { NfcTag, NfcTagStatus, ProvisionTagRequest } from '../../../../../api/contracts/admin/nfc';
import type { AdminListing } from '../../../../../api/contracts/admin/listings';
import type { Page } from '../../../../../api/contracts/common';
import { apiRequest } from '../../../lib/api-client';

export type { NfcTag, NfcTagStatus };

export const TAGS_PAGE_SIZE = 20;

/** What the NFC Tags tab asks for: a status (null: any), part of a UID or claim code, a page from 0. */
export type TagsQuery = {
  readonly status: NfcTagStatus | null;
  readonly search: string;
  readonly page: number;
};

/** The listing a tag is on, as the table names and links it. */
export type BoundListing = Pick<AdminListing, 'id' | 'slug' | 'title' | 'status'>;

export interface TagPage {
  readonly tags: Page<NfcTag>;
  /** By listing id, the listings the page's bound tags are on (those that could be read). */
  readonly listings: Readonly<Record<string, BoundListing>>;
}

/**
 * A page of the pool, and the listings its bound tags are on: the pool names a listing by id
 * only, so each is read (in parallel) for its title, page and status. One that cannot be read is
 * shown by its id rather than failing the table.
 */
export async function fetchTagPage(query: TagsQuery, signal: AbortSignal): Promise<TagPage> {
  const params = new URLSearchParams({ page: String(query.page), size: String(TAGS_PAGE_SIZE) });
  if (query.status) params.set('status', query.status);
  if (query.search) params.set('search', query.search);
  const tags = await apiRequest<Page<NfcTag>>(`/api/admin/nfc/tags?${params}`, { auth: true, signal });
  const listingIds = [...new Set(tags.content.flatMap((tag) => (tag.listingId ? [tag.listingId] : [])))];
  const read = await Promise.allSettled(
    listingIds.map((id) => apiRequest<AdminListing>(`/api/admin/listings/${encodeURIComponent(id)}`, { auth: true, signal })),
  );
  const listings: Record<string, BoundListing> = {};
  for (const answer of read) {
    if (answer.status === 'fulfilled') {
      const { id, slug, title, status } = answer.value;
      listings[id] = { id, slug, title, status };
    }
  }
  return { tags, listings };
}

export function provisionTag(request: ProvisionTagRequest): Promise<NfcTag> {
  return apiRequest<NfcTag>('/api/admin/nfc/tags/provision', { auth: true, body: request });
}

import type { AdminListing, PublishedListing } from '../../../../../api/contracts/admin/listings';
import type { Page } from '../../../../../api/contracts/common';
import type { ListingStatus } from '../../../../../api/contracts/listings';
import { apiRequest } from '../../../lib/api-client';

export type { AdminListing, ListingStatus, PublishedListing };

export const LISTINGS_PAGE_SIZE = 20;

/** What the Manage table asks for: a status (null: every status), a search, a sort ("field,direction"), a page from 0. */
export type ListingsQuery = {
  readonly status: ListingStatus | null;
  readonly search: string;
  readonly sort: string;
  readonly page: number;
};

export function fetchListingPage(query: ListingsQuery, signal: AbortSignal): Promise<Page<AdminListing>> {
  const params = new URLSearchParams({ page: String(query.page), size: String(LISTINGS_PAGE_SIZE), sort: query.sort });
  if (query.status) params.set('status', query.status);
  if (query.search) params.set('search', query.search);
  return apiRequest<Page<AdminListing>>(`/api/admin/listings?${params}`, { auth: true, signal });
}

/** Publish to LIVE with the default rule set (an empty rule set: every default). */
export function publishListing(listingId: string): Promise<PublishedListing> {
  return apiRequest<PublishedListing>(`/api/admin/listings/${encodeURIComponent(listingId)}/publish`, { auth: true, body: {} });
}

export function withdrawListing(listingId: string, reason: string): Promise<AdminListing> {
  return apiRequest<AdminListing>(`/api/admin/listings/${encodeURIComponent(listingId)}/status`, {
    method: 'PUT',
    auth: true,
    body: { status: 'WITHDRAWN', reason },
  });
}

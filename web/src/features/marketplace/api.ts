import { apiRequest } from '../../lib/api-client';

export type { Listing } from '../../lib/listing';
import type { Listing } from '../../lib/listing';
import type { Page } from '../../../../api/contracts/common';
import type { ListingCategory, ListingTag } from '../../../../api/contracts/listings';

export type ListingPage = Page<Listing>;

/** What the API is asked for, already mapped from the page's chip and sort (see marketplace-query.ts). */
export interface ListingsRequest {
  readonly search: string;
  readonly category: ListingCategory | null;
  readonly tag: ListingTag | null;
  /** "{field},{direction}" */
  readonly sort: string;
}

/** The marketplace pages by 20. */
export const PAGE_SIZE = 20;

export function fetchListings(request: ListingsRequest, page: number, signal?: AbortSignal): Promise<ListingPage> {
  const params = new URLSearchParams({ page: String(page), size: String(PAGE_SIZE), sort: request.sort });
  if (request.search) params.set('search', request.search);
  if (request.category) params.set('category', request.category);
  if (request.tag) params.set('tag', request.tag);
  return apiRequest<ListingPage>(`/api/public/listings?${params}`, signal ? { signal } : {});
}

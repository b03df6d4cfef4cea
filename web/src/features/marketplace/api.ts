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

/**
 * The first page asked for ahead of the page itself (prefetchFirstPage), and the answer once it
 * has arrived. The next fetch takes it if it asks for the same page, and drops it otherwise: an
 * answer is never served twice or late.
 */
let prefetched: { readonly path: string; readonly answer: Promise<ListingPage>; arrived: ListingPage | null } | null = null;

export function fetchListings(request: ListingsRequest, page: number, signal?: AbortSignal): Promise<ListingPage> {
  const path = listingsPath(request, page);
  const ahead = prefetched;
  prefetched = null;
  if (ahead?.path === path) return ahead.answer;
  return apiRequest<ListingPage>(path, signal ? { signal } : {});
}

/** Asks for a visit's first page ahead of the page (prefetch.ts), for its first fetch to take. */
export function prefetchFirstPage(request: ListingsRequest): Promise<ListingPage> {
  const path = listingsPath(request, 0);
  const answer = apiRequest<ListingPage>(path);
  const entry: NonNullable<typeof prefetched> = { path, answer, arrived: null };
  answer.then(
    (page) => (entry.arrived = page),
    // A failure is reported by the page's fetch that takes it, not as an unhandled rejection here.
    () => undefined,
  );
  prefetched = entry;
  return answer;
}

/** Takes the prefetched first page for this request if it has arrived: the page opens with it, without a skeleton. */
export function takeArrivedFirstPage(request: ListingsRequest): ListingPage | null {
  const arrived = prefetched?.path === listingsPath(request, 0) ? prefetched.arrived : null;
  if (arrived) prefetched = null;
  return arrived;
}

function listingsPath(request: ListingsRequest, page: number): string {
  const params = new URLSearchParams({ page: String(page), size: String(PAGE_SIZE), sort: request.sort });
  if (request.search) params.set('search', request.search);
  if (request.category) params.set('category', request.category);
  if (request.tag) params.set('tag', request.tag);
  return `/api/public/listings?${params}`;
}

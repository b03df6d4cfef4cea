import { assign, fromPromise, setup } from 'xstate';
import { ApiError, errorMessage } from '../../lib/api-client';
import { fetchListings, type Listing, type ListingPage, type ListingsRequest } from './api';
import { sameRequest } from './marketplace-query';

export interface MarketplaceContext {
  readonly request: ListingsRequest;
  readonly items: readonly Listing[];
  readonly total: number;
  /** The last page loaded, from 0. */
  readonly page: number;
  readonly last: boolean;
  readonly error: string | null;
}

export type MarketplaceEvent =
  | { readonly type: 'REQUEST_CHANGED'; readonly request: ListingsRequest }
  | { readonly type: 'LOAD_MORE' }
  | { readonly type: 'RETRY' };

/** "Failed to fetch listings: {the server's reason}"; the browser's own words for a lost connection say nothing, so "Network error". */
const failure = (error: unknown) =>
  `Failed to fetch listings: ${error instanceof ApiError && error.code === 'NETWORK' ? 'Network error' : errorMessage(error, 'Network error')}`;

/**
 * The marketplace's results: a new search, chip or sort replaces them from page 0; Load More
 * appends the next page. A request in flight is stopped when a newer one starts (its fetch
 * aborted, its answer ignored), so a stale answer never lands.
 */
export const marketplaceMachine = setup({
  types: {
    context: {} as MarketplaceContext,
    events: {} as MarketplaceEvent,
    /** firstPage: the request's page 0 when it has arrived already (prefetched): shown at once. */
    input: {} as { request: ListingsRequest; firstPage?: ListingPage | null },
  },
  actors: {
    fetchPage: fromPromise<ListingPage, { request: ListingsRequest; page: number }>(({ input, signal }) =>
      fetchListings(input.request, input.page, signal),
    ),
  },
  guards: {
    isNewRequest: ({ context, event }) => event.type === 'REQUEST_CHANGED' && !sameRequest(context.request, event.request),
    hasMore: ({ context }) => !context.last,
    hasResults: ({ context }) => context.items.length > 0,
  },
}).createMachine({
  id: 'marketplace',
  context: ({ input }) =>
    input.firstPage
      ? { request: input.request, items: input.firstPage.content, total: input.firstPage.totalElements, page: 0, last: input.firstPage.last, error: null }
      : { request: input.request, items: [], total: 0, page: 0, last: true, error: null },
  initial: 'opening',
  on: {
    REQUEST_CHANGED: {
      guard: 'isNewRequest',
      // Re-entering stops the invoked fetch of the previous request.
      target: '.loading',
      reenter: true,
      actions: assign(({ event }) => ({ request: event.request, items: [], total: 0, page: 0, last: true, error: null })),
    },
  },
  states: {
    /**
     * Opened with results (a first page at hand), they show at once; else they are fetched.
     */
    opening: {
      always: [{ guard: 'hasResults', target: 'ready' }, { target: 'loading' }],
    },
    loading: {
      invoke: {
        src: 'fetchPage',
        input: ({ context }) => ({ request: context.request, page: 0 }),
        onDone: {
          target: 'ready',
          actions: assign(({ event }) => ({ items: event.output.content, total: event.output.totalElements, page: 0, last: event.output.last, error: null })),
        },
        onError: { target: 'failed', actions: assign({ error: ({ event }) => failure(event.error) }) },
      },
    },
    ready: {
      on: { LOAD_MORE: { guard: 'hasMore', target: 'loadingMore' } },
    },
    loadingMore: {
      invoke: {
        src: 'fetchPage',
        input: ({ context }) => ({ request: context.request, page: context.page + 1 }),
        onDone: {
          target: 'ready',
          actions: assign(({ context, event }) => {
            // A listing published meanwhile shifts the pages by one: never show a card twice.
            const shown = new Set(context.items.map((item) => item.id));
            return {
              items: [...context.items, ...event.output.content.filter((item) => !shown.has(item.id))],
              total: event.output.totalElements,
              page: event.output.number,
              last: event.output.last,
              error: null,
            };
          }),
        },
        onError: { target: 'moreFailed', actions: assign({ error: ({ event }) => failure(event.error) }) },
      },
    },
    /** Nothing to show: the page offers Try Again. */
    failed: {
      on: { RETRY: { target: 'loading', actions: assign({ error: null }) } },
    },
    /** The results so far stay; Try Again asks for the same next page. */
    moreFailed: {
      on: {
        RETRY: { target: 'loadingMore', actions: assign({ error: null }) },
        LOAD_MORE: { target: 'loadingMore', actions: assign({ error: null }) },
      },
    },
  },
});

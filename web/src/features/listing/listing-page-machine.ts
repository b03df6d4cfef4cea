import { assign, fromPromise, setup } from 'xstate';
import { ApiError } from '../../lib/api-client';
import type { Auction, Listing } from './api';

export interface LoadedListing {
  readonly listing: Listing;
  /** null: the item has no auction ("No auction available for this item"). */
  readonly auction: Auction | null;
}

export interface ListingPageContext {
  readonly slugOrId: string;
  readonly loaded: LoadedListing | null;
  readonly error: string | null;
}

/**
 * The detail page's data: the listing and its auction, read once; a 404 is
 * "Listing Not Found", any other failure "Error Loading Listing" with Try Again. No fallback data.
 */
export const listingPageMachine = setup({
  types: {
    context: {} as ListingPageContext,
    events: {} as { type: 'RETRY' },
    input: {} as { slugOrId: string },
  },
  actors: {
    load: fromPromise<LoadedListing, { slugOrId: string }>(async () => {
      throw new Error('load not provided');
    }),
  },
}).createMachine({
  id: 'listingPage',
  initial: 'loading',
  context: ({ input }) => ({ slugOrId: input.slugOrId, loaded: null, error: null }),
  states: {
    loading: {
      invoke: {
        src: 'load',
        input: ({ context }) => ({ slugOrId: context.slugOrId }),
        onDone: { target: 'loaded', actions: assign({ loaded: ({ event }) => event.output, error: null }) },
        onError: [
          { guard: ({ event }) => event.error instanceof ApiError && event.error.status === 404, target: 'notFound' },
          {
            target: 'failed',
            actions: assign({ error: ({ event }) => (event.error instanceof Error && event.error.message ? event.error.message : 'Failed to fetch listing') }),
          },
        ],
      },
    },
    loaded: {},
    notFound: {},
    failed: { on: { RETRY: 'loading' } },
  },
});

import { assign, fromPromise, setup } from 'xstate';
import { unlessAborted } from '../../lib/api-client';
import { fetchMyBids, type UserBid } from './api';

/** The dashboard's one call: loading, then the bids or an error with Try Again. */
export const myBidsMachine = setup({
  types: {
    context: {} as { bids: readonly UserBid[]; error: string | null },
    events: {} as { type: 'RETRY' },
  },
  actors: {
    loadBids: fromPromise<UserBid[]>(({ signal }) => unlessAborted(signal, fetchMyBids)),
  },
}).createMachine({
  id: 'myBids',
  initial: 'loading',
  context: { bids: [], error: null },
  states: {
    loading: {
      invoke: {
        src: 'loadBids',
        onDone: { target: 'loaded', actions: assign({ bids: ({ event }) => event.output, error: null }) },
        onError: { target: 'failed', actions: assign({ error: ({ event }) => (event.error instanceof Error ? event.error.message : 'Failed to load your bids') }) },
      },
    },
    loaded: {},
    failed: { on: { RETRY: 'loading' } },
  },
});

import { assign, fromPromise, setup } from 'xstate';
import { errorMessage, unlessAborted } from '../../lib/api-client';
import { acceptOffer, declineOffer, fetchOffer, type Order, type SecondChanceView } from './api';
import { isMissing } from './order-machine';

export interface SecondChanceContext {
  readonly offerId: string;
  readonly offer: SecondChanceView | null;
  readonly loadError: string | null;
  /** No such offer for this user (404, or made to someone else: 403). */
  readonly missing: boolean;
  /** Why Accept or Decline was refused: the server's words. */
  readonly error: string | null;
  /** What was just done, for the live region. */
  readonly notice: string | null;
}

export type SecondChanceEvent = { type: 'RETRY' } | { type: 'ACCEPT' } | { type: 'DECLINE' } | { type: 'DISMISS' };

/**
 * The runner-up's offer: loaded, then Accept (the new order's page opens: `openOrder`) or Decline.
 * A refusal (expired, answered elsewhere) reads the offer again, so the page says where it stands.
 */
export const secondChanceMachine = setup({
  types: {
    context: {} as SecondChanceContext,
    events: {} as SecondChanceEvent,
    input: {} as { offerId: string },
  },
  actors: {
    loadOffer: fromPromise<SecondChanceView, { offerId: string }>(({ input, signal }) => unlessAborted(signal, (aborted) => fetchOffer(input.offerId, aborted))),
    accept: fromPromise<Order, { offerId: string }>(({ input }) => acceptOffer(input.offerId)),
    decline: fromPromise<SecondChanceView, { offerId: string }>(({ input }) => declineOffer(input.offerId)),
  },
  actions: {
    openOrder: (_, _params: { orderId: string }) => {},
  },
}).createMachine({
  id: 'secondChance',
  initial: 'loading',
  context: ({ input }) => ({ offerId: input.offerId, offer: null, loadError: null, missing: false, error: null, notice: null }),
  states: {
    loading: {
      invoke: {
        src: 'loadOffer',
        input: ({ context }) => ({ offerId: context.offerId }),
        onDone: { target: 'ready', actions: assign({ offer: ({ event }) => event.output, loadError: null }) },
        onError: {
          target: 'failed',
          actions: assign({ loadError: ({ event }) => errorMessage(event.error, 'Failed to load this offer'), missing: ({ event }) => isMissing(event.error) }),
        },
      },
    },
    failed: { on: { RETRY: 'loading' } },
    ready: {
      on: { DISMISS: { actions: assign({ error: null, notice: null }) } },
      initial: 'idle',
      states: {
        idle: {
          on: {
            ACCEPT: { target: 'accepting', actions: assign({ error: null, notice: null }) },
            DECLINE: { target: 'declining', actions: assign({ error: null, notice: null }) },
          },
        },
        accepting: {
          invoke: {
            src: 'accept',
            input: ({ context }) => ({ offerId: context.offerId }),
            onDone: { target: 'accepted', actions: { type: 'openOrder', params: ({ event }) => ({ orderId: event.output.id }) } },
            onError: { target: 'refreshing', actions: assign({ error: ({ event }) => `Not accepted: ${errorMessage(event.error, 'Network error')}` }) },
          },
        },
        declining: {
          invoke: {
            src: 'decline',
            input: ({ context }) => ({ offerId: context.offerId }),
            onDone: { target: 'idle', actions: assign({ offer: ({ event }) => event.output, notice: 'You declined the offer. Thank you for letting us know.' }) },
            onError: { target: 'refreshing', actions: assign({ error: ({ event }) => `Not declined: ${errorMessage(event.error, 'Network error')}` }) },
          },
        },
        refreshing: {
          invoke: {
            src: 'loadOffer',
            input: ({ context }) => ({ offerId: context.offerId }),
            onDone: { target: 'idle', actions: assign({ offer: ({ event }) => event.output }) },
            onError: { target: 'idle' },
          },
        },
        // The new order's page opens; nothing more happens here.
        accepted: {},
      },
    },
  },
});

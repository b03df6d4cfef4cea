import { assign, emit, fromPromise, setup } from 'xstate';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { createPagedTableMachine } from '../../../lib/paged-table-machine';
import { fetchListingPage, publishListing, withdrawListing, type AdminListing, type PublishedListing } from './api';
import { canPublish, canWithdraw } from './row-actions';

/** Every listing, any status: a page per filter, search, sort and page number. */
export const listingsTableMachine = createPagedTableMachine({ id: 'manageListings', what: 'listings', fetchPage: fetchListingPage });

export interface ListingActionContext {
  /** The listing being published or withdrawn. */
  readonly listing: AdminListing | null;
  readonly reason: string;
  /** What the last action came to, shown above the table. */
  readonly notice: string | null;
  /** Why the action in the open dialog failed: the dialog stays open to try again or cancel. */
  readonly failure: string | null;
}

export type ListingActionEvent =
  | { readonly type: 'PUBLISH'; readonly listing: AdminListing }
  | { readonly type: 'WITHDRAW'; readonly listing: AdminListing }
  | { readonly type: 'CONFIRM' }
  | { readonly type: 'CONFIRM_WITHDRAWAL'; readonly reason: string }
  | { readonly type: 'CANCEL' }
  | { readonly type: 'DISMISS' };

/** The listing changed (or turned out to have changed elsewhere): the table reads it again. */
type ChangedEvent = { readonly type: 'changed' };

/** A 404 or 409 says the table is out of date: someone else published, withdrew or sold it meanwhile. */
const tableIsStale = (error: unknown) => error instanceof ApiError && (error.status === 404 || error.status === 409);

/**
 * A row action, one at a time: publish (confirmed first, with the default rule set) or withdraw
 * (with a reason). While the call runs the dialog's buttons are disabled; a refusal stays in the
 * dialog; the outcome is told above the table, which reads the listings again.
 */
export const listingActionMachine = setup({
  types: {
    context: {} as ListingActionContext,
    events: {} as ListingActionEvent,
    emitted: {} as ChangedEvent,
  },
  actors: {
    publish: fromPromise<PublishedListing, { listingId: string }>(({ input }) => publishListing(input.listingId)),
    withdraw: fromPromise<AdminListing, { listingId: string; reason: string }>(({ input }) => withdrawListing(input.listingId, input.reason)),
  },
  guards: {
    publishable: ({ event }) => event.type === 'PUBLISH' && canPublish(event.listing.status),
    withdrawable: ({ event }) => event.type === 'WITHDRAW' && canWithdraw(event.listing.status),
    tableIsStale: ({ event }) => tableIsStale((event as { error?: unknown }).error),
  },
  actions: {
    tableChanged: emit({ type: 'changed' } as ChangedEvent),
  },
}).createMachine({
  id: 'listingAction',
  initial: 'idle',
  context: { listing: null, reason: '', notice: null, failure: null },
  states: {
    idle: {
      on: {
        PUBLISH: { guard: 'publishable', target: 'confirmingPublish', actions: assign(({ event }) => ({ listing: event.listing, notice: null, failure: null })) },
        WITHDRAW: { guard: 'withdrawable', target: 'confirmingWithdrawal', actions: assign(({ event }) => ({ listing: event.listing, reason: '', notice: null, failure: null })) },
        DISMISS: { actions: assign({ notice: null }) },
      },
    },
    confirmingPublish: {
      on: {
        CONFIRM: { target: 'publishing', actions: assign({ failure: null }) },
        CANCEL: { target: 'idle', actions: assign({ listing: null, failure: null }) },
      },
    },
    publishing: {
      invoke: {
        src: 'publish',
        input: ({ context }) => ({ listingId: context.listing!.id }),
        onDone: {
          target: 'idle',
          actions: [
            assign(({ context, event }) => ({ notice: `${context.listing!.title}: ${event.output.message}`, listing: null })),
            'tableChanged',
          ],
        },
        onError: [
          { guard: 'tableIsStale', target: 'confirmingPublish', actions: [assign({ failure: ({ event }) => errorMessage(event.error, 'Publishing failed') }), 'tableChanged'] },
          { target: 'confirmingPublish', actions: assign({ failure: ({ event }) => errorMessage(event.error, 'Publishing failed: Network error') }) },
        ],
      },
    },
    confirmingWithdrawal: {
      on: {
        CONFIRM_WITHDRAWAL: { target: 'withdrawing', actions: assign(({ event }) => ({ reason: event.reason, failure: null })) },
        CANCEL: { target: 'idle', actions: assign({ listing: null, reason: '', failure: null }) },
      },
    },
    withdrawing: {
      invoke: {
        src: 'withdraw',
        input: ({ context }) => ({ listingId: context.listing!.id, reason: context.reason }),
        onDone: {
          target: 'idle',
          actions: [assign(({ context }) => ({ notice: `${context.listing!.title} was withdrawn.`, listing: null, reason: '' })), 'tableChanged'],
        },
        onError: [
          { guard: 'tableIsStale', target: 'confirmingWithdrawal', actions: [assign({ failure: ({ event }) => errorMessage(event.error, 'Withdrawing failed') }), 'tableChanged'] },
          { target: 'confirmingWithdrawal', actions: assign({ failure: ({ event }) => errorMessage(event.error, 'Withdrawing failed: Network error') }) },
        ],
      },
    },
  },
});

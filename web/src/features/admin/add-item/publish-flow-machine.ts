import { assign, emit, enqueueActions, fromPromise, setup } from 'xstate';
import type { JerseyForm } from '../../../../../api/contracts/admin/jersey-form';
import type { AdminListing, PublicationRequest, PublishedListing } from '../../../../../api/contracts/admin/listings';
import type { FieldError } from '../../../../../api/contracts/common';

/**
 * The listing/NFC publish flow of Add Item, as one machine: not saved -> saved -> NFC bound ->
 * published. Saving again while saved revises the listing (until it is published). The calls are
 * actors the page provides and tests replace; the NFC panel reports bindings with TAG.CHANGED.
 */

export const SAVED_MESSAGE = 'Listing saved successfully! Now you can bind an NFC tag and publish.';
export const PUBLISHED_MESSAGE = 'Listing published successfully and is now LIVE!';
export const MEDIA_REQUIRED = 'At least one media file is required.';
export const NOT_CREATED = 'Listing must be created before publishing';
export const NOT_BOUND = 'NFC tag must be bound before publishing';

export interface FlowBanner {
  readonly kind: 'success' | 'error';
  readonly text: string;
}

/** A refused call: the server's message, and the fields it named. */
export interface CallFailure {
  readonly message: string;
  readonly fieldErrors: readonly FieldError[];
}

export interface FlowContext {
  /** The listing once saved: its id, status and bound tag come from the server's answers. */
  readonly listing: AdminListing | null;
  readonly published: PublishedListing | null;
  readonly banner: FlowBanner | null;
  /** The fields the server refused on the last save, shown at their inputs. */
  readonly fieldErrors: readonly FieldError[];
}

export type FlowEvent =
  | { type: 'SAVE'; form: JerseyForm }
  | { type: 'PUBLISH'; rules: PublicationRequest }
  | { type: 'TAG.CHANGED'; listing: AdminListing }
  | { type: 'BANNER.DISMISS' }
  | { type: 'START_OVER' };

/** Told to the page: the listing was saved, bound, unbound or published. */
export type FlowEmitted = { type: 'catalogueChanged' };

export interface FlowInput {
  /** A saved listing to edit, when the tab was opened for one. */
  readonly listing?: AdminListing | null;
}

function failure(error: unknown): CallFailure {
  const message = error instanceof Error && error.message ? error.message : 'Something went wrong';
  const fieldErrors = (error as { fieldErrors?: readonly FieldError[] } | null)?.fieldErrors ?? [];
  return { message, fieldErrors };
}


export const publishFlowMachine = setup({
  types: {
    context: {} as FlowContext,
    events: {} as FlowEvent,
    input: {} as FlowInput,
    emitted: {} as FlowEmitted,
  },
  actors: {
    createListing: fromPromise<AdminListing, JerseyForm>(async () => {
      throw new Error('createListing not provided');
    }),
    reviseListing: fromPromise<AdminListing, { listingId: string; form: JerseyForm }>(async () => {
      throw new Error('reviseListing not provided');
    }),
    publishListing: fromPromise<PublishedListing, { listingId: string; rules: PublicationRequest }>(async () => {
      throw new Error('publishListing not provided');
    }),
  },
  guards: {
    noMedia: ({ event }) => event.type === 'SAVE' && event.form.mediaIds.length === 0,
    tagBound: ({ context }) => context.listing !== null && context.listing.nfcUid !== null,
    isSaved: ({ context }) => context.listing !== null && context.listing.status !== 'DRAFT',
    /** A draft opened for editing (a bulk-imported row): saving it revises and saves it in one call. */
    isDraft: ({ context }) => context.listing?.status === 'DRAFT',
  },
  actions: {
    refuseWithoutMedia: assign({ banner: { kind: 'error', text: MEDIA_REQUIRED }, fieldErrors: [{ field: 'mediaIds', message: MEDIA_REQUIRED }] }),
    clearMessages: assign({ banner: null, fieldErrors: [] }),
    showSaved: enqueueActions(({ enqueue }, listing: AdminListing) => {
      enqueue.assign({ listing, banner: { kind: 'success', text: SAVED_MESSAGE } });
      enqueue.emit({ type: 'catalogueChanged' });
    }),
    tellChanged: emit({ type: 'catalogueChanged' }),
    showFailure: assign((_, failed: CallFailure) => ({ banner: { kind: 'error', text: failed.message } as const, fieldErrors: failed.fieldErrors })),
    refuse: assign((_, text: string) => ({ banner: { kind: 'error', text } as const })),
  },
}).createMachine({
  id: 'publishFlow',
  context: ({ input }) => ({ listing: input.listing ?? null, published: null, banner: null, fieldErrors: [] }),
  initial: 'starting',
  on: { 'BANNER.DISMISS': { actions: 'clearMessages' } },
  states: {
    starting: {
      always: [{ guard: 'isSaved', target: 'saved' }, { target: 'notSaved' }],
    },
    notSaved: {
      initial: 'editing',
      states: {
        editing: {
          on: {
            SAVE: [
              { guard: 'noMedia', actions: 'refuseWithoutMedia' },
              { guard: 'isDraft', target: '#publishFlow.saved.revising', actions: 'clearMessages' },
              { target: 'saving', actions: 'clearMessages' },
            ],
            PUBLISH: { actions: { type: 'refuse', params: NOT_CREATED } },
          },
        },
        saving: {
          tags: ['busy'],
          invoke: {
            src: 'createListing',
            input: ({ event }) => (event as Extract<FlowEvent, { type: 'SAVE' }>).form,
            onDone: { target: '#publishFlow.saved', actions: { type: 'showSaved', params: ({ event }) => event.output } },
            onError: { target: 'editing', actions: { type: 'showFailure', params: ({ event }) => failure(event.error) } },
          },
        },
      },
    },
    saved: {
      initial: 'settling',
      states: {
        // Bound or not, as the listing last answered says.
        settling: { always: [{ guard: 'tagBound', target: 'bound' }, { target: 'unbound' }] },
        unbound: {
          on: { PUBLISH: { actions: { type: 'refuse', params: NOT_BOUND } } },
        },
        bound: {
          on: { PUBLISH: { target: 'publishing', actions: 'clearMessages' } },
        },
        // While a call is under way the buttons are disabled; a SAVE sent anyway waits for nothing.
        revising: {
          tags: ['busy'],
          on: { SAVE: {}, 'TAG.CHANGED': { actions: assign({ listing: ({ event }) => event.listing }) } },
          invoke: {
            src: 'reviseListing',
            input: ({ context, event }) => ({ listingId: context.listing!.id, form: (event as Extract<FlowEvent, { type: 'SAVE' }>).form }),
            onDone: { target: 'settling', actions: { type: 'showSaved', params: ({ event }) => event.output } },
            onError: [
              // A draft whose save was refused is still not saved.
              { guard: 'isDraft', target: '#publishFlow.notSaved', actions: { type: 'showFailure', params: ({ event }) => failure(event.error) } },
              { target: 'settling', actions: { type: 'showFailure', params: ({ event }) => failure(event.error) } },
            ],
          },
        },
        publishing: {
          tags: ['busy'],
          on: { SAVE: {}, 'TAG.CHANGED': {} },
          invoke: {
            src: 'publishListing',
            input: ({ context, event }) => ({ listingId: context.listing!.id, rules: (event as Extract<FlowEvent, { type: 'PUBLISH' }>).rules }),
            onDone: {
              target: '#publishFlow.published',
              actions: [
                assign({ published: ({ event }) => event.output, listing: ({ event }) => event.output.listing, banner: { kind: 'success', text: PUBLISHED_MESSAGE } }),
                'tellChanged',
              ],
            },
            onError: { target: 'bound', actions: { type: 'showFailure', params: ({ event }) => failure(event.error) } },
          },
        },
      },
      on: {
        SAVE: [
          { guard: 'noMedia', actions: 'refuseWithoutMedia' },
          { target: '.revising', actions: 'clearMessages' },
        ],
        'TAG.CHANGED': { target: '.settling', actions: [assign({ listing: ({ event }) => event.listing }), 'tellChanged'] },
      },
    },
    published: {
      on: { START_OVER: { target: 'notSaved', actions: assign({ listing: null, published: null, banner: null, fieldErrors: [] }) } },
    },
  },
});

import { assign, emit, fromPromise, setup } from 'xstate';
import type { AdminListing } from '../../../../../api/contracts/admin/listings';
import type { BindingQrAnswer, NfcTag, TagChoice } from '../../../../../api/contracts/admin/nfc';
import { parseTagInput, tagChoiceOf, type TagInputKind } from '../../../lib/nfc-input';

/**
 * The NFC binding panel of Add Item, for a saved listing: pick a mode (none, phone, pool, manual)
 * and bind a tag, or unbind the bound one with a reason. Each binding is re-read as the listing
 * and told to the page (`changed`), which hands it to the publish flow.
 */

export type BindingMode = 'none' | 'phone' | 'pool' | 'manual';

/** How often the panel asks whether the phone has bound a tag. */
export const PHONE_POLL_MS = 2000;
export const REASON_REQUIRED = 'A reason is required';

/** What each mode says before the listing is saved: a tag binds to a saved listing only. */
export const NOT_SAVED: Record<Exclude<BindingMode, 'none'>, string> = {
  pool: 'Please select a tag and ensure listing is saved',
  manual: 'Listing must be saved before binding NFC tag',
  phone: 'Listing ID required for phone binding',
};

export interface PanelContext {
  /** null until the listing is saved. */
  readonly listingId: string | null;
  readonly mode: BindingMode;
  readonly pool: readonly NfcTag[];
  readonly search: string;
  readonly manualKind: TagInputKind;
  readonly manualText: string;
  readonly qr: BindingQrAnswer | null;
  readonly reason: string;
  readonly error: string | null;
}

export type PanelEvent =
  | { type: 'MODE'; mode: BindingMode }
  | { type: 'SEARCH'; text: string }
  | { type: 'PICK'; uid: string }
  | { type: 'MANUAL.KIND'; kind: TagInputKind }
  | { type: 'MANUAL.TEXT'; text: string }
  | { type: 'MANUAL.SUBMIT' }
  | { type: 'QR.RENEW' }
  | { type: 'REASON'; text: string }
  | { type: 'UNBIND' }
  | { type: 'SAVED'; listingId: string };

export type PanelEmitted = { type: 'changed'; listing: AdminListing };

function messageOf(error: unknown): string {
  return error instanceof Error && error.message ? error.message : 'Something went wrong';
}

export const nfcPanelMachine = setup({
  types: {
    context: {} as PanelContext,
    events: {} as PanelEvent,
    input: {} as { listingId: string | null },
    emitted: {} as PanelEmitted,
  },
  actors: {
    loadPool: fromPromise<NfcTag[], { search: string }>(async () => {
      throw new Error('loadPool not provided');
    }),
    bind: fromPromise<AdminListing, { listingId: string; choice: TagChoice }>(async () => {
      throw new Error('bind not provided');
    }),
    unbind: fromPromise<AdminListing, { listingId: string; reason: string }>(async () => {
      throw new Error('unbind not provided');
    }),
    requestQr: fromPromise<BindingQrAnswer, { listingId: string }>(async () => {
      throw new Error('requestQr not provided');
    }),
    readListing: fromPromise<AdminListing, { listingId: string }>(async () => {
      throw new Error('readListing not provided');
    }),
  },
  delays: {
    pollDelay: PHONE_POLL_MS,
    searchDelay: 250,
  },
  guards: {
    notSaved: ({ context }) => context.listingId === null,
    manualInvalid: ({ context }) => parseTagInput(context.manualText, context.manualKind).kind === 'invalid',
    noReason: ({ context }) => context.reason.trim() === '',
    boundByPhone: (_, listing: AdminListing) => listing.nfcUid !== null,
    qrExpired: ({ context }) => context.qr !== null && Date.now() >= Date.parse(context.qr.expiresAt),
  },
  actions: {
    showError: assign((_, message: string) => ({ error: message })),
    tellChanged: emit((_, listing: AdminListing) => ({ type: 'changed' as const, listing })),
  },
}).createMachine({
  id: 'nfcPanel',
  context: ({ input }) => ({
    listingId: input.listingId,
    mode: 'none',
    pool: [],
    search: '',
    manualKind: 'uid',
    manualText: '',
    qr: null,
    reason: '',
    error: null,
  }),
  initial: 'choosing',
  on: {
    SAVED: { actions: assign({ listingId: ({ event }) => event.listingId, error: null }) },
    REASON: { actions: assign({ reason: ({ event }) => event.text }) },
    UNBIND: [{ guard: 'noReason', actions: assign({ error: REASON_REQUIRED }) }, { target: '.unbinding', actions: assign({ error: null }) }],
  },
  states: {
    choosing: {
      initial: 'none',
      on: {
        MODE: [
          { guard: ({ event }) => event.mode === 'none', target: '.none', actions: assign({ mode: 'none', error: null }) },
          { guard: 'notSaved', actions: assign({ error: ({ event }) => NOT_SAVED[event.mode as Exclude<BindingMode, 'none'>] }) },
          { guard: ({ event }) => event.mode === 'pool', target: '.pool', actions: assign({ mode: 'pool', error: null }) },
          { guard: ({ event }) => event.mode === 'manual', target: '.manual', actions: assign({ mode: 'manual', error: null }) },
          { target: '.phone', actions: assign({ mode: 'phone', error: null }) },
        ],
      },
      states: {
        none: {},
        pool: {
          initial: 'loading',
          on: {
            SEARCH: { target: '.waiting', actions: assign({ search: ({ event }) => event.text }) },
            PICK: { target: '#nfcPanel.binding', actions: assign({ error: null }) },
          },
          states: {
            // Typing waits a moment, so that each keystroke is not a request.
            waiting: { after: { searchDelay: 'loading' } },
            loading: {
              invoke: {
                src: 'loadPool',
                input: ({ context }) => ({ search: context.search }),
                onDone: { target: 'ready', actions: assign({ pool: ({ event }) => event.output, error: null }) },
                onError: { target: 'ready', actions: { type: 'showError', params: ({ event }) => messageOf(event.error) } },
              },
            },
            ready: {},
          },
        },
        manual: {
          on: {
            'MANUAL.KIND': { actions: assign({ manualKind: ({ event }) => event.kind, error: null }) },
            'MANUAL.TEXT': { actions: assign({ manualText: ({ event }) => event.text, error: null }) },
            'MANUAL.SUBMIT': [
              { guard: 'manualInvalid', actions: assign({ error: ({ context }) => (parseTagInput(context.manualText, context.manualKind) as { message: string }).message }) },
              { target: '#nfcPanel.binding', actions: assign({ error: null }) },
            ],
          },
        },
        phone: {
          initial: 'requesting',
          on: { 'QR.RENEW': '.requesting' },
          states: {
            requesting: {
              invoke: {
                src: 'requestQr',
                input: ({ context }) => ({ listingId: context.listingId! }),
                onDone: { target: 'waiting', actions: assign({ qr: ({ event }) => event.output, error: null }) },
                onError: { target: 'failed', actions: { type: 'showError', params: ({ event }) => messageOf(event.error) } },
              },
            },
            // Until the phone binds a tag (or the code expires), the listing is read every 2 s.
            waiting: {
              always: { guard: 'qrExpired', target: 'expired' },
              after: { pollDelay: 'polling' },
            },
            polling: {
              invoke: {
                src: 'readListing',
                input: ({ context }) => ({ listingId: context.listingId! }),
                onDone: [
                  { guard: { type: 'boundByPhone', params: ({ event }) => event.output }, target: '#nfcPanel.choosing', actions: [assign({ mode: 'none', qr: null }), { type: 'tellChanged', params: ({ event }) => event.output }] },
                  { target: 'waiting' },
                ],
                // A missed poll is not a failure: the next one asks again.
                onError: { target: 'waiting' },
              },
            },
            expired: {},
            failed: {},
          },
        },
      },
    },
    binding: {
      invoke: {
        src: 'bind',
        input: ({ context, event }) => ({
          listingId: context.listingId!,
          choice:
            event.type === 'PICK'
              ? { uid: event.uid }
              : tagChoiceOf(parseTagInput(context.manualText, context.manualKind) as Exclude<ReturnType<typeof parseTagInput>, { kind: 'invalid' }>),
        }),
        onDone: { target: 'choosing', actions: [assign({ mode: 'none', manualText: '', search: '' }), { type: 'tellChanged', params: ({ event }) => event.output }] },
        onError: [
          { guard: ({ context }) => context.mode === 'pool', target: 'choosing.pool', actions: { type: 'showError', params: ({ event }) => messageOf(event.error) } },
          { target: 'choosing.manual', actions: { type: 'showError', params: ({ event }) => messageOf(event.error) } },
        ],
      },
    },
    unbinding: {
      invoke: {
        src: 'unbind',
        input: ({ context }) => ({ listingId: context.listingId!, reason: context.reason.trim() }),
        onDone: { target: 'choosing', actions: [assign({ reason: '', mode: 'none' }), { type: 'tellChanged', params: ({ event }) => event.output }] },
        onError: { target: 'choosing', actions: { type: 'showError', params: ({ event }) => messageOf(event.error) } },
      },
    },
  },
});

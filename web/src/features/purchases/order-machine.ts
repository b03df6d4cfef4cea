import { assign, fromPromise, setup } from 'xstate';
import type { FieldError } from '../../../../api/contracts/common';
import { ApiError, errorMessage, unlessAborted } from '../../lib/api-client';
import { confirmReceipt, downloadInvoicePdf, fetchOrder, saveShippingAddress, type Order, type ShippingAddress } from './api';

export interface OrderContext {
  readonly orderId: string;
  readonly order: Order | null;
  /** Why the order could not be loaded. */
  readonly loadError: string | null;
  /** There is no such order for this user (404, or someone else's: 403): nothing to try again. */
  readonly missing: boolean;
  /** What was just done, said in the page's live region. */
  readonly notice: string | null;
  /** Why the last step was refused: the server's words (a 409's are written for people). */
  readonly error: string | null;
  /** The address form's problems the server named, each beside its field. */
  readonly addressErrors: readonly FieldError[];
  /** The address form is open to change a saved address (it is always open while none is saved). */
  readonly editingAddress: boolean;
  readonly downloadError: string | null;
}

export type OrderEvent =
  | { type: 'RETRY' }
  | { type: 'EDIT_ADDRESS' }
  | { type: 'CANCEL_ADDRESS' }
  | { type: 'SAVE_ADDRESS'; address: ShippingAddress }
  | { type: 'CONFIRM_RECEIPT' }
  | { type: 'DOWNLOAD_PDF' }
  | { type: 'DISMISS' };

/** Not found, or not this user's to see. */
export const isMissing = (error: unknown) => error instanceof ApiError && (error.status === 404 || error.status === 403);

/** A refusal that means the order moved on meanwhile (shipped, cancelled): it is read again. */
const isConflict = (error: unknown) => error instanceof ApiError && error.status === 409;

/**
 * The order page: the order loaded (or an error with Try Again), then the buyer's steps, one at a
 * time: the shipping address saved, "I received it"; the PDF downloads beside them. A step refused
 * because the order changed meanwhile reads the order again, so the page shows where it now stands.
 * `addressSaved` and `receiptConfirmed` let the page move focus to what changed.
 */
export const orderMachine = setup({
  types: {
    context: {} as OrderContext,
    events: {} as OrderEvent,
    input: {} as { orderId: string },
  },
  actors: {
    loadOrder: fromPromise<Order, { orderId: string }>(({ input, signal }) => unlessAborted(signal, (aborted) => fetchOrder(input.orderId, aborted))),
    saveAddress: fromPromise<Order, { orderId: string; address: ShippingAddress }>(({ input }) => saveShippingAddress(input.orderId, input.address)),
    confirmReceipt: fromPromise<Order, { orderId: string }>(({ input }) => confirmReceipt(input.orderId)),
    downloadPdf: fromPromise<void, { order: Order }>(({ input, signal }) => unlessAborted(signal, (aborted) => downloadInvoicePdf(input.order, aborted))),
  },
  actions: {
    addressSaved: () => {},
    receiptConfirmed: () => {},
  },
}).createMachine({
  id: 'order',
  initial: 'loading',
  context: ({ input }) => ({ orderId: input.orderId, order: null, loadError: null, missing: false, notice: null, error: null, addressErrors: [], editingAddress: false, downloadError: null }),
  states: {
    loading: {
      invoke: {
        src: 'loadOrder',
        input: ({ context }) => ({ orderId: context.orderId }),
        onDone: { target: 'ready', actions: assign({ order: ({ event }) => event.output, loadError: null }) },
        onError: {
          target: 'failed',
          actions: assign({ loadError: ({ event }) => errorMessage(event.error, 'Failed to load this order'), missing: ({ event }) => isMissing(event.error) }),
        },
      },
    },
    failed: {
      on: { RETRY: 'loading' },
    },
    ready: {
      type: 'parallel',
      on: { DISMISS: { actions: assign({ notice: null, error: null, downloadError: null }) } },
      states: {
        step: {
          initial: 'idle',
          states: {
            idle: {
              on: {
                EDIT_ADDRESS: { actions: assign({ editingAddress: true, notice: null, error: null, addressErrors: [] }) },
                CANCEL_ADDRESS: { actions: assign({ editingAddress: false, error: null, addressErrors: [] }) },
                SAVE_ADDRESS: { target: 'savingAddress', actions: assign({ notice: null, error: null, addressErrors: [] }) },
                CONFIRM_RECEIPT: { target: 'confirming', actions: assign({ notice: null, error: null }) },
              },
            },
            savingAddress: {
              invoke: {
                src: 'saveAddress',
                input: ({ context, event }) => ({ orderId: context.orderId, address: (event as Extract<OrderEvent, { type: 'SAVE_ADDRESS' }>).address }),
                onDone: {
                  target: 'idle',
                  actions: [assign({ order: ({ event }) => event.output, editingAddress: false, notice: 'Shipping address saved. We ship there once the order is paid.' }), 'addressSaved'],
                },
                onError: [
                  { guard: ({ event }) => isConflict(event.error), target: 'refreshing', actions: assign({ error: ({ event }) => errorMessage(event.error, 'The address was not saved') }) },
                  {
                    target: 'idle',
                    actions: assign({
                      error: ({ event }) => `The address was not saved: ${errorMessage(event.error, 'Network error')}`,
                      addressErrors: ({ event }) => (event.error instanceof ApiError ? (event.error.fieldErrors ?? []) : []),
                    }),
                  },
                ],
              },
            },
            confirming: {
              invoke: {
                src: 'confirmReceipt',
                input: ({ context }) => ({ orderId: context.orderId }),
                onDone: { target: 'idle', actions: [assign({ order: ({ event }) => event.output, notice: 'Thank you: the order is marked received, and the sale is complete.' }), 'receiptConfirmed'] },
                onError: [
                  { guard: ({ event }) => isConflict(event.error), target: 'refreshing', actions: assign({ error: ({ event }) => errorMessage(event.error, 'Not confirmed') }) },
                  { target: 'idle', actions: assign({ error: ({ event }) => `Not confirmed: ${errorMessage(event.error, 'Network error')}` }) },
                ],
              },
            },
            // After a refusal: the order as it now stands (its error stays said).
            refreshing: {
              invoke: {
                src: 'loadOrder',
                input: ({ context }) => ({ orderId: context.orderId }),
                onDone: { target: 'idle', actions: assign({ order: ({ event }) => event.output, editingAddress: false }) },
                onError: { target: 'idle' },
              },
            },
          },
        },
        download: {
          initial: 'idle',
          states: {
            idle: { on: { DOWNLOAD_PDF: { target: 'downloading', actions: assign({ downloadError: null }) } } },
            downloading: {
              invoke: {
                src: 'downloadPdf',
                input: ({ context }) => ({ order: context.order! }),
                onDone: 'idle',
                onError: { target: 'idle', actions: assign({ downloadError: ({ event }) => `The PDF could not be downloaded: ${errorMessage(event.error, 'Network error')}` }) },
              },
            },
          },
        },
      },
    },
  },
});

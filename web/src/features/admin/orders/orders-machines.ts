import { assign, fromPromise, setup } from 'xstate';
import { ApiError, errorMessage, unlessAborted } from '../../../lib/api-client';
import { formatUsd } from '../../../lib/money';
import { createPagedTableMachine } from '../../../lib/paged-table-machine';
import { fetchOrder, fetchOrdersPage, fetchOverdueCount, runOrderAction, type ActionOutcome, type AdminOrder, type OrderAction, type OrderActionKind } from './api';

/** The orders, a page per status, search and page number: the server filters, searches and pages. */
export const ordersTableMachine = createPagedTableMachine({ id: 'adminOrders', what: 'orders', fetchPage: fetchOrdersPage });

/** How many orders are overdue, read once (for the Manage tab's Orders card). */
export const overdueCountActor = fromPromise<number>(({ signal }) => unlessAborted(signal, fetchOverdueCount));

const dateTime = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });
export const formatDateTime = (iso: string) => dateTime.format(new Date(iso));

/** A buyer or runner-up as the admin reads them: "Robin Buyer (robin@example.com)"; an account gone is said so. */
export function personLabel(person: AdminOrder['buyer']): string {
  if (person.name && person.email) return `${person.name} (${person.email})`;
  return person.name ?? person.email ?? 'an account no longer on file';
}

/** What an action came to, or why it was refused: shown at the step it belongs to. */
export interface ActionNote {
  readonly kind: OrderActionKind;
  readonly message: string;
}

export interface OrderPanelContext {
  readonly orderId: string;
  readonly order: AdminOrder | null;
  /** Why the order could not be read. */
  readonly loadError: string | null;
  /** The step being sent, or last sent. */
  readonly action: OrderAction | null;
  readonly result: ActionNote | null;
  readonly failure: ActionNote | null;
  /** How many times each step has succeeded: its form starts afresh after each. */
  readonly done: Readonly<Partial<Record<OrderActionKind, number>>>;
}

export type OrderPanelEvent =
  | { readonly type: 'RETRY' }
  | { readonly type: 'RUN'; readonly action: OrderAction }
  | { readonly type: 'ASK_CANCEL' }
  | { readonly type: 'ASK_RELIST' }
  | { readonly type: 'CLOSE_DIALOG' }
  | { readonly type: 'DISMISS' };

/** A refusal, with the order as it stands now: a 409 may mean it changed meanwhile (another admin, the buyer, the lifecycle). */
class Refused extends Error {
  constructor(
    readonly refusal: unknown,
    readonly order: AdminOrder | null,
  ) {
    super(refusal instanceof Error ? refusal.message : 'Refused');
  }
}

async function run(orderId: string, action: OrderAction): Promise<ActionOutcome> {
  try {
    return await runOrderAction(orderId, action);
  } catch (error) {
    const stale = error instanceof ApiError && error.status === 409;
    throw new Refused(error, stale ? await fetchOrder(orderId).catch(() => null) : null);
  }
}

/** "Payment of $100.00 recorded: $17.00 still owed", and so on: what the step did, in the admin's words. */
function resultOf(action: OrderAction, { order, offer }: ActionOutcome): string {
  switch (action.kind) {
    case 'payment':
      return `Payment of ${formatUsd(action.amount)} (${action.reference.trim()}) recorded: ${order.balance > 0 ? `${formatUsd(order.balance)} still owed.` : 'the order is paid in full.'}`;
    case 'shippingCharge':
      return `Shipping is now ${formatUsd(order.shipping)}: the total is ${formatUsd(order.total)}.`;
    case 'shipment':
      return `Shipped with ${order.carrier ?? action.carrier}, tracking number ${order.trackingNumber ?? action.trackingNumber}: the buyer is told.`;
    case 'delivered':
      return 'Marked delivered: the sale is complete.';
    case 'cancel':
      return 'The order is cancelled. Offer the item to the runner-up, or relist it.';
    case 'secondChance':
      return offer
        ? `Offered to the runner-up, ${personLabel(offer.bidder)}, at ${formatUsd(offer.amount)} (their highest bid), open until ${formatDateTime(offer.expiresAt)}.`
        : 'Offered to the runner-up.';
    case 'relist':
      return 'The listing is back to NFC bound, its tag still on it: it can be published again from Manage.';
  }
}

const FALLBACK: Readonly<Record<OrderActionKind, string>> = {
  payment: 'Recording the payment failed',
  shippingCharge: 'Changing the shipping charge failed',
  shipment: 'Shipping failed',
  delivered: 'Marking it delivered failed',
  cancel: 'Cancelling failed',
  secondChance: 'The offer to the runner-up failed',
  relist: 'Relisting failed',
};

function failureOf(action: OrderAction, error: unknown): string {
  const cause = error instanceof Refused ? error.refusal : error;
  const fallback = `${FALLBACK[action.kind]}: Network error`;
  if (!(cause instanceof ApiError)) return fallback;
  if (cause.status === 0) return `${FALLBACK[action.kind]}: ${cause.message}`;
  // A refused form: each problem the server names (they are few).
  const fields = cause.fieldErrors?.map((problem) => problem.message).filter((message) => message !== cause.message) ?? [];
  return [errorMessage(cause, fallback), ...fields].join(' ');
}

const isKind = (kind: OrderActionKind) => ({ context }: { context: OrderPanelContext }) => context.action?.kind === kind;

/**
 * One order in the admin's Orders view: read, then each step the admin takes on it, one at a
 * time. Cancelling and relisting are confirmed first, in a dialog that stays open on a refusal.
 * A step that succeeds shows the order as the server answered it, with what it did; a refusal
 * keeps the step's form as typed, with the server's reason, and reads the order again when the
 * refusal says it may have changed.
 */
export const orderPanelMachine = setup({
  types: {
    context: {} as OrderPanelContext,
    events: {} as OrderPanelEvent,
    input: {} as { orderId: string },
  },
  actors: {
    fetchOrder: fromPromise<AdminOrder, { orderId: string }>(({ input, signal }) => unlessAborted(signal, (aborted) => fetchOrder(input.orderId, aborted))),
    runAction: fromPromise<ActionOutcome, { orderId: string; action: OrderAction }>(({ input }) => run(input.orderId, input.action)),
  },
  guards: {
    wasCancel: isKind('cancel'),
    wasRelist: isKind('relist'),
  },
  actions: {
    refused: assign(({ context, event }) => {
      const error = (event as { error?: unknown }).error;
      const fresh = error instanceof Refused ? error.order : null;
      return { failure: { kind: context.action!.kind, message: failureOf(context.action!, error) }, order: fresh ?? context.order };
    }),
  },
}).createMachine({
  id: 'orderPanel',
  context: ({ input }) => ({ orderId: input.orderId, order: null, loadError: null, action: null, result: null, failure: null, done: {} }),
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        src: 'fetchOrder',
        input: ({ context }) => ({ orderId: context.orderId }),
        onDone: { target: 'ready', actions: assign({ order: ({ event }) => event.output, loadError: null }) },
        onError: { target: 'failed', actions: assign({ loadError: ({ event }) => `Failed to load the order: ${errorMessage(event.error, 'Network error')}` }) },
      },
    },
    failed: {
      on: { RETRY: { target: 'loading', actions: assign({ loadError: null }) } },
    },
    ready: {
      initial: 'idle',
      states: {
        idle: {
          on: {
            RUN: { target: 'submitting', actions: assign(({ event }) => ({ action: event.action, failure: null, result: null })) },
            ASK_CANCEL: { target: 'confirmingCancel', actions: assign({ failure: null, result: null }) },
            ASK_RELIST: { target: 'confirmingRelist', actions: assign({ failure: null, result: null }) },
            DISMISS: { actions: assign({ result: null, failure: null }) },
          },
        },
        confirmingCancel: {
          on: {
            RUN: { target: 'submitting', actions: assign(({ event }) => ({ action: event.action, failure: null })) },
            CLOSE_DIALOG: { target: 'idle', actions: assign({ failure: null }) },
          },
        },
        confirmingRelist: {
          on: {
            RUN: { target: 'submitting', actions: assign(({ event }) => ({ action: event.action, failure: null })) },
            CLOSE_DIALOG: { target: 'idle', actions: assign({ failure: null }) },
          },
        },
        submitting: {
          invoke: {
            src: 'runAction',
            input: ({ context }) => ({ orderId: context.orderId, action: context.action! }),
            onDone: {
              target: 'idle',
              actions: assign(({ context, event }) => {
                const kind = context.action!.kind;
                return {
                  order: event.output.order,
                  result: { kind, message: resultOf(context.action!, event.output) },
                  failure: null,
                  done: { ...context.done, [kind]: (context.done[kind] ?? 0) + 1 },
                };
              }),
            },
            onError: [
              { guard: 'wasCancel', target: 'confirmingCancel', actions: 'refused' },
              { guard: 'wasRelist', target: 'confirmingRelist', actions: 'refused' },
              { target: 'idle', actions: 'refused' },
            ],
          },
        },
      },
    },
  },
});

import { assign, fromPromise, setup } from 'xstate';
import type { AnyBidReceipt } from '../../../../api/contracts/receipts';
import { errorMessage, unlessAborted } from '../api-client';
import { checkReceipt, type ReceiptCheck } from './receipt-check';

export interface ReceiptCheckContext {
  readonly receipt: AnyBidReceipt;
  /** The last check's verdict. */
  readonly result: ReceiptCheck | null;
  /** Why the last check could not be made (the keys or the proof could not be fetched). */
  readonly error: string | null;
  readonly atOnce: boolean;
}

export interface ReceiptCheckInput {
  readonly receipt: AnyBidReceipt;
  /** Check at once (the verifier page), rather than when asked (the listing's receipts). */
  readonly atOnce?: boolean;
}

/**
 * One receipt's check: idle until CHECK (or at once), then the verdict or the reason it could not
 * be made; CHECK again checks again (a bid not in a checkpoint yet will be in a minute).
 */
export const receiptCheckMachine = setup({
  types: {
    context: {} as ReceiptCheckContext,
    events: {} as { type: 'CHECK' },
    input: {} as ReceiptCheckInput,
  },
  actors: {
    check: fromPromise<ReceiptCheck, AnyBidReceipt>(({ input, signal }) => unlessAborted(signal, (aborted) => checkReceipt(input, aborted))),
  },
  guards: {
    atOnce: ({ context }) => context.atOnce,
  },
}).createMachine({
  id: 'receiptCheck',
  context: ({ input }) => ({ receipt: input.receipt, result: null, error: null, atOnce: input.atOnce ?? false }),
  initial: 'starting',
  states: {
    starting: {
      always: [{ guard: 'atOnce', target: 'checking' }, { target: 'idle' }],
    },
    idle: { on: { CHECK: 'checking' } },
    checking: {
      invoke: {
        src: 'check',
        input: ({ context }) => context.receipt,
        onDone: { target: 'checked', actions: assign({ result: ({ event }) => event.output, error: null }) },
        onError: { target: 'checked', actions: assign({ result: null, error: ({ event }) => `Could not check the receipt: ${errorMessage(event.error, 'Network error')}` }) },
      },
    },
    checked: { on: { CHECK: 'checking' } },
  },
});

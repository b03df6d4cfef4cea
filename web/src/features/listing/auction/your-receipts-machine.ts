import { assign, fromPromise, setup } from 'xstate';
import { errorMessage } from '../../../lib/api-client';
import type { BidReceipt } from '../api';
import { mergeReceipts } from './receipts-list';

export interface YourReceiptsContext {
  readonly auctionId: string;
  readonly userId: string | null;
  readonly receipts: readonly BidReceipt[];
  readonly error: string | null;
}

export type YourReceiptsEvent =
  | { type: 'USER.CHANGE'; userId: string | null }
  /** The user's bid or purchase was accepted: its answer carries the receipt. */
  | { type: 'RECEIPT.ISSUED'; receipt: BidReceipt }
  | { type: 'RETRY' };

/**
 * The signed-in user's receipts for one auction: read when the panel opens (and for another user),
 * then each accepted bid of theirs adds the receipt its answer carried, without asking again.
 */
export const yourReceiptsMachine = setup({
  types: {
    context: {} as YourReceiptsContext,
    events: {} as YourReceiptsEvent,
    input: {} as { auctionId: string; userId: string | null },
  },
  actors: {
    load: fromPromise<BidReceipt[], { auctionId: string }>(async () => {
      throw new Error('load not provided');
    }),
  },
  guards: {
    signedOut: ({ context }) => context.userId === null,
    anotherUser: ({ context, event }) => event.type === 'USER.CHANGE' && event.userId !== context.userId,
  },
}).createMachine({
  id: 'yourReceipts',
  context: ({ input }) => ({ auctionId: input.auctionId, userId: input.userId, receipts: [], error: null }),
  initial: 'deciding',
  on: {
    'USER.CHANGE': { guard: 'anotherUser', target: '.deciding', actions: assign(({ event }) => ({ userId: event.userId, receipts: [], error: null })) },
    'RECEIPT.ISSUED': { actions: assign({ receipts: ({ context, event }) => mergeReceipts(context.receipts, [event.receipt]) }) },
  },
  states: {
    deciding: {
      always: [{ guard: 'signedOut', target: 'signedOut' }, { target: 'loading' }],
    },
    signedOut: {},
    loading: {
      invoke: {
        src: 'load',
        input: ({ context }) => ({ auctionId: context.auctionId }),
        // A receipt issued while the list was read stays, whether or not the answer had it.
        onDone: { target: 'ready', actions: assign({ receipts: ({ context, event }) => mergeReceipts(event.output, context.receipts) }) },
        onError: { target: 'failed', actions: assign({ error: ({ event }) => `Failed to load your receipts: ${errorMessage(event.error, 'Network error')}` }) },
      },
    },
    ready: {},
    failed: { on: { RETRY: { target: 'loading', actions: assign({ error: null }) } } },
  },
});


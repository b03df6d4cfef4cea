import { assign, fromPromise, setup } from 'xstate';
import type { AnyBidReceipt } from '../../../../api/contracts/receipts';
import { MAX_FILE_BYTES, readReceipts } from './receipts-file';

/** Where the receipts being checked came from. */
export type ReceiptsSource = { readonly kind: 'file'; readonly name: string } | { readonly kind: 'text' };

export interface VerifyPageContext {
  /** The receipts being checked, each by its own check; null before any were read. */
  readonly receipts: readonly AnyBidReceipt[] | null;
  readonly source: ReceiptsSource | null;
  /** Counts the readings: a new one checks every receipt again, even the same file. */
  readonly reading: number;
  /** The pasted text, as typed. */
  readonly text: string;
  /** Why the chosen file could not be read, shown by the file field. */
  readonly fileError: string | null;
  /** Why the pasted text could not be read, shown by the text field. */
  readonly textError: string | null;
}

export type VerifyPageEvent =
  | { type: 'FILE.CHOSEN'; file: File }
  | { type: 'FILE.REFUSED'; message: string }
  | { type: 'TEXT.CHANGE'; value: string }
  | { type: 'TEXT.CHECK' };

/** The receipts read, or what is wrong with the file. */
type FileReading = { readonly name: string; readonly receipts: readonly AnyBidReceipt[] } | { readonly error: string };

/**
 * /verify: a receipts file chosen or dropped (read, then checked), or text pasted and checked. A
 * file or text that holds no receipt is refused beside its own field, and what was being checked
 * stays.
 */
export const verifyPageMachine = setup({
  types: { context: {} as VerifyPageContext, events: {} as VerifyPageEvent },
  actors: {
    readFile: fromPromise<FileReading, File>(async ({ input }) => {
      if (input.size > MAX_FILE_BYTES) return { error: `This file is too large for receipts (${Math.ceil(input.size / 1024)} KB; at most 1 MB).` };
      const reading = readReceipts(await input.text());
      return reading.ok ? { name: input.name, receipts: reading.receipts } : { error: reading.error };
    }),
  },
}).createMachine({
  id: 'verifyPage',
  context: { receipts: null, source: null, reading: 0, text: '', fileError: null, textError: null },
  initial: 'idle',
  on: {
    'TEXT.CHANGE': { actions: assign({ text: ({ event }) => event.value }) },
  },
  states: {
    idle: {
      on: {
        'FILE.CHOSEN': { target: 'readingFile', actions: assign({ fileError: null }) },
        'FILE.REFUSED': { actions: assign({ fileError: ({ event }) => event.message }) },
        'TEXT.CHECK': {
          actions: assign(({ context }) => {
            const reading = readReceipts(context.text);
            if (!reading.ok) return { textError: reading.error };
            return { textError: null, fileError: null, receipts: reading.receipts, source: { kind: 'text' } as const, reading: context.reading + 1 };
          }),
        },
      },
    },
    readingFile: {
      invoke: {
        src: 'readFile',
        input: ({ event }) => (event as Extract<VerifyPageEvent, { type: 'FILE.CHOSEN' }>).file,
        onDone: {
          target: 'idle',
          actions: assign(({ context, event }) => {
            const { output } = event;
            if ('error' in output) return { fileError: output.error };
            return { fileError: null, textError: null, receipts: output.receipts, source: { kind: 'file', name: output.name } as const, reading: context.reading + 1 };
          }),
        },
        onError: { target: 'idle', actions: assign({ fileError: 'This file could not be read. Choose it again.' }) },
      },
    },
  },
});

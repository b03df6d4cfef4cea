import { assign, fromCallback, setup, type EventObject } from 'xstate';
import type { BulkImportResult } from '../../../../../api/contracts/admin/bulk-import';
import { errorMessage } from '../../../lib/api-client';
import { sendSheet } from './bulk-import-api';

/** What the server takes; the drop zone holds the chooser to the same. */
export const ACCEPTED_EXTENSIONS = ['.csv', '.xlsx', '.xls'] as const;
export const MAX_FILE_MEGABYTES = 10;

/** Bytes of the file sent so far. */
export interface UploadProgress {
  readonly loaded: number;
  readonly total: number;
}

export interface BulkImportContext {
  readonly file: File | null;
  readonly progress: UploadProgress | null;
  readonly result: BulkImportResult | null;
  /** Why the last file was refused, by the chooser or by the server. */
  readonly error: string | null;
}

export type BulkImportEvent =
  | { readonly type: 'CHOOSE'; readonly file: File }
  | { readonly type: 'REFUSE'; readonly message: string }
  | { readonly type: 'CLEAR' }
  | { readonly type: 'UPLOAD' }
  | { readonly type: 'PROGRESS'; readonly loaded: number; readonly total: number }
  | { readonly type: 'UPLOADED'; readonly result: BulkImportResult }
  | { readonly type: 'UPLOAD_FAILED'; readonly message: string };

/** The share of the file sent, 0 to 100, whole. */
export function percentSent(progress: UploadProgress | null): number {
  if (!progress || progress.total === 0) return 0;
  return Math.min(100, Math.round((progress.loaded / progress.total) * 100));
}

/**
 * The page's flow: no file -> a file chosen -> uploading (with the share of bytes sent) -> the
 * result, or the reason the file was refused with Try Again. A new file can be chosen at any
 * point but while one is uploading.
 */
export const bulkImportMachine = setup({
  types: {
    context: {} as BulkImportContext,
    events: {} as BulkImportEvent,
  },
  actors: {
    // The upload reports back PROGRESS, then UPLOADED or UPLOAD_FAILED; stopping it aborts the request.
    uploadSheet: fromCallback<EventObject, { file: File }>(({ input, sendBack }) => {
      const abort = new AbortController();
      sendSheet(input.file, (loaded, total) => sendBack({ type: 'PROGRESS', loaded, total }), abort.signal).then(
        (result) => sendBack({ type: 'UPLOADED', result }),
        (error: unknown) => {
          if (!abort.signal.aborted) sendBack({ type: 'UPLOAD_FAILED', message: errorMessage(error, 'Upload failed') });
        },
      );
      return () => abort.abort();
    }),
  },
  actions: {
    choose: assign(({ event }) => ({ file: event.type === 'CHOOSE' ? event.file : null, progress: null, result: null, error: null })),
    refuse: assign({ error: ({ event }) => (event.type === 'REFUSE' ? event.message : null) }),
    clear: assign({ file: null, progress: null, result: null, error: null }),
  },
}).createMachine({
  id: 'bulkImport',
  initial: 'idle',
  context: { file: null, progress: null, result: null, error: null },
  states: {
    idle: {
      on: { CHOOSE: { target: 'chosen', actions: 'choose' }, REFUSE: { actions: 'refuse' } },
    },
    chosen: {
      on: {
        CHOOSE: { target: 'chosen', actions: 'choose' },
        REFUSE: { actions: 'refuse' },
        CLEAR: { target: 'idle', actions: 'clear' },
        UPLOAD: 'uploading',
      },
    },
    uploading: {
      entry: assign({ progress: ({ context }) => ({ loaded: 0, total: context.file?.size ?? 0 }), error: null }),
      invoke: { src: 'uploadSheet', input: ({ context }) => ({ file: context.file! }) },
      on: {
        PROGRESS: { actions: assign({ progress: ({ event }) => ({ loaded: event.loaded, total: event.total }) }) },
        UPLOADED: { target: 'done', actions: assign({ result: ({ event }) => event.result, progress: null }) },
        UPLOAD_FAILED: { target: 'failed', actions: assign({ error: ({ event }) => event.message, progress: null }) },
      },
    },
    done: {
      on: { CHOOSE: { target: 'chosen', actions: 'choose' }, REFUSE: { actions: 'refuse' }, CLEAR: { target: 'idle', actions: 'clear' } },
    },
    failed: {
      on: {
        UPLOAD: 'uploading',
        CHOOSE: { target: 'chosen', actions: 'choose' },
        REFUSE: { actions: 'refuse' },
        CLEAR: { target: 'idle', actions: 'clear' },
      },
    },
  },
});

import { assign, fromPromise, setup } from 'xstate';
import { errorMessage } from '../../../lib/api-client';
import { saveFile } from '../../../lib/download';
import { fetchAuditBundle } from '../api';

interface BundleContext {
  /** The file last saved, to say so. */
  readonly saved: string | null;
  readonly error: string | null;
}

type BundleEvent = { readonly type: 'DOWNLOAD'; readonly auctionId: string } | { readonly type: 'DISMISS' };

/** The auction's audit bundle: fetched with the user's token and saved under the server's name; one at a time; a refusal says why. */
export const bundleMachine = setup({
  types: { context: {} as BundleContext, events: {} as BundleEvent },
  actors: {
    download: fromPromise<string, { auctionId: string }>(async ({ input }) => {
      const file = await fetchAuditBundle(input.auctionId);
      saveFile(file.contents, file.filename);
      return file.filename;
    }),
  },
}).createMachine({
  id: 'auditBundle',
  context: { saved: null, error: null },
  initial: 'idle',
  states: {
    idle: {
      on: {
        DOWNLOAD: { target: 'downloading', actions: assign({ saved: null, error: null }) },
        DISMISS: { actions: assign({ saved: null, error: null }) },
      },
    },
    downloading: {
      invoke: {
        src: 'download',
        input: ({ event }) => ({ auctionId: (event as Extract<BundleEvent, { type: 'DOWNLOAD' }>).auctionId }),
        onDone: { target: 'idle', actions: assign({ saved: ({ event }) => event.output }) },
        onError: { target: 'idle', actions: assign({ error: ({ event }) => `Download failed: ${errorMessage(event.error, 'Network error')}` }) },
      },
    },
  },
});

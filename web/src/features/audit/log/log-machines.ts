import { assign, fromPromise, setup } from 'xstate';
import type { AuditEventPage, AuditReadPage } from '../../../../../api/contracts/audit';
import { errorMessage } from '../../../lib/api-client';
import { saveFile } from '../../../lib/download';
import { createPagedTableMachine } from '../../../lib/paged-table-machine';
import { fetchEventPage, fetchExport, fetchReads, type ExportFormat } from '../api';

/** The page of the log shown: loading, the events, or the server's reason with Try Again; a newer view stops the older request. */
export const logPageMachine = createPagedTableMachine<{ path: string }, AuditEventPage>({
  id: 'auditLogPage',
  what: 'the event log',
  fetchPage: (query, signal) => fetchEventPage(query.path, signal),
});

/** A page of who read the audit routes, newest first. */
export const readsPageMachine = createPagedTableMachine<{ before: number | null }, AuditReadPage>({
  id: 'auditReadsPage',
  what: 'the reads of the log',
  fetchPage: (query, signal) => fetchReads(query.before, signal),
});

interface ExportContext {
  readonly format: ExportFormat | null;
  /** The file last saved, to say so. */
  readonly saved: string | null;
  readonly error: string | null;
}

type ExportEvent = { readonly type: 'EXPORT'; readonly path: string; readonly format: ExportFormat } | { readonly type: 'DISMISS' };

/**
 * An export: the file is fetched with the user's token (a plain link could not send it) and
 * handed to the browser to save under the server's name; one at a time; a refusal says why.
 */
export const exportMachine = setup({
  types: { context: {} as ExportContext, events: {} as ExportEvent },
  actors: {
    exportFile: fromPromise<string, { path: string; format: ExportFormat }>(async ({ input }) => {
      const file = await fetchExport(input.path, input.format);
      saveFile(file.contents, file.filename);
      return file.filename;
    }),
  },
}).createMachine({
  id: 'auditExport',
  context: { format: null, saved: null, error: null },
  initial: 'idle',
  states: {
    idle: {
      on: {
        EXPORT: { target: 'exporting', actions: assign(({ event }) => ({ format: event.format, saved: null, error: null })) },
        DISMISS: { actions: assign({ saved: null, error: null }) },
      },
    },
    exporting: {
      invoke: {
        src: 'exportFile',
        input: ({ event }) => event as Extract<ExportEvent, { type: 'EXPORT' }>,
        onDone: { target: 'idle', actions: assign({ saved: ({ event }) => event.output }) },
        onError: { target: 'idle', actions: assign({ error: ({ event }) => `Export failed: ${errorMessage(event.error, 'Network error')}` }) },
      },
    },
  },
});

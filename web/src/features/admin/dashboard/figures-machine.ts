import { assign, fromPromise, setup, type SnapshotFrom } from 'xstate';
import type { AnalyticsAnswer } from '../../../../../api/contracts/admin/analytics';
import { apiRequest, unlessAborted } from '../../../lib/api-client';

/** The dashboard's header cards read the totals and the NFC share: the shortest series and top list are asked for. */
function fetchDashboardFigures(signal?: AbortSignal): Promise<AnalyticsAnswer> {
  return apiRequest<AnalyticsAnswer>('/api/admin/analytics?days=1&topLots=1', { auth: true, ...(signal ? { signal } : {}) });
}

/** "NFC success": the share of listings that ought to carry a tag and do; "—" when none ought to. */
export function formatShare(share: number | null): string {
  return share === null ? '—' : `${Math.round(share * 100)}%`;
}

/** Loading, then the figures or "Failed to fetch analytics" (with the server's reason) and Try Again. */
export const dashboardFiguresMachine = setup({
  types: {
    context: {} as { figures: AnalyticsAnswer | null; error: string | null },
    events: {} as { type: 'RETRY' },
  },
  actors: {
    loadFigures: fromPromise<AnalyticsAnswer>(({ signal }) => unlessAborted(signal, fetchDashboardFigures)),
  },
}).createMachine({
  id: 'dashboardFigures',
  initial: 'loading',
  context: { figures: null, error: null },
  states: {
    loading: {
      invoke: {
        src: 'loadFigures',
        onDone: { target: 'loaded', actions: assign({ figures: ({ event }) => event.output, error: null }) },
        onError: {
          target: 'failed',
          actions: assign({ error: ({ event }) => `Failed to fetch analytics${event.error instanceof Error ? `: ${event.error.message}` : ''}` }),
        },
      },
    },
    // Read again after a change (the figures shown stay until the new ones arrive), or after a failure.
    loaded: { on: { RETRY: 'loading' } },
    failed: { on: { RETRY: 'loading' } },
  },
});

export type FiguresSnapshot = SnapshotFrom<typeof dashboardFiguresMachine>;

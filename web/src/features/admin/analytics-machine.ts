import { assign, fromPromise, setup } from 'xstate';
import { apiRequest } from '../../lib/api-client';

/** The part of GET /api/admin/analytics the dashboard's header cards read. */
export interface DashboardFigures {
  readonly totals: { readonly totalItems: number; readonly liveItems: number; readonly pendingItems: number };
  readonly nfc: { readonly boundShare: number | null };
  readonly generatedAt: string;
}

export function fetchDashboardFigures(signal?: AbortSignal): Promise<DashboardFigures> {
  return apiRequest<DashboardFigures>('/api/admin/analytics?days=1&topLots=1', { auth: true, ...(signal ? { signal } : {}) });
}

/** "NFC success": the share of listings that ought to carry a tag and do; "—" when none ought to. */
export function formatShare(share: number | null): string {
  return share === null ? '—' : `${Math.round(share * 100)}%`;
}

/**
 * React's StrictMode stops and restarts the machine once, and @xstate/react runs the call again:
 * the first, aborted call must neither resolve nor fail, or its AbortError would reach the
 * restarted machine as a failure.
 */
async function unlessAborted<T>(signal: AbortSignal, call: (signal: AbortSignal) => Promise<T>): Promise<T> {
  try {
    return await call(signal);
  } catch (error) {
    if (signal.aborted) return new Promise<T>(() => {});
    throw error;
  }
}

/** Loading, then the figures or "Failed to fetch analytics" (spec section 8) with Try Again. */
export const dashboardFiguresMachine = setup({
  types: {
    context: {} as { figures: DashboardFigures | null; error: string | null },
    events: {} as { type: 'RETRY' },
  },
  actors: {
    loadFigures: fromPromise<DashboardFigures>(({ signal }) => unlessAborted(signal, fetchDashboardFigures)),
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
    loaded: { on: { RETRY: 'loading' } },
    failed: { on: { RETRY: 'loading' } },
  },
});

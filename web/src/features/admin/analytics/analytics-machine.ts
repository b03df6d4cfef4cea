import { assign, fromPromise, setup } from 'xstate';
import type { AnalyticsAnswer } from '../../../../../api/contracts/admin/analytics';
import { apiRequest, errorMessage, unlessAborted } from '../../../lib/api-client';

/** The periods the selector offers, in days ending today (UTC); the API takes 1 to 365. */
export const PERIODS = [7, 30, 90, 365] as const;
export type Period = (typeof PERIODS)[number];
export const DEFAULT_PERIOD: Period = 30;
/** How many lots the top-lots chart ranks. */
export const TOP_LOTS = 10;

/** The period named in the URL (?days=), so that a reload or a shared link keeps it; 30 days otherwise. */
export function periodOf(search: URLSearchParams): Period {
  const days = Number(search.get('days'));
  return PERIODS.find((period) => period === days) ?? DEFAULT_PERIOD;
}

function fetchAnalytics(days: Period, signal: AbortSignal): Promise<AnalyticsAnswer> {
  return apiRequest<AnalyticsAnswer>(`/api/admin/analytics?days=${days}&topLots=${TOP_LOTS}`, { auth: true, signal });
}

/** Loading, then the figures or "Failed to fetch analytics" (with the server's reason) and Try Again. */
export const analyticsMachine = setup({
  types: {
    context: {} as { days: Period; figures: AnalyticsAnswer | null; error: string | null },
    events: {} as { type: 'RETRY' },
    input: {} as { days: Period },
  },
  actors: {
    loadAnalytics: fromPromise<AnalyticsAnswer, { days: Period }>(({ input, signal }) => unlessAborted(signal, (aborted) => fetchAnalytics(input.days, aborted))),
  },
}).createMachine({
  id: 'analytics',
  initial: 'loading',
  context: ({ input }) => ({ days: input.days, figures: null, error: null }),
  states: {
    loading: {
      invoke: {
        src: 'loadAnalytics',
        input: ({ context }) => ({ days: context.days }),
        onDone: { target: 'loaded', actions: assign({ figures: ({ event }) => event.output, error: null }) },
        onError: { target: 'failed', actions: assign({ error: ({ event }) => `Failed to fetch analytics: ${errorMessage(event.error, 'Network error')}` }) },
      },
    },
    loaded: {},
    failed: { on: { RETRY: 'loading' } },
  },
});

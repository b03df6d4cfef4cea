import type { AuctionTimeline, TimelineStep, TimelineSummary } from '../../../../../api/contracts/audit';
import { formatUsd } from '../../../lib/money';

/** What the timeline screen shows of the API's steps: the step in the URL, the words for each outcome, the chart's series. */

/** The step ?step= names (the API's step number, from 0), kept within the timeline; the first when absent or unreadable. */
export function readStep(params: URLSearchParams, last: number): number {
  const asked = Number(params.get('step') ?? 0);
  return Number.isInteger(asked) ? Math.min(Math.max(asked, 0), last) : 0;
}

export const OUTCOME_LABELS: Record<TimelineStep['outcome'], string> = {
  SCHEDULED: 'Scheduled',
  OPENED: 'Opened',
  ACCEPTED: 'Bid accepted',
  MAXIMUM_RAISED: 'Maximum raised',
  EXTENDED: 'End extended',
  RETRACTED: 'Bid retracted',
  CLOSED: 'Closed',
  CANCELLED: 'Cancelled',
  REFUSED: 'Refused attempt',
};

export const STATUS_LABELS: Record<TimelineSummary['status'], string> = { PENDING: 'Scheduled', ACTIVE: 'Running', ENDED: 'Ended', CANCELLED: 'Cancelled' };

const utc = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'medium', timeZone: 'UTC' });
const utcClock = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', second: '2-digit', timeZone: 'UTC' });
const utcDay = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });

/** "Nov 25, 2026, 4:02:13 PM UTC": the timeline speaks UTC, as the engine's explanations do. */
export function formatUtc(iso: string): string {
  return `${utc.format(new Date(iso))} UTC`;
}

/** "16:02:13" (UTC), under a step's number on the chart's axis; with the day in front on a chart that spans more than one ("Nov 25 16:02"). */
export function axisTimes(steps: readonly TimelineStep[]): string[] {
  const times = steps.map((step) => Date.parse(step.at));
  const spansDays = Math.max(...times) - Math.min(...times) > 24 * 3600_000;
  return times.map((milliseconds) => {
    const date = new Date(milliseconds);
    return spansDays ? `${utcDay.format(date)} ${utcClock.format(date).slice(0, 5)}` : utcClock.format(date);
  });
}

/** A point of the chart: x is the step's number, so that steps a moment apart stay apart; the axis says when each was. */
export interface ChartPoint {
  readonly x: number;
  readonly y: number;
}

export interface PriceSeries {
  /** The price after each fact of the auction's stream. */
  readonly prices: readonly ChartPoint[];
  /** Each refused attempt at the amount it tried (a buy-now at the price it was judged against). */
  readonly refused: readonly ChartPoint[];
  /** The steps that moved the end. */
  readonly extensions: readonly number[];
  /** The step that closed or cancelled the auction. */
  readonly end: { readonly step: number; readonly cancelled: boolean } | null;
}

export function priceSeries(steps: readonly TimelineStep[]): PriceSeries {
  const ending = steps.find((step) => step.outcome === 'CLOSED' || step.outcome === 'CANCELLED');
  return {
    prices: steps.filter((step) => step.kind === 'EVENT').map((step) => ({ x: step.step, y: step.summary.price })),
    refused: steps.filter((step) => step.kind === 'REFUSED').map((step) => ({ x: step.step, y: step.tried?.amount ?? step.summary.price })),
    extensions: steps.filter((step) => step.outcome === 'EXTENDED').map((step) => step.step),
    end: ending ? { step: ending.step, cancelled: ending.outcome === 'CANCELLED' } : null,
  };
}

/** The chart in words, its accessible name: where the price went, the refusals, the extensions and the end. */
export function priceChartSummary(timeline: AuctionTimeline): string {
  const { prices, refused, extensions, end } = priceSeries(timeline.steps);
  const first = prices[0];
  const ending = end && timeline.steps[end.step];
  const parts = [
    first ? `Price by step: ${formatUsd(first.y)} at the start, ${formatUsd(timeline.summary.price)} after the last step` : 'Price by step',
    `${refused.length} refused ${refused.length === 1 ? 'attempt' : 'attempts'}`,
    `the end extended ${extensions.length} ${extensions.length === 1 ? 'time' : 'times'}`,
  ];
  if (ending) parts.push(`${end.cancelled ? 'cancelled' : 'closed'} at step ${ending.step}, ${formatUtc(ending.at)}`);
  return `${parts.join('; ')}.`;
}

import type { AnalyticsAnswer } from '../../../../../api/contracts/admin/analytics';
import { formatUsd } from '../../../lib/money';

/**
 * What each chart shows, in words: the chart's accessible name, so that a screen reader hears the
 * figures the picture holds (each chart also has its table of figures).
 */

type Series = AnalyticsAnswer['series'];
type TopLot = AnalyticsAnswer['topLots'][number];

const dayFormat = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });

/** "2032-03-01" -> "Mar 1" (the API's days are UTC days). */
export function shortDay(isoDay: string): string {
  return dayFormat.format(new Date(`${isoDay}T00:00:00Z`));
}

const within = (days: number) => (days === 1 ? 'today' : `in the last ${days} days`);

/** The highest point; the earliest of equals. */
function peak<T>(points: readonly T[], value: (point: T) => number): T | undefined {
  return points.reduce<T | undefined>((best, point) => (best === undefined || value(point) > value(best) ? point : best), undefined);
}

export function bidsSummary(series: Series['bidsPerDay']): string {
  const total = series.reduce((sum, day) => sum + day.bids, 0);
  const busiest = peak(series, (day) => day.bids);
  if (!busiest || total === 0) return `Bids per day: no bids ${within(series.length)}.`;
  return `Bids per day ${within(series.length)}: ${total} ${total === 1 ? 'bid' : 'bids'} in total; the busiest day was ${shortDay(busiest.date)} with ${busiest.bids}.`;
}

export function revenueSummary(series: Series['revenuePerDay']): string {
  const total = series.reduce((sum, day) => sum + day.revenue, 0);
  const best = peak(series, (day) => day.revenue);
  if (!best || total === 0) return `Revenue per day: no orders paid ${within(series.length)}.`;
  return `Revenue per day ${within(series.length)}: ${formatUsd(total)} in total; the best day was ${shortDay(best.date)} with ${formatUsd(best.revenue)}.`;
}

export function topLotsSummary(lots: readonly TopLot[]): string {
  if (lots.length === 0) return 'Top lots: no live or sold lots yet.';
  const named = lots.map((lot) => `${lot.title}, ${formatUsd(lot.price)} (${lot.status === 'SOLD' ? 'sold' : 'live'})`);
  return `Top ${lots.length} ${lots.length === 1 ? 'lot' : 'lots'} by price: ${named.join('; ')}.`;
}

import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  Filler,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
  type ChartConfiguration,
} from 'chart.js';
import type { AnalyticsAnswer } from '../../../../../api/contracts/admin/analytics';
import { axis, baseOptions, compactUsd, themeColors, translucent, type ChartColors } from '../../../lib/chart-theme';
import { formatUsd } from '../../../lib/money';
import { shortDay } from './chart-summaries';

/**
 * Chart.js (canvas), loaded by the analytics page when it first draws a chart: this module is a
 * chunk of its own that no other screen downloads, and it holds no React, so the app's shared
 * chunks stay as they are. Only the parts drawn here are registered; the rest of Chart.js is left
 * out of the bundle.
 */
Chart.register(BarController, BarElement, CategoryScale, LinearScale, LineController, LineElement, PointElement, Filler, Tooltip);

export type ChartSpec =
  | { readonly kind: 'bids'; readonly series: AnalyticsAnswer['series']['bidsPerDay'] }
  | { readonly kind: 'revenue'; readonly series: AnalyticsAnswer['series']['revenuePerDay'] }
  | { readonly kind: 'topLots'; readonly lots: AnalyticsAnswer['topLots'] };

/** Characters of a lot's title on the axis: fewer on a phone, where the bars need the room. */
const lotLabelLength = (chartWidth: number) => (chartWidth < 480 ? 14 : 26);

/** A day axis: no vertical grid, labels kept level and thinned out to fit. */
function dayAxis(colors: ChartColors) {
  return { ...axis(colors), grid: { display: false }, ticks: { ...axis(colors).ticks, maxRotation: 0, autoSkipPadding: 12 } };
}

function bidsChart(series: AnalyticsAnswer['series']['bidsPerDay'], colors: ChartColors): ChartConfiguration<'bar'> {
  return {
    type: 'bar',
    data: { labels: series.map((day) => shortDay(day.date)), datasets: [{ label: 'Bids', data: series.map((day) => day.bids), backgroundColor: colors.accent }] },
    options: {
      ...baseOptions(colors),
      scales: { x: dayAxis(colors), y: { ...axis(colors), beginAtZero: true, ticks: { ...axis(colors).ticks, precision: 0 } } },
    },
  };
}

function revenueChart(series: AnalyticsAnswer['series']['revenuePerDay'], colors: ChartColors): ChartConfiguration<'line'> {
  const base = baseOptions(colors);
  return {
    type: 'line',
    data: {
      labels: series.map((day) => shortDay(day.date)),
      datasets: [
        {
          label: 'Revenue',
          data: series.map((day) => day.revenue),
          borderColor: colors.accent,
          backgroundColor: translucent(colors.accent),
          fill: true,
          pointRadius: series.length > 31 ? 0 : 2,
          tension: 0.25,
        },
      ],
    },
    options: {
      ...base,
      interaction: { mode: 'index', intersect: false },
      plugins: { ...base.plugins, tooltip: { ...base.plugins.tooltip, callbacks: { label: (item) => formatUsd(item.parsed.y ?? 0) } } },
      scales: { x: dayAxis(colors), y: { ...axis(colors), beginAtZero: true, ticks: { ...axis(colors).ticks, callback: (value) => compactUsd.format(Number(value)) } } },
    },
  };
}

function topLotsChart(lots: AnalyticsAnswer['topLots'], colors: ChartColors): ChartConfiguration<'bar'> {
  const base = baseOptions(colors);
  return {
    type: 'bar',
    data: { labels: lots.map((lot) => lot.title), datasets: [{ label: 'Price', data: lots.map((lot) => lot.price), backgroundColor: colors.accent }] },
    options: {
      ...base,
      indexAxis: 'y',
      plugins: { ...base.plugins, tooltip: { ...base.plugins.tooltip, callbacks: { label: (item) => formatUsd(item.parsed.x ?? 0) } } },
      scales: {
        x: { ...axis(colors), beginAtZero: true, ticks: { ...axis(colors).ticks, callback: (value) => compactUsd.format(Number(value)) } },
        y: {
          ...axis(colors),
          grid: { display: false },
          ticks: {
            ...axis(colors).ticks,
            // Long titles are cut on the axis; the tooltip, the accessible name and the table give them whole.
            callback(value) {
              const title = this.getLabelForValue(Number(value));
              const length = lotLabelLength(this.chart.width);
              return title.length > length ? `${title.slice(0, length - 1)}…` : title;
            },
          },
        },
      },
    },
  };
}

function configurationOf(spec: ChartSpec, colors: ChartColors): ChartConfiguration<'bar'> | ChartConfiguration<'line'> {
  switch (spec.kind) {
    case 'bids':
      return bidsChart(spec.series, colors);
    case 'revenue':
      return revenueChart(spec.series, colors);
    case 'topLots':
      return topLotsChart(spec.lots, colors);
    default: {
      const unknown: never = spec;
      throw new Error(`Unknown chart ${JSON.stringify(unknown)}`);
    }
  }
}

/** Draws the chart on the canvas in the theme's colours; the answer removes it (before drawing again, or when the page goes). */
export function drawChart(canvas: HTMLCanvasElement, spec: ChartSpec): () => void {
  const chart = new Chart(canvas, configurationOf(spec, themeColors()) as ChartConfiguration);
  return () => chart.destroy();
}

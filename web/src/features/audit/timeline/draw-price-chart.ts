import { Chart, LinearScale, LineController, LineElement, PointElement, Tooltip, type ChartConfiguration, type Plugin } from 'chart.js';
import { axis, baseOptions, compactUsd, themeColors, type ChartColors } from '../../../lib/chart-theme';
import { formatUsd } from '../../../lib/money';
import type { ChartPoint, PriceSeries } from './timeline-view';

/**
 * The timeline's price chart (Chart.js on a canvas), a chunk of its own loaded when the screen
 * first draws it, as the analytics page's charts are. The steps run along x, each labelled with
 * its time (UTC), so that bids a moment apart stay apart; the price after each step is a stepped
 * line, refused attempts are crosses at the amount tried, dashed lines mark the extensions, a
 * solid one the close, and the accent line the step shown.
 */
Chart.register(LinearScale, LineController, LineElement, PointElement, Tooltip);

export interface PriceChartSpec {
  readonly series: PriceSeries;
  /** When each step happened, by step number, as the axis writes it. */
  readonly times: readonly string[];
}

export interface PriceChartHandle {
  /** Moves the current-step line. */
  showStep(step: number): void;
  destroy(): void;
}

function markers(series: PriceSeries, colors: ChartColors, currentStep: () => number): Plugin<'line'> {
  return {
    id: 'timelineMarkers',
    afterDatasetsDraw(chart) {
      const { ctx, chartArea, scales } = chart;
      const vertical = (step: number, color: string, dash: number[], width: number, label?: string) => {
        const x = scales.x!.getPixelForValue(step);
        ctx.save();
        ctx.strokeStyle = color;
        ctx.lineWidth = width;
        ctx.setLineDash(dash);
        ctx.beginPath();
        ctx.moveTo(x, chartArea.top);
        ctx.lineTo(x, chartArea.bottom);
        ctx.stroke();
        if (label) {
          ctx.fillStyle = color;
          ctx.font = `600 12px ${colors.font}`;
          // Written inside the plot, on the side with room.
          const toTheLeft = x > chartArea.right - 80;
          ctx.textAlign = toTheLeft ? 'right' : 'left';
          ctx.fillText(label, x + (toTheLeft ? -4 : 4), chartArea.top + 12);
        }
        ctx.restore();
      };
      for (const step of series.extensions) vertical(step, colors.text, [5, 4], 1.5);
      if (series.end) vertical(series.end.step, colors.text, [], 2, series.end.cancelled ? 'Cancelled' : 'Closed');
      vertical(currentStep(), colors.accent, [], 2);
    },
  };
}

function configuration(spec: PriceChartSpec, colors: ChartColors, currentStep: () => number, onSelect: (step: number) => void): ChartConfiguration<'line', ChartPoint[]> {
  const base = baseOptions(colors);
  return {
    type: 'line',
    data: {
      datasets: [
        {
          label: 'Price',
          data: [...spec.series.prices],
          stepped: 'after',
          borderColor: colors.accent,
          backgroundColor: colors.accent,
          pointRadius: 3,
          pointHoverRadius: 6,
        },
        {
          label: 'Refused attempt',
          data: [...spec.series.refused],
          showLine: false,
          borderColor: colors.danger,
          backgroundColor: colors.danger,
          pointStyle: 'crossRot',
          pointRadius: 7,
          pointHoverRadius: 9,
          borderWidth: 2,
        },
      ],
    },
    options: {
      ...base,
      parsing: false,
      onClick: (_event, elements, chart) => {
        const element = elements[0];
        const point = element && (chart.data.datasets[element.datasetIndex]?.data[element.index] as ChartPoint | undefined);
        if (point) onSelect(point.x);
      },
      plugins: {
        ...base.plugins,
        tooltip: {
          ...base.plugins.tooltip,
          callbacks: {
            title: (items) => {
              const step = items[0] ? (items[0].raw as ChartPoint).x : null;
              return step === null ? '' : `Step ${step} · ${spec.times[step]} UTC`;
            },
            label: (item) => `${item.datasetIndex === 1 ? 'Refused attempt' : 'Price'}: ${formatUsd((item.raw as ChartPoint).y)}`,
          },
        },
      },
      scales: {
        x: {
          ...axis(colors),
          type: 'linear',
          min: 0,
          max: Math.max(spec.times.length - 1, 1),
          offset: true,
          grid: { display: false },
          // Each step's number, and its time under it; thinned out to fit.
          ticks: { ...axis(colors).ticks, stepSize: 1, precision: 0, maxRotation: 0, autoSkipPadding: 20, callback: (value) => [String(value), spec.times[Number(value)] ?? ''] },
        },
        y: { ...axis(colors), grace: '10%', ticks: { ...axis(colors).ticks, callback: (value) => compactUsd.format(Number(value)) } },
      },
    },
    plugins: [markers(spec.series, colors, currentStep)],
  };
}

/** Draws the chart in the theme's colours at `step`; clicking a point selects its step. */
export function drawPriceChart(canvas: HTMLCanvasElement, spec: PriceChartSpec, step: number, onSelect: (step: number) => void): PriceChartHandle {
  let current = step;
  const chart = new Chart(canvas, configuration(spec, themeColors(), () => current, onSelect));
  return {
    showStep(next) {
      current = next;
      chart.draw();
    },
    destroy: () => chart.destroy(),
  };
}

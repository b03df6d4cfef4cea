/**
 * What every Chart.js chart of the app shares: the theme's colours, read when a chart is drawn,
 * and the options and axes in them. Plain objects only: Chart.js itself stays in each chart's own
 * chunk, loaded when the chart is first drawn.
 */

export interface ChartColors {
  readonly accent: string;
  readonly text: string;
  readonly grid: string;
  readonly font: string;
  readonly danger: string;
}

/** The theme's own colours, read when a chart is drawn (the pages draw each chart again when the theme changes). */
export function themeColors(): ChartColors {
  const style = getComputedStyle(document.documentElement);
  const read = (name: string) => style.getPropertyValue(name).trim();
  return { accent: read('--accent'), text: read('--muted'), grid: read('--border'), danger: read('--danger-text'), font: getComputedStyle(document.body).fontFamily };
}

/** A colour at 18% opacity, for the area under a line (the theme's colours are #rrggbb). */
export const translucent = (color: string) => (/^#[0-9a-f]{6}$/i.test(color) ? `${color}2e` : color);

/** Responsive, no legend, the page's font in tooltips; no animation for those who asked for less motion. */
export function baseOptions(colors: ChartColors) {
  const reducedMotion = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
  return {
    responsive: true,
    maintainAspectRatio: false,
    animation: reducedMotion ? (false as const) : { duration: 400 },
    plugins: { legend: { display: false }, tooltip: { titleFont: { family: colors.font }, bodyFont: { family: colors.font } } },
  };
}

/** "$1.2K": dollars on an axis. */
export const compactUsd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', notation: 'compact', maximumFractionDigits: 1 });

export function axis(colors: ChartColors) {
  return { ticks: { color: colors.text, font: { family: colors.font } }, grid: { color: colors.grid }, border: { color: colors.grid } };
}

/**
 * The shape every section of `npm run bench` reports in: a figure measured next to its baseline in
 * the same run, trial by trial, so that a ratio never compares two different moments of a noisy
 * machine.
 */
export interface Trial {
  /** The product's figure in this trial. */
  readonly value: number;
  /** The baseline's figure in the same trial. */
  readonly baseline: number;
}

/** baselineName of a figure judged on its value alone (e.g. a lag with a goal in ms). */
export const NO_BASELINE = '-';

export interface Figure {
  /** One row of the table, e.g. "accepted bids/s, one auction, 32 bidders over HTTP". */
  readonly name: string;
  readonly unit: string;
  /** What the baseline is, e.g. "one INSERT per commit, 32 clients". */
  readonly baselineName: string;
  /** Bids/s: true; latencies: false. Decides how the ratio is taken so that >= 1 is always good... */
  readonly higherIsBetter: boolean;
  /** ...and the goal is stated on that ratio, e.g. 1.0 (as fast as the baseline) or 0.25. */
  readonly goalRatio: number | null;
  /** Or a goal on the value itself, e.g. p99 <= 100 (ms). */
  readonly goalValue?: { readonly atMost?: number; readonly atLeast?: number };
  readonly trials: readonly Trial[];
  /** Extra figures worth reading with this row (p50/p99, RSS at start and end in MiB, ...). */
  readonly details?: Record<string, unknown>;
}

/** Good-is-higher ratio of one trial: value/baseline for rates, baseline/value for costs. */
export function ratioOf(figure: Pick<Figure, 'higherIsBetter'>, trial: Trial): number {
  if (trial.value === 0 || trial.baseline === 0) return 0;
  return figure.higherIsBetter ? trial.value / trial.baseline : trial.baseline / trial.value;
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

export interface FigureSummary {
  readonly name: string;
  readonly unit: string;
  readonly baselineName: string;
  readonly value: { readonly median: number; readonly min: number; readonly max: number };
  readonly baseline: { readonly median: number; readonly min: number; readonly max: number };
  /** Good-is-higher ratios, one per trial, and their median. */
  readonly ratios: readonly number[];
  readonly ratio: number;
  readonly goal: string;
  readonly met: boolean;
  readonly details?: Record<string, unknown>;
}

export function summarise(figure: Figure): FigureSummary {
  const spread = (values: number[]) => ({ median: median(values), min: Math.min(...values), max: Math.max(...values) });
  const ratios = figure.trials.map((trial) => ratioOf(figure, trial));
  const ratio = median(ratios);
  const value = spread(figure.trials.map((trial) => trial.value));
  const goals: string[] = [];
  let met = true;
  if (figure.goalRatio !== null) {
    goals.push(`ratio >= ${figure.goalRatio}`);
    met &&= ratio >= figure.goalRatio;
  }
  if (figure.goalValue?.atMost !== undefined) {
    goals.push(`<= ${figure.goalValue.atMost} ${figure.unit}`);
    met &&= value.median <= figure.goalValue.atMost;
  }
  if (figure.goalValue?.atLeast !== undefined) {
    goals.push(`>= ${figure.goalValue.atLeast} ${figure.unit}`);
    met &&= value.median >= figure.goalValue.atLeast;
  }
  return {
    name: figure.name,
    unit: figure.unit,
    baselineName: figure.baselineName,
    value,
    baseline: spread(figure.trials.map((trial) => trial.baseline)),
    ratios,
    ratio,
    goal: goals.join(' and ') || '-',
    met,
    ...(figure.details ? { details: figure.details } : {}),
  };
}

/** The table `npm run bench` prints and README shows (GitHub markdown). */
export function markdownTable(summaries: readonly FigureSummary[]): string {
  const round = (n: number) => (Number.isFinite(n) ? (Math.abs(n) >= 100 ? Math.round(n).toLocaleString('en-US') : String(Number(n.toPrecision(3)))) : '-');
  const range = (s: FigureSummary['value']) => `${round(s.median)} (${round(s.min)}-${round(s.max)})`;
  const hasBaseline = (s: FigureSummary) => s.baselineName !== NO_BASELINE;
  const lines = [
    '| figure | product, median (range) | baseline | baseline, median (range) | ratio (per trial) | goal | met |',
    '|---|---|---|---|---|---|---|',
    ...summaries.map(
      (s) =>
        `| ${s.name} (${s.unit}) | ${range(s.value)} | ${s.baselineName} | ${hasBaseline(s) ? range(s.baseline) : '-'} | ${hasBaseline(s) ? `${round(s.ratio)}x (${s.ratios.map(round).join(', ')})` : '-'} | ${s.goal} | ${s.met ? 'yes' : 'no'} |`,
    ),
  ];
  return lines.join('\n');
}

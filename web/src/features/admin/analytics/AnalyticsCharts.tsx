import { useEffect, useId, useMemo, useRef, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import type { AnalyticsAnswer } from '../../../../../api/contracts/admin/analytics';
import { listingPath } from '../../../lib/listing';
import { formatUsd } from '../../../lib/money';
import { useTheme } from '../../../lib/theme';
import { bidsSummary, revenueSummary, topLotsSummary } from './chart-summaries';
import type { ChartSpec } from './draw-chart';

const endsAtFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

/**
 * A canvas that Chart.js draws on, once its chunk has loaded (the first chart asks for it; the
 * others share the same download). Its accessible name says in words what it shows; while Chart.js
 * loads the box shimmers, and should it fail to load, the table below still has every figure.
 */
function ChartCanvas({ spec, label, testId, height }: { spec: ChartSpec; label: string; testId: string; height?: number }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const [status, setStatus] = useState<'loading' | 'drawn' | 'failed'>('loading');
  useEffect(() => {
    let erase: (() => void) | undefined;
    let gone = false;
    import('./draw-chart').then(
      ({ drawChart }) => {
        if (gone || !canvas.current) return;
        erase = drawChart(canvas.current, spec);
        setStatus('drawn');
      },
      () => !gone && setStatus('failed'),
    );
    return () => {
      gone = true;
      erase?.();
    };
  }, [spec]);
  return (
    <div className={`analytics__chart${status === 'loading' ? ' skeleton' : ''}`} style={height ? { height } : undefined}>
      {status === 'failed' ? (
        <p className="muted">The chart could not be loaded; the table below has its figures.</p>
      ) : (
        <canvas ref={canvas} role="img" aria-label={label} data-testid={testId} data-drawn={status === 'drawn'} />
      )}
    </div>
  );
}

function ChartCard({ title, children }: { title: string; children: ReactNode }) {
  const ids = useId();
  return (
    <figure className="card analytics__figure" aria-labelledby={`${ids}-title`}>
      <figcaption id={`${ids}-title`} className="analytics__figure-title">
        {title}
      </figcaption>
      {children}
    </figure>
  );
}

/** The figures behind a daily chart, folded away: the chart's text alternative for anyone who wants every number. */
function DailyTable({ caption, column, rows }: { caption: string; column: string; rows: ReadonlyArray<{ date: string; value: string }> }) {
  return (
    <details className="analytics__details">
      <summary>{caption} as a table</summary>
      <div className="analytics__scroll" role="region" aria-label={caption} tabIndex={0}>
        <table className="analytics__table">
          <caption className="visually-hidden">{caption}</caption>
          <thead>
            <tr>
              <th scope="col">Day (UTC)</th>
              <th scope="col">{column}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.date}>
                <th scope="row">{row.date}</th>
                <td>{row.value}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </details>
  );
}

/** Bids and revenue per day over the chosen period, and the top lots by price. */
export function AnalyticsCharts({ figures }: { figures: AnalyticsAnswer }) {
  // A new theme draws every chart again, in its colours.
  const theme = useTheme();
  const { bidsPerDay, revenuePerDay } = figures.series;
  const topLots = figures.topLots;
  // Each chart is drawn again only when its figures change (or, by its key, the theme).
  const bids = useMemo<ChartSpec>(() => ({ kind: 'bids', series: bidsPerDay }), [bidsPerDay]);
  const revenue = useMemo<ChartSpec>(() => ({ kind: 'revenue', series: revenuePerDay }), [revenuePerDay]);
  const lots = useMemo<ChartSpec>(() => ({ kind: 'topLots', lots: topLots }), [topLots]);
  return (
    <div className="analytics__charts">
      <ChartCard title="Bids per day">
        <ChartCanvas key={theme} spec={bids} label={bidsSummary(bidsPerDay)} testId="chart-bids" />
        <DailyTable caption="Bids per day" column="Bids" rows={bidsPerDay.map((day) => ({ date: day.date, value: String(day.bids) }))} />
      </ChartCard>
      <ChartCard title="Revenue per day">
        <ChartCanvas key={theme} spec={revenue} label={revenueSummary(revenuePerDay)} testId="chart-revenue" />
        <DailyTable caption="Revenue per day" column="Revenue" rows={revenuePerDay.map((day) => ({ date: day.date, value: formatUsd(day.revenue) }))} />
      </ChartCard>
      <ChartCard title="Top lots by price">
        {topLots.length === 0 ? (
          <p className="muted">No live or sold lots yet.</p>
        ) : (
          <>
            <ChartCanvas key={theme} spec={lots} label={topLotsSummary(topLots)} testId="chart-top-lots" height={Math.max(160, topLots.length * 34 + 40)} />
            <div className="analytics__scroll" role="region" aria-label="Top lots" tabIndex={0}>
              <table className="analytics__table" data-testid="top-lots">
                <thead>
                  <tr>
                    <th scope="col">#</th>
                    <th scope="col">Lot</th>
                    <th scope="col">Price</th>
                    <th scope="col">Bids</th>
                    <th scope="col">Status</th>
                    <th scope="col">Ends</th>
                  </tr>
                </thead>
                <tbody>
                  {topLots.map((lot, index) => (
                    <tr key={lot.listingId}>
                      <td>{index + 1}</td>
                      <td className="analytics__lot">
                        <Link to={listingPath({ id: lot.listingId, slug: lot.slug })}>{lot.title}</Link>
                      </td>
                      <td className="analytics__number">{formatUsd(lot.price)}</td>
                      <td className="analytics__number">{lot.bidCount}</td>
                      <td>{lot.status === 'SOLD' ? 'Sold' : 'Live'}</td>
                      <td>{endsAtFormat.format(new Date(lot.endsAt))}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </>
        )}
      </ChartCard>
    </div>
  );
}

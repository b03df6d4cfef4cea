import { useMachine } from '@xstate/react';
import { useId } from 'react';
import { useSearchParams } from 'react-router';
import type { AnalyticsAnswer } from '../../../../../api/contracts/admin/analytics';
import { FailedWithRetry } from '../../../components/FailedWithRetry';
import { formatUsd } from '../../../lib/money';
import { BackToDashboard } from '../AdminShell';
import { formatShare } from '../dashboard/figures-machine';
import { AnalyticsCharts } from './AnalyticsCharts';
import { analyticsMachine, DEFAULT_PERIOD, PERIODS, periodOf, type Period } from './analytics-machine';
import './analytics.css';

/** /admin/analytics: sales, listings by stage and the tag pool, then bids, revenue and top lots over the period in the URL (?days=). */
export function AnalyticsPage() {
  const [search, setSearch] = useSearchParams();
  const days = periodOf(search);
  const ids = useId();
  return (
    <>
      <div className="analytics__head">
        <h1 className="admin__title">Analytics</h1>
        <BackToDashboard />
      </div>
      <div className="field analytics__period">
        <label htmlFor={`${ids}-period`}>Period</label>
        <select
          id={`${ids}-period`}
          className="select"
          value={days}
          onChange={(event) => {
            const next = Number(event.target.value) as Period;
            setSearch(next === DEFAULT_PERIOD ? {} : { days: String(next) });
          }}
        >
          {PERIODS.map((period) => (
            <option key={period} value={period}>
              Last {period} days
            </option>
          ))}
        </select>
      </div>
      {/* A new period is a new request: the figures start over from their skeletons. */}
      <AnalyticsFigures key={days} days={days} />
    </>
  );
}

function AnalyticsFigures({ days }: { days: Period }) {
  const [snapshot, send] = useMachine(analyticsMachine, { input: { days } });
  const { figures, error } = snapshot.context;
  if (snapshot.matches('failed')) {
    return <FailedWithRetry message={error} onRetry={() => send({ type: 'RETRY' })} />;
  }
  return (
    <div aria-busy={figures === null}>
      <SalesCards figures={figures} />
      <div className="analytics__counts">
        <CountsCard
          title="Listings by stage"
          rows={
            figures && [
              ['Pending', figures.totals.pendingItems],
              ['Live', figures.totals.liveItems],
              ['Sold', figures.totals.soldItems],
              ['Unsold', figures.totals.unsoldItems],
              ['Withdrawn', figures.totals.withdrawnItems],
              ['Total (not withdrawn)', figures.totals.totalItems],
            ]
          }
        />
        <CountsCard
          title="NFC tag pool"
          rows={
            figures && [
              ['Provisioned', figures.nfc.provisionedTags],
              ['Bound', figures.nfc.boundTags],
              ['Available', figures.nfc.availableTags],
              ['Listings carrying their tag', formatShare(figures.nfc.boundShare)],
            ]
          }
        />
      </div>
      <h2 className="analytics__section-title">Over the last {days} days</h2>
      {figures ? <AnalyticsCharts figures={figures} /> : <ChartSkeletons />}
    </div>
  );
}

function SalesCards({ figures }: { figures: AnalyticsAnswer | null }) {
  const sales = figures?.sales;
  const cards = [
    { label: 'Revenue', value: sales && formatUsd(sales.revenue), hint: 'All time: orders paid in full (hammer, premium, shipping)' },
    { label: 'Items Sold', value: sales && String(sales.itemsSold), hint: 'All time: orders paid in full' },
    { label: 'Average Sale Price', value: sales && (sales.averageSalePrice === null ? '—' : formatUsd(sales.averageSalePrice)), hint: 'Revenue / items sold' },
  ];
  return (
    <div className="analytics__cards">
      {cards.map((card) => (
        <section key={card.label} className="card admin-card" aria-label={card.label}>
          <h2 className="admin-card__label">{card.label}</h2>
          {card.value ? (
            <p className="admin-card__value" data-testid="analytics-figure">
              {card.value}
            </p>
          ) : (
            <div className="skeleton admin-card__skeleton" aria-hidden="true" />
          )}
          <p className="admin-card__hint muted">{card.hint}</p>
        </section>
      ))}
    </div>
  );
}

function CountsCard({ title, rows }: { title: string; rows: ReadonlyArray<readonly [string, number | string]> | null }) {
  const ids = useId();
  return (
    <section className="card analytics__count-card" aria-labelledby={`${ids}-title`}>
      <h2 id={`${ids}-title`} className="analytics__card-title">
        {title}
      </h2>
      {rows ? (
        <dl className="analytics__counts-list">
          {rows.map(([label, value]) => (
            <div key={label}>
              <dt>{label}</dt>
              <dd>{value}</dd>
            </div>
          ))}
        </dl>
      ) : (
        <div className="skeleton analytics__list-skeleton" aria-hidden="true" />
      )}
    </section>
  );
}

function ChartSkeletons() {
  return (
    <div className="analytics__charts" aria-hidden="true">
      {['bids', 'revenue', 'lots'].map((chart) => (
        <div key={chart} className="card analytics__figure">
          <div className="skeleton analytics__title-skeleton" />
          <div className="skeleton analytics__chart-skeleton" />
        </div>
      ))}
    </div>
  );
}

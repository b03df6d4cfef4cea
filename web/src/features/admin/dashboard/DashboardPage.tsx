import { useMachine } from '@xstate/react';
import { lazy, Suspense, useCallback, useId, type ComponentType, type LazyExoticComponent } from 'react';
import { useSearchParams } from 'react-router';
import { Spinner } from '../../../components/Spinner';
import { FailedWithRetry } from '../../../components/FailedWithRetry';
import { dashboardFiguresMachine, formatShare, type FiguresSnapshot } from './figures-machine';
import { DASHBOARD_TABS, tabOf, type DashboardTab, type TabProps } from './tabs';

const TAB_PANELS: Record<DashboardTab, LazyExoticComponent<ComponentType<TabProps>>> = {
  'add-item': lazy(async () => ({ default: (await import('../add-item/AddItemTab')).AddItemTab })),
  'nfc-tags': lazy(async () => ({ default: (await import('../nfc-tags/NfcTagsTab')).NfcTagsTab })),
  manage: lazy(async () => ({ default: (await import('../manage/ManageTab')).ManageTab })),
};

/** The admin dashboard: the header cards with real figures, then the tabs Add Item, NFC Tags and Manage. */
export function DashboardPage() {
  const [search, setSearch] = useSearchParams();
  const current = tabOf(search);
  const ids = useId();
  const Panel = TAB_PANELS[current];
  // One reading of the figures for the header cards and the Manage tab's.
  const [figures, sendFigures] = useMachine(dashboardFiguresMachine);
  const refresh = useCallback(() => sendFigures({ type: 'RETRY' }), [sendFigures]);
  return (
    <>
      <DashboardCards snapshot={figures} onRetry={refresh} />
      <div role="tablist" aria-label="Admin tools" className="admin-tabs">
        {DASHBOARD_TABS.map((tab) => (
          <button
            key={tab.id}
            type="button"
            role="tab"
            id={`${ids}-${tab.id}`}
            aria-selected={tab.id === current}
            aria-controls={`${ids}-panel`}
            className="admin-tabs__tab"
            onClick={() => setSearch({ tab: tab.id })}
          >
            {tab.label}
          </button>
        ))}
      </div>
      <section role="tabpanel" id={`${ids}-panel`} aria-labelledby={`${ids}-${current}`} className="admin-tabs__panel">
        <Suspense fallback={<Spinner label="Loading" />}>
          <Panel figures={figures} onCatalogueChanged={refresh} />
        </Suspense>
      </section>
    </>
  );
}

function DashboardCards({ snapshot, onRetry }: { snapshot: FiguresSnapshot; onRetry: () => void }) {
  const { figures, error } = snapshot.context;
  const cards: Array<{ label: string; value: string | null; hint: string }> = [
    { label: 'Total Items', value: figures ? String(figures.totals.totalItems) : null, hint: 'In the catalogue, not withdrawn' },
    { label: 'NFC Success', value: figures ? formatShare(figures.nfc.boundShare) : null, hint: 'Listings carrying their NFC tag' },
    { label: 'Live Items', value: figures ? String(figures.totals.liveItems) : null, hint: 'At auction now' },
    { label: 'Pending Items', value: figures ? String(figures.totals.pendingItems) : null, hint: 'Drafted or saved, not live yet' },
  ];
  return (
    <>
      <h1 className="admin__title">Dashboard</h1>
      {snapshot.matches('failed') && (
        <FailedWithRetry message={error} onRetry={onRetry} />
      )}
      <div className="admin-cards">
        {cards.map((card) => (
          <section key={card.label} className="card admin-card" aria-label={card.label}>
            <h2 className="admin-card__label">{card.label}</h2>
            {card.value === null ? (
              <div className="skeleton admin-card__skeleton" aria-hidden="true" />
            ) : (
              <p className="admin-card__value" data-testid="admin-figure">
                {card.value}
              </p>
            )}
            <p className="admin-card__hint muted">{card.hint}</p>
          </section>
        ))}
      </div>
    </>
  );
}

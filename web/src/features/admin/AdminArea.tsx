import { lazy, Suspense, type ComponentType } from 'react';
import { Spinner } from '../../components/Spinner';

/**
 * The admin area as the app's route table sees it: one module, so that the app's first chunk knows
 * one admin chunk; each page is its own chunk again, loaded when first visited.
 */
export { AdminShell } from './AdminShell';

function loaded(load: () => Promise<ComponentType>): ComponentType {
  const Page = lazy(async () => ({ default: await load() }));
  return function LoadedPage() {
    return (
      <Suspense fallback={<Spinner label="Loading" />}>
        <Page />
      </Suspense>
    );
  };
}

export const DashboardPage = loaded(async () => (await import('./dashboard/DashboardPage')).DashboardPage);
export const AnalyticsPage = loaded(async () => (await import('./analytics/AnalyticsPage')).AnalyticsPage);
export const BulkImportPage = loaded(async () => (await import('./bulk-import/BulkImportPage')).BulkImportPage);
export const OrdersPage = loaded(async () => (await import('./orders/OrdersPage')).OrdersPage);
export const OrderPage = loaded(async () => (await import('./orders/OrderPage')).OrderPage);

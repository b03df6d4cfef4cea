import { BackToDashboard } from '../AdminShell';

/** /admin/analytics. */
export function AnalyticsPage() {
  return (
    <>
      <h1 className="admin__title">Analytics</h1>
      <BackToDashboard />
    </>
  );
}

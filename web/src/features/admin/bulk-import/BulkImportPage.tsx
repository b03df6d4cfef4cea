import { BackToDashboard } from '../AdminShell';

/** /admin/bulk-import. */
export function BulkImportPage() {
  return (
    <>
      <h1 className="admin__title">Bulk Import</h1>
      <BackToDashboard />
    </>
  );
}

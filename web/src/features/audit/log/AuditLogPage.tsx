import { useMachine } from '@xstate/react';
import { useEffect, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { Banner } from '../../../components/Banner';
import { FailedWithRetry } from '../../../components/FailedWithRetry';
import { exportPath, firstPage, pagePath, readLogView, writeLogView, type LogView } from './log-view';
import { EventsTable } from './EventsTable';
import { exportMachine, logPageMachine } from './log-machines';
import { LogFilterForm } from './LogFilterForm';
import { WhoReadTheLog } from './WhoReadTheLog';
import '../audit.css';

/**
 * /audit: the event log, filtered as the URL says, a page at a time in log order; any event's
 * correlation across streams; the whole match exported as CSV or NDJSON.
 */
export function AuditLogPage() {
  const [params, setParams] = useSearchParams();
  const view = useMemo(() => readLogView(params), [params]);
  const query = useMemo(() => ({ path: pagePath(view) }), [view]);
  const [page, sendPage] = useMachine(logPageMachine, { input: { query } });
  const [exporting, sendExport] = useMachine(exportMachine);

  useEffect(() => {
    sendPage({ type: 'QUERY_CHANGED', query });
  }, [query, sendPage]);

  const show = (next: LogView) => setParams(writeLogView(next));
  const { answer, error } = page.context;
  const loading = page.matches('loading');
  const busyExporting = exporting.matches('exporting');

  return (
    <div className="audit">
      <h1 className="admin__title">Audit log</h1>
      <p className="muted audit__intro">Every event the product recorded, in the order it was recorded. Times are your local time.</p>

      {view.correlation ? (
        <Banner kind="info">
          Every event of correlation <code data-testid="correlation-id">{view.correlation}</code>, across streams.{' '}
          <button type="button" className="button audit__back" onClick={() => show({ ...firstPage(view), correlation: null })}>
            Back to the filters
          </button>
        </Banner>
      ) : (
        <LogFilterForm view={view} onApply={show} />
      )}

      <div className="audit__toolbar">
        <p className="admin-count" role="status" data-testid="event-count">
          {loading && !answer ? 'Loading events…' : answer ? pageCount(answer.events.length, view) : ''}
        </p>
        <div className="audit__exports" role="group" aria-label="Export what this view matches">
          <button type="button" className="button" disabled={busyExporting} onClick={() => sendExport({ type: 'EXPORT', path: exportPath(view, 'csv'), format: 'csv' })}>
            {busyExporting && exporting.context.format === 'csv' ? 'Exporting…' : 'Export CSV'}
          </button>
          <button type="button" className="button" disabled={busyExporting} onClick={() => sendExport({ type: 'EXPORT', path: exportPath(view, 'ndjson'), format: 'ndjson' })}>
            {busyExporting && exporting.context.format === 'ndjson' ? 'Exporting…' : 'Export NDJSON'}
          </button>
        </div>
      </div>
      {exporting.context.error && (
        <Banner kind="error" onDismiss={() => sendExport({ type: 'DISMISS' })}>
          {exporting.context.error}
        </Banner>
      )}
      {exporting.context.saved && (
        <Banner kind="success" onDismiss={() => sendExport({ type: 'DISMISS' })}>
          Saved {exporting.context.saved}
        </Banner>
      )}

      {page.matches('failed') && <FailedWithRetry message={error} onRetry={() => sendPage({ type: 'RETRY' })} />}

      <EventsTable key={query.path} events={answer?.events ?? null} loading={loading} view={view} />
      {answer && answer.events.length === 0 && (
        <p className="audit__empty muted">{answer.next ? 'No matching events on this page; there are more further on.' : view.after ? 'No more events.' : 'No events match.'}</p>
      )}

      <nav className="admin-pager" aria-label="Event log pages">
        <button type="button" className="button" disabled={loading || !view.after} onClick={() => show(firstPage(view))}>
          ← First page
        </button>
        <button type="button" className="button" disabled={loading || !answer?.next} onClick={() => answer?.next && show({ ...view, after: answer.next })}>
          Next page →
        </button>
      </nav>

      <WhoReadTheLog />
    </div>
  );
}

function pageCount(shown: number, view: LogView): string {
  const events = `${shown} ${shown === 1 ? 'event' : 'events'}`;
  return view.after ? `${events} on this page, after position ${view.after}` : `${events} on the first page`;
}

import { useMachine } from '@xstate/react';
import { useEffect, useMemo, useState } from 'react';
import { FailedWithRetry } from '../../../components/FailedWithRetry';
import { SkeletonRows, TableRegion } from '../../../components/TableParts';
import { dateTimeWithSeconds, shortId } from '../format';
import { readsPageMachine } from './log-machines';

/** Auditing the auditors: every read of the audit routes (who, what, when), read only when the section is opened. */
export function WhoReadTheLog() {
  const [open, setOpen] = useState(false);
  return (
    <details className="card audit-reads" onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary className="audit-reads__summary">Who read the log</summary>
      {open && <ReadsTable />}
    </details>
  );
}

function ReadsTable() {
  // Older pages by the previous page's `next`; the newest first again when the section reopens.
  const [pages, setPages] = useState<ReadonlyArray<number | null>>([null]);
  const query = useMemo(() => ({ before: pages.at(-1) ?? null }), [pages]);
  const [snapshot, send] = useMachine(readsPageMachine, { input: { query } });
  useEffect(() => {
    send({ type: 'QUERY_CHANGED', query });
  }, [query, send]);
  const { answer, error } = snapshot.context;
  const loading = snapshot.matches('loading');
  return (
    <div className="audit-reads__body">
      <p className="muted audit-reads__intro">Each read of the audit routes, newest first, this one included.</p>
      {snapshot.matches('failed') && <FailedWithRetry message={error} onRetry={() => send({ type: 'RETRY' })} />}
      <TableRegion label="Reads of the log" busy={loading}>
        <table>
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Reader</th>
              <th scope="col">Route</th>
              <th scope="col">What was asked</th>
            </tr>
          </thead>
          <tbody>
            {answer ? (
              answer.reads.map((read) => (
                <tr key={read.id} data-testid="audit-read">
                  <td className="admin-table__nowrap">
                    <time dateTime={read.at}>{dateTimeWithSeconds.format(new Date(read.at))}</time>
                  </td>
                  <td className="admin-table__mono" title={read.userId}>
                    {shortId(read.userId)}
                  </td>
                  <td className="admin-table__mono">{read.route}</td>
                  <td className="audit-reads__asked">
                    <code>{JSON.stringify({ ...read.params, ...read.query })}</code>
                  </td>
                </tr>
              ))
            ) : loading ? (
              <SkeletonRows rows={3} columns={4} />
            ) : null}
          </tbody>
        </table>
      </TableRegion>
      <nav className="admin-pager" aria-label="Pages of reads">
        <button type="button" className="button" disabled={loading || pages.length === 1} onClick={() => setPages([null])}>
          ← Newest
        </button>
        <button type="button" className="button" disabled={loading || !answer?.next} onClick={() => answer?.next && setPages([...pages, answer.next])}>
          Older →
        </button>
      </nav>
    </div>
  );
}

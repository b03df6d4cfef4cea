import { Fragment, useState } from 'react';
import { Link } from 'react-router';
import type { AuditEvent } from '../../../../../api/contracts/audit';
import { SkeletonRows, TableRegion } from '../../../components/TableParts';
import { auctionTimelinePath } from '../../../lib/audit-links';
import { dateTimeWithSeconds, shortId } from '../format';
import { auctionOfStream, firstPage, metadataOf, NO_FILTER, writeLogView, type LogView } from './log-view';

const COLUMNS = 7;

/** The page's events in log order; each row opens onto its data and metadata, pretty-printed. */
export function EventsTable({ events, loading, view }: { events: readonly AuditEvent[] | null; loading: boolean; view: LogView }) {
  // Which rows are open: a new page is a new table (its key), every row closed.
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const toggle = (position: string) =>
    setOpen((current) => {
      const next = new Set(current);
      if (!next.delete(position)) next.add(position);
      return next;
    });
  // A link to the same screen showing only what one cell names (a stream, an actor, a correlation).
  const only = (change: Partial<LogView>) => `?${writeLogView({ ...firstPage(view), filter: NO_FILTER, correlation: null, ...change })}`;

  return (
    <TableRegion label="Events" busy={loading}>
      <table className="audit-events">
        <thead>
          <tr>
            <th scope="col">Position</th>
            <th scope="col">Recorded at</th>
            <th scope="col">Stream</th>
            <th scope="col">Revision</th>
            <th scope="col">Type</th>
            <th scope="col">Actor</th>
            <th scope="col">Links</th>
          </tr>
        </thead>
        <tbody>
          {events ? (
            events.map((event) => {
              const { actorId, correlationId } = metadataOf(event.metadata);
              const auctionId = auctionOfStream(event.streamId);
              const expanded = open.has(event.position);
              const detailsId = `event-${event.position.replace('/', '-')}`;
              return (
                <Fragment key={event.position}>
                  <tr data-testid="audit-event">
                    <td className="admin-table__nowrap">
                      <button type="button" className="audit-events__toggle" aria-expanded={expanded} aria-controls={expanded ? detailsId : undefined} onClick={() => toggle(event.position)}>
                        <span aria-hidden="true">{expanded ? '▾' : '▸'}</span> <span className="admin-table__mono">{event.position}</span>
                        <span className="visually-hidden"> details</span>
                      </button>
                    </td>
                    <td className="admin-table__nowrap">
                      <time dateTime={event.recordedAt}>{dateTimeWithSeconds.format(new Date(event.recordedAt))}</time>
                    </td>
                    <td className="audit-events__stream">
                      <Link to={only({ filter: { ...NO_FILTER, stream: event.streamId } })} title="Only this stream">
                        {event.streamId}
                      </Link>
                    </td>
                    <td className="audit-events__number">{event.revision}</td>
                    <td className="admin-table__mono">{event.type}</td>
                    <td className="admin-table__nowrap">
                      {actorId ? (
                        <Link to={only({ filter: { ...NO_FILTER, actor: actorId } })} title={actorId} className="admin-table__mono">
                          {shortId(actorId)}
                          <span className="visually-hidden"> (only this actor’s events)</span>
                        </Link>
                      ) : (
                        <span className="muted">—</span>
                      )}
                    </td>
                    <td>
                      <div className="audit-events__links">
                        {correlationId && correlationId !== view.correlation && (
                          <Link className="button audit-events__button" to={only({ correlation: correlationId })} data-testid="show-correlation">
                            Show this correlation
                          </Link>
                        )}
                        {auctionId && (
                          <Link className="button audit-events__button" to={auctionTimelinePath(auctionId)}>
                            Timeline
                          </Link>
                        )}
                      </div>
                    </td>
                  </tr>
                  {expanded && (
                    <tr id={detailsId} className="audit-events__details">
                      <td colSpan={COLUMNS}>
                        <pre data-testid="event-json">{JSON.stringify({ data: event.data, metadata: event.metadata }, null, 2)}</pre>
                      </td>
                    </tr>
                  )}
                </Fragment>
              );
            })
          ) : loading ? (
            <SkeletonRows rows={6} columns={COLUMNS} />
          ) : null}
        </tbody>
      </table>
    </TableRegion>
  );
}

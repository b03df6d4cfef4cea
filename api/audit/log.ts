import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify';
import { parsePosition, positionToString, type EventStore, type LogQuery, type RecordedEvent } from '../../engine/eventstore/port';
import { isProductEvent } from '../../engine/domain';
import { AUDIT_CSV_COLUMNS, type AuditEvent, type AuditEventPage, type LogFilter } from '../contracts/audit';

/** Events per read of the store while exporting: memory stays flat whatever the log's size. */
const EXPORT_PAGE = 1000;

export function toLogQuery(filter: LogFilter, paging: { after?: string | undefined; limit: number }): LogQuery {
  return {
    ...(filter.stream === undefined ? {} : { stream: filter.stream }),
    ...(filter.category === undefined ? {} : { category: filter.category }),
    ...(filter.type === undefined || filter.type.length === 0 ? {} : { types: filter.type }),
    ...(filter.from === undefined ? {} : { from: new Date(filter.from) }),
    ...(filter.to === undefined ? {} : { to: new Date(filter.to) }),
    ...(filter.actor === undefined ? {} : { actorId: filter.actor }),
    ...(filter.correlationId === undefined ? {} : { correlationId: filter.correlationId }),
    ...(paging.after === undefined ? {} : { after: parsePosition(paging.after) }),
    limit: paging.limit,
  };
}

export function presentEvent(event: RecordedEvent): AuditEvent {
  return {
    position: positionToString(event.position),
    streamId: event.streamId,
    revision: event.revision,
    type: event.type,
    data: event.data,
    metadata: event.metadata,
    recordedAt: event.recordedAt.toISOString(),
  };
}

/** Only this product's events (isProductEvent): a page may hold fewer than the limit; `next` still goes on from the last read. */
export async function queryLogPage(store: EventStore, query: LogQuery): Promise<AuditEventPage> {
  const page = await store.queryLog(query);
  return { events: page.events.filter(isProductEvent).map(presentEvent), next: page.next === null ? null : positionToString(page.next) };
}

/** Every matching event, one page of the store at a time, as the consumer pulls them. */
async function* matchingEvents(store: EventStore, query: LogQuery): AsyncGenerator<AuditEvent> {
  let next: LogQuery = { ...query, limit: EXPORT_PAGE };
  for (;;) {
    const page = await store.queryLog(next);
    for (const event of page.events.filter(isProductEvent)) yield presentEvent(event);
    if (page.next === null) return;
    next = { ...next, after: page.next };
  }
}

/** One JSON event per line. */
export function exportNdjson(store: EventStore, query: LogQuery): Readable {
  return Readable.from(
    (async function* () {
      for await (const event of matchingEvents(store, query)) yield `${JSON.stringify(event)}\n`;
    })(),
  );
}

/**
 * RFC 4180 (CRLF, quoted where needed) with csv-stringify; cells that a spreadsheet would run as a
 * formula (starting with = + - @ tab or CR) are prefixed with ' by its escape_formulas.
 */
export function exportCsv(store: EventStore, query: LogQuery): Readable {
  const rows = Readable.from(
    (async function* () {
      for await (const event of matchingEvents(store, query)) yield csvRow(event);
    })(),
  );
  const csv = stringify({ header: true, columns: [...AUDIT_CSV_COLUMNS], record_delimiter: 'windows', escape_formulas: true });
  rows.on('error', (error) => csv.destroy(error));
  return rows.pipe(csv);
}

function csvRow(event: AuditEvent): Record<(typeof AUDIT_CSV_COLUMNS)[number], string | number> {
  const metadata = (event.metadata ?? {}) as { actorId?: unknown; correlationId?: unknown };
  return {
    position: event.position,
    streamId: event.streamId,
    revision: event.revision,
    type: event.type,
    recordedAt: event.recordedAt,
    actorId: typeof metadata.actorId === 'string' ? metadata.actorId : '',
    correlationId: typeof metadata.correlationId === 'string' ? metadata.correlationId : '',
    data: JSON.stringify(event.data),
    metadata: JSON.stringify(event.metadata),
  };
}

/** e.g. provenance-log-auction-2026-11-25T16-02-00Z.csv: only characters safe in any header. */
export function exportFilename(filter: LogFilter, format: 'ndjson' | 'csv', now: Date): string {
  const scope = filter.stream ?? filter.category ?? filter.correlationId ?? 'all';
  const stamp = now.toISOString().replace(/\.\d+Z$/, 'Z').replaceAll(':', '-');
  const safeScope = scope.replace(/[^A-Za-z0-9_-]+/g, '_').slice(0, 80);
  return `provenance-log-${safeScope}-${stamp}.${format}`;
}

import type { LogQuery, LogQueryPage, RecordedEvent } from './port';

/** What every adapter refuses before reading. */
export function validateLogQuery(query: LogQuery): void {
  if (!Number.isSafeInteger(query.limit) || query.limit < 1) throw new RangeError(`A log query's limit must be a whole number of at least 1, not ${query.limit}`);
  for (const [name, time] of [['from', query.from], ['to', query.to]] as const) {
    if (time !== undefined && Number.isNaN(time.getTime())) throw new RangeError(`A log query's ${name} must be a valid time`);
  }
}

/** The part of a stream id before its first "-"; null for an id without one (it has no category). */
function categoryOf(streamId: string): string | null {
  const dash = streamId.indexOf('-');
  return dash === -1 ? null : streamId.slice(0, dash);
}

function metadataText(metadata: unknown, key: string): string | undefined {
  if (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata)) return undefined;
  const value: unknown = (metadata as Record<string, unknown>)[key];
  return typeof value === 'string' ? value : undefined;
}

/** Every filter of the query but `after` and `limit`: what an adapter that filters as it reads checks. */
export function matchesLogQuery(event: RecordedEvent, query: LogQuery): boolean {
  return (
    (query.stream === undefined || event.streamId === query.stream) &&
    (query.category === undefined || categoryOf(event.streamId) === query.category) &&
    (query.types === undefined || query.types.includes(event.type)) &&
    (query.from === undefined || event.recordedAt.getTime() >= query.from.getTime()) &&
    (query.to === undefined || event.recordedAt.getTime() < query.to.getTime()) &&
    (query.actorId === undefined || metadataText(event.metadata, 'actorId') === query.actorId) &&
    (query.correlationId === undefined || metadataText(event.metadata, 'correlationId') === query.correlationId)
  );
}

/**
 * The page for matches read up to limit + 1 (or to the end of the log): one more than the limit
 * says that a next page exists, and it starts after the last event returned.
 */
export function pageOfMatches(matches: readonly RecordedEvent[], limit: number): LogQueryPage {
  if (matches.length <= limit) return { events: [...matches], next: null };
  const events = matches.slice(0, limit);
  return { events, next: events.at(-1)!.position };
}

import { IdempotencyConflictError, type AppendRequest, type NewEvent } from './port';

export interface StoredIdentity {
  readonly id: string;
  readonly streamId: string;
  readonly revision: number;
}

/**
 * Decides whether a batch was already appended. Returns the stored identity of the batch's last
 * event when every event id is stored, contiguously and in order, in the same stream (a retry);
 * null when none is stored (a new append); throws when the batch only partly overlaps.
 */
export function findRetriedBatch<Identity extends StoredIdentity>(
  streamId: string,
  events: readonly NewEvent[],
  stored: ReadonlyMap<string, Identity>,
): Identity | null {
  const found = events.map((event) => stored.get(event.id));
  if (found.every((identity) => identity === undefined)) return null;
  const overlapping = events.filter((_, index) => found[index] !== undefined).map((event) => event.id);
  const first = found[0];
  const isExactRetry =
    first !== undefined &&
    found.every(
      (identity, index) => identity !== undefined && identity.streamId === streamId && identity.revision === first.revision + index,
    );
  if (!isExactRetry) throw new IdempotencyConflictError(streamId, overlapping);
  return found.at(-1)!;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What every adapter refuses before touching storage. */
export function validateAppendRequests(requests: readonly AppendRequest[]): void {
  if (requests.length === 0) throw new TypeError('Nothing to append: no streams given');
  const streams = new Set<string>();
  const ids = new Set<string>();
  for (const { streamId, events } of requests) {
    if (streamId.length === 0) throw new TypeError('A stream id cannot be empty');
    if (streams.has(streamId)) throw new TypeError(`Stream ${streamId} appears twice in one append`);
    streams.add(streamId);
    if (events.length === 0) throw new TypeError(`Nothing to append to ${streamId}`);
    for (const event of events) {
      if (!UUID.test(event.id)) throw new TypeError(`Event id ${event.id} is not a UUID`);
      if (ids.has(event.id)) throw new TypeError(`Event id ${event.id} appears twice in one append`);
      ids.add(event.id);
    }
  }
}

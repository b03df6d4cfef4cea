import { comparePositions, IdempotencyConflictError, type AppendRequest, type AppendResult, type NewEvent } from './port';

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
  if (requests.every((request) => request.events.length === 0)) throw new TypeError('Nothing to append: every stream given is a check');
  for (const { streamId, events, expectedRevision } of requests) {
    if (streamId.length === 0) throw new TypeError('A stream id cannot be empty');
    if (streams.has(streamId)) throw new TypeError(`Stream ${streamId} appears twice in one append`);
    streams.add(streamId);
    if (events.length === 0 && typeof expectedRevision !== 'number') {
      throw new TypeError(`A check of ${streamId} (no events) needs the revision it expects, not ${expectedRevision}`);
    }
    for (const event of events) {
      if (!UUID.test(event.id)) throw new TypeError(`Event id ${event.id} is not a UUID`);
      // A hash covers an absent value as null (event-hash.ts): every adapter must store what it hashed.
      if (event.data === undefined || event.metadata === undefined) throw new TypeError(`Event ${event.id} has no data or metadata (give null for none)`);
      if (ids.has(event.id)) throw new TypeError(`Event id ${event.id} appears twice in one append`);
      ids.add(event.id);
    }
  }
}

/**
 * The results of an append in request order, given those of its streams with events (written, or
 * already stored by a retry): each check is answered with the revision it held and the last of
 * their positions, the append's end.
 */
export function withChecksAnswered(requests: readonly AppendRequest[], results: ReadonlyMap<string, AppendResult>): AppendResult[] {
  if (requests.length === results.size) return requests.map((request) => results.get(request.streamId)!);
  const end = [...results.values()].map((result) => result.position).sort(comparePositions).at(-1);
  return requests.map((request) => {
    const result = results.get(request.streamId);
    if (result !== undefined) return result;
    if (request.events.length > 0 || typeof request.expectedRevision !== 'number' || end === undefined) {
      throw new Error(`No result for the append to ${request.streamId}`);
    }
    return { streamId: request.streamId, nextExpectedRevision: request.expectedRevision, position: end, chain: [] };
  });
}

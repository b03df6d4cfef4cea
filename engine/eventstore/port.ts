/**
 * The event store port. Three adapters implement it (in-memory, Postgres/PGlite, KurrentDB) and
 * one contract suite (test/eventstore/contract.ts) holds them all to the same behaviour.
 */

/** Revision of the last event a writer has seen; revisions start at 0 like KurrentDB's. */
export type ExpectedRevision = 'any' | 'no_stream' | 'stream_exists' | number;

/**
 * An event to append. Not to be changed once sent: its hash is worked out once per event object and
 * place (event-hash.ts's chainHashes).
 */
export interface NewEvent {
  /** A UUID. Appending an event id that is already stored is a no-op (idempotent retry). */
  readonly id: string;
  readonly type: string;
  readonly data: unknown;
  readonly metadata: unknown;
}

/**
 * A place in the global log. Two numbers, as in KurrentDB: `commit` orders transactions, `prepare`
 * orders events inside one. Compare with comparePositions; store with positionToString.
 */
export interface LogPosition {
  readonly commit: bigint;
  readonly prepare: bigint;
}

export interface RecordedEvent {
  readonly streamId: string;
  readonly revision: number;
  readonly position: LogPosition;
  readonly id: string;
  readonly type: string;
  readonly data: unknown;
  readonly metadata: unknown;
  readonly recordedAt: Date;
  /**
   * SHA-256 of the event's RFC 8785 bytes, its previous hash included (engine/integrity/event-hash):
   * each stream is a hash chain. Null only for an event KurrentDB stored before events were hashed
   * (its events cannot be changed; Postgres stores got theirs by migration).
   */
  readonly hash: string | null;
  /** The hash of the event before it in its stream; null for the first. */
  readonly previousHash: string | null;
}

/** An event's place in its stream's hash chain, as an append answers it. */
export interface ChainLink {
  readonly id: string;
  readonly revision: number;
  readonly hash: string;
  readonly previousHash: string | null;
}

export interface AppendRequest {
  readonly streamId: string;
  /**
   * None: a check. The append happens only if this stream is at `expectedRevision` (a revision
   * number), and writes nothing to it: a decision that appends to other streams only (a refused
   * bid's record) proves the state it was decided against.
   */
  readonly events: readonly NewEvent[];
  readonly expectedRevision: ExpectedRevision;
}

export interface AppendResult {
  readonly streamId: string;
  /** The revision of the stream's last event after the append: pass it as the next expected revision. */
  readonly nextExpectedRevision: number;
  /**
   * Position of the last event this append wrote, in any of its streams: a reader that has reached
   * it has read the whole append. For a stream whose batch was already stored (a retry), of that
   * batch's last event; for a check, the append's (or, when it wrote nothing new, the stored
   * batches') last.
   */
  readonly position: LogPosition;
  /** This stream's events the append stored (for a retry, had stored), in order; empty for a check. */
  readonly chain: readonly ChainLink[];
}

export interface ReadStreamOptions {
  readonly fromRevision?: number;
  readonly maxCount?: number;
}

export interface ReadAllOptions {
  /** Exclusive: events strictly after this position. Omit to read from the start. */
  readonly after?: LogPosition;
  readonly maxCount?: number;
}

/**
 * A filter over the global log, for auditors. Every field narrows the result (they combine with
 * AND); `types` matches any of its types. Times compare with each event's recordedAt.
 */
export interface LogQuery {
  /** One stream, exactly. */
  readonly stream?: string;
  /** Streams whose id starts with `${category}-` (the part before the first "-", e.g. "auction"). */
  readonly category?: string;
  readonly types?: readonly string[];
  /** Inclusive. */
  readonly from?: Date;
  /** Exclusive. */
  readonly to?: Date;
  /** metadata.actorId */
  readonly actorId?: string;
  /** metadata.correlationId */
  readonly correlationId?: string;
  /** Exclusive: events strictly after this position. */
  readonly after?: LogPosition;
  /** At most this many events (at least 1). */
  readonly limit: number;
}

export interface LogQueryPage {
  /** Matching events in log order, at most `limit`. */
  readonly events: RecordedEvent[];
  /**
   * Where the next page starts (pass it as `after`), or null once the end of the log was reached.
   * A page may hold fewer than `limit` events and still have a `next`: an adapter that filters as it
   * reads stops after a bounded scan, so that one request never reads the whole log.
   */
  readonly next: LogPosition | null;
}

export interface SubscribeOptions {
  /** Exclusive. 'start' replays the whole log; 'end' delivers only what is appended from now on. */
  readonly after: LogPosition | 'start' | 'end';
  readonly signal?: AbortSignal;
  /** At most this many events in one batch; 500 when not given. A replay of the whole log takes more. */
  readonly maxBatchSize?: number | undefined;
}

/**
 * A running catch-up subscription. Batches arrive in log order, one at a time: the next batch waits
 * until the handler's promise settles, so a projection can store its checkpoint with its rows.
 */
export interface Subscription {
  stop(): Promise<void>;
  /** Settles when the subscription stops; rejects if the handler threw (the subscription stops then). */
  readonly done: Promise<void>;
}

export type BatchHandler = (events: readonly RecordedEvent[]) => Promise<void>;

export interface EventStore {
  appendToStream(streamId: string, events: readonly NewEvent[], options: { expectedRevision: ExpectedRevision }): Promise<AppendResult>;
  /** All or nothing: every stream's expected revision holds (checks included) and all events are written, or none is. */
  appendToStreams(requests: readonly AppendRequest[]): Promise<AppendResult[]>;
  /** Events of one stream in revision order; an empty array when the stream does not exist. */
  readStream(streamId: string, options?: ReadStreamOptions): Promise<RecordedEvent[]>;
  /** The global log in order. */
  readAll(options?: ReadAllOptions): Promise<RecordedEvent[]>;
  /**
   * The settled log filtered for auditors, one page at a time. Like readAll it returns only what
   * no open transaction can still precede, so paging with `next` never skips an event.
   */
  queryLog(query: LogQuery): Promise<LogQueryPage>;
  subscribeToAll(options: SubscribeOptions, handler: BatchHandler): Subscription;
  /**
   * Position of the newest committed event, or null for an empty log. It may not be readable yet
   * (on Postgres, while an older transaction is still open); a subscriber reaches it once it is.
   */
  headPosition(): Promise<LogPosition | null>;
  close(): Promise<void>;
}

export class WrongExpectedRevisionError extends Error {
  override readonly name = 'WrongExpectedRevisionError';
  constructor(
    readonly streamId: string,
    readonly expected: ExpectedRevision,
    /** The stream's current revision; null when it does not exist; undefined when the store did not say. */
    readonly actual: number | null | undefined,
  ) {
    super(`Stream ${streamId}: expected revision ${String(expected)}, actual ${actual === undefined ? 'unknown' : String(actual)}`);
  }
}

/** A retried batch whose event ids only partly match what is stored: not a retry, a mistake. */
export class IdempotencyConflictError extends Error {
  override readonly name = 'IdempotencyConflictError';
  constructor(readonly streamId: string, readonly eventIds: readonly string[]) {
    super(`Stream ${streamId}: the batch partly overlaps events already stored (${eventIds.join(', ')})`);
  }
}

export const START: LogPosition = { commit: -1n, prepare: -1n };

export function comparePositions(a: LogPosition, b: LogPosition): number {
  if (a.commit !== b.commit) return a.commit < b.commit ? -1 : 1;
  if (a.prepare !== b.prepare) return a.prepare < b.prepare ? -1 : 1;
  return 0;
}

export function positionToString(position: LogPosition): string {
  return `${position.commit}/${position.prepare}`;
}

export function parsePosition(text: string): LogPosition {
  const match = /^(-?\d+)\/(-?\d+)$/.exec(text);
  if (!match) throw new Error(`Not a log position: ${text}`);
  return { commit: BigInt(match[1]!), prepare: BigInt(match[2]!) };
}

export function revisionMatches(expected: ExpectedRevision, actual: number | null): boolean {
  if (expected === 'any') return true;
  if (expected === 'no_stream') return actual === null;
  if (expected === 'stream_exists') return actual !== null;
  return actual === expected;
}

import { findRetriedBatch, validateAppendRequests, type StoredIdentity } from '../idempotency';
import {
  WrongExpectedRevisionError,
  type AppendRequest,
  type AppendResult,
  type BatchHandler,
  type EventStore,
  type ExpectedRevision,
  type LogPosition,
  type NewEvent,
  type ReadAllOptions,
  type ReadStreamOptions,
  type RecordedEvent,
  type SubscribeOptions,
  type Subscription,
} from '../port';
import { ChangeSignal, runSubscription, type SubscriptionSource } from '../subscription-loop';
import { ensureEventStoreSchema } from './schema';
import type { SqlClient, SqlQueryable } from '../../postgres/sql-client';

export interface PostgresEventStoreOptions {
  /** NOTIFY channel that announces appends; stores sharing a database must share it. */
  readonly channel?: string;
  /** Look again this often even without an announcement (a lost notification, a rolled-back writer). */
  readonly idlePollMs?: number;
}

interface EventRow {
  stream_id: string;
  stream_revision: string | number;
  commit_position: string;
  prepare_position: string;
  event_id: string;
  event_type: string;
  data: unknown;
  metadata: unknown;
  recorded_at: Date | string;
}

interface StoredRow {
  event_id: string;
  stream_id: string;
  stream_revision: string | number;
  commit_position: string;
  prepare_position: string;
}

/**
 * Positions travel as text (bigint and xid8 exceed what every driver reads exactly). Their aliases
 * must differ from the column names: ORDER BY would otherwise sort by the text ("1000" < "955").
 */
const EVENT_COLUMNS = `stream_id, stream_revision, transaction_id::text AS commit_position,
  global_position::text AS prepare_position, event_id::text AS event_id, event_type, data, metadata, recorded_at`;

/**
 * Events committed by transactions older than every open one: nothing can still be written before
 * them in log order. Reading only these is what lets a subscriber never skip an event whose
 * transaction commits after a later one's.
 */
const SETTLED = `transaction_id < pg_snapshot_xmin(pg_current_snapshot())`;

/**
 * The event store on Postgres: the default on a real server (DATABASE_URL) and, unchanged, on
 * PGlite for the embedded default. Log order is (transaction_id, global_position), exposed as the
 * LogPosition {commit, prepare}.
 */
export class PostgresEventStore implements EventStore {
  readonly #sql: SqlClient;
  readonly #channel: string;
  readonly #changes = new ChangeSignal();
  readonly #idlePollMs: number;
  #unlisten: Promise<() => Promise<void>> | undefined;

  private constructor(sql: SqlClient, options: PostgresEventStoreOptions) {
    this.#sql = sql;
    this.#channel = options.channel ?? 'provenance_events';
    this.#idlePollMs = options.idlePollMs ?? 1000;
  }

  /** Creates the schema if needed. The store does not own `sql`: close it yourself after `close()`. */
  static async open(sql: SqlClient, options: PostgresEventStoreOptions = {}): Promise<PostgresEventStore> {
    await ensureEventStoreSchema(sql);
    return new PostgresEventStore(sql, options);
  }

  async appendToStream(streamId: string, events: readonly NewEvent[], options: { expectedRevision: ExpectedRevision }) {
    const [result] = await this.appendToStreams([{ streamId, events, expectedRevision: options.expectedRevision }]);
    return result!;
  }

  async appendToStreams(requests: readonly AppendRequest[]): Promise<AppendResult[]> {
    validateAppendRequests(requests);
    let results: AppendResult[];
    try {
      results = await this.#sql.transaction((tx) => this.#append(tx, requests));
    } catch (error) {
      // Two retries of one batch raced and this one lost on the event id index: look again, the
      // winner's events are now visible and make this a no-op.
      if (!isUniqueViolation(error, 'events_event_id_key')) throw error;
      results = await this.#sql.transaction((tx) => this.#append(tx, requests));
    }
    this.#changes.notify(); // this process's subscribers need not wait for the NOTIFY round trip
    return results;
  }

  async #append(tx: SqlQueryable, requests: readonly AppendRequest[]): Promise<AppendResult[]> {
    const results = new Map<string, AppendResult>();
    // Lock streams in one global order so that two multi-stream appends cannot deadlock.
    const ordered = [...requests].sort((a, b) => (a.streamId < b.streamId ? -1 : a.streamId > b.streamId ? 1 : 0));
    for (const request of ordered) {
      results.set(request.streamId, await this.#appendOne(tx, request));
    }
    await tx.query('SELECT pg_notify($1, $2)', [this.#channel, '']);
    return requests.map((request) => results.get(request.streamId)!);
  }

  async #appendOne(tx: SqlQueryable, request: AppendRequest): Promise<AppendResult> {
    const { streamId, events, expectedRevision } = request;
    const retried = await this.#retriedBatch(tx, request);
    if (retried) return retried;

    const count = events.length;
    const claimed = await claimRevisions(tx, streamId, expectedRevision, count);
    if (claimed === null) {
      // Someone else wrote first. If it was this very batch (a concurrent retry), that is success.
      const retriedMeanwhile = await this.#retriedBatch(tx, request);
      if (retriedMeanwhile) return retriedMeanwhile;
      const { rows } = await tx.query<{ revision: string | number }>('SELECT revision FROM event_streams WHERE stream_id = $1', [streamId]);
      throw new WrongExpectedRevisionError(streamId, expectedRevision, rows[0] ? Number(rows[0].revision) : null);
    }

    const firstRevision = claimed - count + 1;
    const payload = JSON.stringify(events.map(({ id, type, data, metadata }) => ({ id, type, data, metadata })));
    const { rows } = await tx.query<{ commit_position: string; prepare_position: string }>(
      `INSERT INTO events (stream_id, stream_revision, event_id, event_type, data, metadata)
       SELECT $1, $2::bigint + e.ordinality - 1, (e.value->>'id')::uuid, e.value->>'type', e.value->'data', e.value->'metadata'
       FROM jsonb_array_elements($3::jsonb) WITH ORDINALITY AS e(value, ordinality)
       ORDER BY e.ordinality
       RETURNING transaction_id::text AS commit_position, global_position::text AS prepare_position`,
      [streamId, firstRevision, payload],
    );
    const last = rows.reduce((max, row) => (BigInt(row.prepare_position) > BigInt(max.prepare_position) ? row : max));
    return { streamId, nextExpectedRevision: claimed, position: toPosition(last) };
  }

  async #retriedBatch(tx: SqlQueryable, request: AppendRequest): Promise<AppendResult | null> {
    const { rows } = await tx.query<StoredRow>(
      `SELECT event_id::text AS event_id, stream_id, stream_revision, transaction_id::text AS commit_position,
              global_position::text AS prepare_position
       FROM events WHERE event_id IN (SELECT (jsonb_array_elements_text($1::jsonb))::uuid)`,
      [JSON.stringify(request.events.map((event) => event.id))],
    );
    if (rows.length === 0) return null;
    const stored = new Map<string, StoredIdentity & { row: StoredRow }>(
      rows.map((row) => [row.event_id, { id: row.event_id, streamId: row.stream_id, revision: Number(row.stream_revision), row }]),
    );
    const last = findRetriedBatch(request.streamId, request.events, stored);
    if (!last) return null;
    return { streamId: request.streamId, nextExpectedRevision: last.revision, position: toPosition(stored.get(last.id)!.row) };
  }

  async readStream(streamId: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    const { rows } = await this.#sql.query<EventRow>(
      `SELECT ${EVENT_COLUMNS} FROM events
       WHERE stream_id = $1 AND stream_revision >= $2
       ORDER BY stream_revision
       LIMIT $3`,
      [streamId, options.fromRevision ?? 0, options.maxCount ?? null],
    );
    return rows.map(toRecordedEvent);
  }

  /**
   * The settled prefix of the log, in order. An event committed while an older transaction is
   * still open waits until that transaction ends, so that nothing is ever returned out of order.
   */
  async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    return (await this.#readSettled(options.after, options.maxCount ?? null)).events;
  }

  async #readSettled(after: LogPosition | undefined, maxCount: number | null): Promise<{ events: RecordedEvent[]; heldBack: boolean }> {
    const afterClause = after === undefined ? 'TRUE' : '(transaction_id, global_position) > ($1::text::xid8, $2::bigint)';
    const afterParams = after === undefined ? [] : [String(after.commit), String(after.prepare)];
    const { rows } = await this.#sql.query<EventRow>(
      `SELECT ${EVENT_COLUMNS} FROM events
       WHERE ${afterClause} AND ${SETTLED}
       ORDER BY transaction_id, global_position
       LIMIT $${afterParams.length + 1}`,
      [...afterParams, maxCount],
    );
    if (rows.length > 0) return { events: rows.map(toRecordedEvent), heldBack: false };
    // Nothing settled: are committed events waiting behind an open transaction? Then look again soon.
    const { rows: waiting } = await this.#sql.query<{ waiting: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM events WHERE ${afterClause}) AS waiting`,
      afterParams,
    );
    return { events: [], heldBack: waiting[0]?.waiting === true };
  }

  subscribeToAll(options: SubscribeOptions, handler: BatchHandler): Subscription {
    const source: SubscriptionSource = {
      // Listen before the first read, so that no announcement between the two is lost.
      ready: async () => {
        this.#unlisten ??= this.#sql.listen(this.#channel, () => this.#changes.notify());
        await this.#unlisten;
      },
      read: (after, maxCount) => this.#readSettled(after, maxCount),
      end: async () => {
        const { rows } = await this.#sql.query<StoredRow>(
          `SELECT transaction_id::text AS commit_position, global_position::text AS prepare_position FROM events
           WHERE ${SETTLED} ORDER BY transaction_id DESC, global_position DESC LIMIT 1`,
        );
        return rows[0] ? toPosition(rows[0]) : null;
      },
      changes: this.#changes,
      idlePollMs: this.#idlePollMs,
      heldBackPollMs: 20,
    };
    return runSubscription(source, options, handler);
  }

  async headPosition(): Promise<LogPosition | null> {
    const { rows } = await this.#sql.query<StoredRow>(
      `SELECT transaction_id::text AS commit_position, global_position::text AS prepare_position FROM events
       ORDER BY transaction_id DESC, global_position DESC LIMIT 1`,
    );
    return rows[0] ? toPosition(rows[0]) : null;
  }

  async close(): Promise<void> {
    this.#changes.notify();
    const unlisten = this.#unlisten;
    this.#unlisten = undefined;
    if (unlisten) await (await unlisten.catch(() => async () => undefined))();
  }
}

/**
 * Compare-and-set on the stream's revision row. Returns the stream's new last revision, or null
 * when the expected revision does not hold. The row lock makes a concurrent writer of the same
 * stream wait for this transaction and then see the new revision.
 */
async function claimRevisions(tx: SqlQueryable, streamId: string, expected: ExpectedRevision, count: number): Promise<number | null> {
  let rows: Array<{ revision: string | number }>;
  if (expected === 'any') {
    ({ rows } = await tx.query(
      `INSERT INTO event_streams (stream_id, revision) VALUES ($1, $2::bigint - 1)
       ON CONFLICT (stream_id) DO UPDATE SET revision = event_streams.revision + $2::bigint
       RETURNING revision`,
      [streamId, count],
    ));
  } else if (expected === 'no_stream') {
    ({ rows } = await tx.query(
      `INSERT INTO event_streams (stream_id, revision) VALUES ($1, $2::bigint - 1) ON CONFLICT (stream_id) DO NOTHING RETURNING revision`,
      [streamId, count],
    ));
  } else if (expected === 'stream_exists') {
    ({ rows } = await tx.query(
      `UPDATE event_streams SET revision = revision + $2::bigint WHERE stream_id = $1 RETURNING revision`,
      [streamId, count],
    ));
  } else {
    ({ rows } = await tx.query(
      `UPDATE event_streams SET revision = revision + $2::bigint WHERE stream_id = $1 AND revision = $3::bigint RETURNING revision`,
      [streamId, count, expected],
    ));
  }
  return rows[0] ? Number(rows[0].revision) : null;
}

function toPosition(row: { commit_position: string; prepare_position: string }): LogPosition {
  return { commit: BigInt(row.commit_position), prepare: BigInt(row.prepare_position) };
}

function toRecordedEvent(row: EventRow): RecordedEvent {
  return {
    streamId: row.stream_id,
    revision: Number(row.stream_revision),
    position: toPosition(row),
    id: row.event_id,
    type: row.event_type,
    data: row.data,
    metadata: row.metadata,
    recordedAt: row.recorded_at instanceof Date ? row.recorded_at : new Date(row.recorded_at),
  };
}

function isUniqueViolation(error: unknown, constraint: string): boolean {
  const e = error as { code?: string; constraint?: string; message?: string } | null;
  return e?.code === '23505' && (e.constraint === constraint || (e.message ?? '').includes(constraint));
}

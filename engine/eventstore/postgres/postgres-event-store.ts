import { chainHashes } from '../../integrity/event-hash';
import { findRetriedBatch, validateAppendRequests, withChecksAnswered, type StoredIdentity } from '../idempotency';
import { pageOfMatches, validateLogQuery } from '../log-query';
import {
  comparePositions,
  parsePosition,
  WrongExpectedRevisionError,
  type AppendRequest,
  type AppendResult,
  type BatchHandler,
  type ChainLink,
  type EventStore,
  type ExpectedRevision,
  type LogPosition,
  type LogQuery,
  type LogQueryPage,
  type NewEvent,
  type ReadAllOptions,
  type ReadStreamOptions,
  type RecordedEvent,
  type SubscribeOptions,
  type Subscription,
} from '../port';
import { ChangeSignal, runSubscription, type SubscriptionSource } from '../subscription-loop';
import { ensureEventStoreSchema, INDEXED_EXPRESSIONS } from './schema';
import { isLoose, NO_HEAD, StreamHeads, type StreamHead } from '../stream-heads';
import type { SqlClient } from '../../postgres/sql-client';

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
  hash: string;
  previous_hash: string | null;
}

interface PositionRow {
  commit_position: string;
  prepare_position: string;
}

/** What event_store_append_chained (schema.ts) answers for each stream it wrote. */
interface AppendedStream {
  streamId: string;
  revision: number;
  position: string;
}

/** How many times an append chains its batches again onto heads that moved on, before it gives up. */
const RECHAIN_ATTEMPTS = 20;

/**
 * Positions travel as text (bigint and xid8 exceed what every driver reads exactly). Their aliases
 * must differ from the column names: ORDER BY would otherwise sort by the text ("1000" < "955").
 */
const EVENT_COLUMNS = `stream_id, stream_revision, transaction_id::text AS commit_position,
  global_position::text AS prepare_position, event_id::text AS event_id, event_type, data, metadata, recorded_at, hash, previous_hash`;

/**
 * Events committed by transactions older than every open one: nothing can still be written before
 * them in log order. Reading only these is what lets a subscriber never skip an event whose
 * transaction commits after a later one's.
 */
const SETTLED = `transaction_id < pg_snapshot_xmin(pg_current_snapshot())`;

/** queryLog's filtered expressions, written exactly as schema.ts indexes them. */
const { CATEGORY, ACTOR, CORRELATION } = INDEXED_EXPRESSIONS;

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
  /** What this process's next append to a stream chains onto: its last event as appended or read here. */
  readonly #heads = new StreamHeads();
  #unlisten: Promise<() => Promise<void>> | undefined;
  #announcing: Promise<void> | undefined;
  #announceAgain = false;
  #closed = false;

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
    const results = await this.#append(requests);
    this.#changes.notify(); // this process's subscribers need not wait for the NOTIFY round trip
    this.#announce();
    return results;
  }

  /**
   * Tells other processes' subscribers, with a NOTIFY of its own: a NOTIFY in the append would
   * make its commit take a database-wide lock, one append committing at a time. One announcement
   * is in flight at a time; whatever is appended meanwhile is announced by one more after it.
   */
  #announce(): void {
    if (this.#announcing) {
      this.#announceAgain = true;
      return;
    }
    this.#announcing = this.#sql
      .query(`SELECT pg_notify($1, '')`, [this.#channel], { name: 'event_store_announce' })
      // A lost announcement only delays other processes' subscribers until their next poll.
      .then(() => undefined, () => undefined)
      .finally(() => {
        this.#announcing = undefined;
        if (this.#announceAgain && !this.#closed) {
          this.#announceAgain = false;
          this.#announce();
        }
      });
  }

  /**
   * One statement (schema.ts's event_store_append_chained): one round trip, its own transaction.
   * Each batch is hashed here onto the head this process knows of its stream; when another process
   * moved the head on, the statement says which, and the batch is chained again. When it refuses,
   * it says which of the batch's event ids are stored: streams whose batch is stored whole are a
   * retry, answered from what is stored, and the others are appended again; when no stream is a
   * retry, the refusal stands.
   */
  async #append(requests: readonly AppendRequest[], attempt = 1): Promise<AppendResult[]> {
    const chained = await Promise.all(requests.map((request) => this.#chained(request)));
    let appended: AppendedStream[];
    try {
      const argument = chained.map(({ request: { streamId, expectedRevision, events }, head, links }) => ({
        streamId,
        expectedRevision,
        head,
        events: events.map((event, index) => ({ id: event.id, type: event.type, data: event.data, metadata: event.metadata, hash: links[index]!.hash })),
      }));
      const { rows } = await this.#sql.query<{ appended: AppendedStream[] }>(
        'SELECT event_store_append_chained($1::jsonb) AS appended',
        [JSON.stringify(argument)],
        { name: 'event_store_append_chained' },
      );
      appended = rows[0]!.appended;
    } catch (error) {
      const refusal = appendRefusal(error);
      if (!refusal) throw error;
      if (refusal.head !== undefined) this.#heads.remember(refusal.streamId, refusal.head ?? NO_HEAD);
      return this.#answerRetries(requests, refusal, error, attempt);
    }
    // Every stream's result carries the append's last position (the port's promise).
    const end = appended.map((stream) => parsePosition(stream.position)).sort(comparePositions).at(-1)!;
    const results = new Map(
      appended.map((stream) => {
        const { links } = chained.find(({ request }) => request.streamId === stream.streamId)!;
        const firstRevision = stream.revision - links.length + 1;
        const chain = links.map((link, index) => ({ ...link, revision: firstRevision + index }));
        this.#heads.remember(stream.streamId, { revision: stream.revision, hash: chain.at(-1)!.hash });
        return [stream.streamId, { streamId: stream.streamId, nextExpectedRevision: stream.revision, position: end, chain }];
      }),
    );
    return withChecksAnswered(requests, results);
  }

  /**
   * A request's events hashed onto the event its stream is believed to end with: the one at the
   * expected revision, or for 'any' and 'stream_exists' the last this process appended or read
   * (the append refuses when the stream ends with another, and says which).
   */
  async #chained(request: AppendRequest): Promise<{ request: AppendRequest; head: StreamHead | null; links: Omit<ChainLink, 'revision'>[] }> {
    if (request.events.length === 0) return { request, head: null, links: [] };
    const head = await this.#headFor(request.streamId, request.expectedRevision);
    const hashes = chainHashes(request.streamId, head === null ? 0 : head.revision + 1, head?.hash ?? null, request.events);
    return { request, head, links: hashes.map((link, index) => ({ ...link, id: request.events[index]!.id })) };
  }

  /** The known head; otherwise read: the stream's last event, or for a revision the event at it. */
  async #headFor(streamId: string, expected: ExpectedRevision): Promise<StreamHead | null> {
    if (expected === 'no_stream') return null;
    const known = this.#heads.chainedOnto(streamId, expected);
    if (known !== undefined) return known;
    const { rows } = await this.#sql.query<{ revision: string | number; hash: string }>(
      `SELECT stream_revision AS revision, hash FROM events
       WHERE stream_id = $1 AND ($2::bigint IS NULL OR stream_revision = $2)
       ORDER BY stream_revision DESC LIMIT 1`,
      [streamId, isLoose(expected) ? null : expected],
      { name: 'event_store_read_head' },
    );
    const [row] = rows;
    if (isLoose(expected)) return row === undefined ? null : { revision: Number(row.revision), hash: row.hash };
    // None there: the append is refused as it would have been (the stream is not at that revision).
    return { revision: expected, hash: row?.hash ?? null };
  }

  async #answerRetries(requests: readonly AppendRequest[], refusal: AppendRefusal, error: unknown, attempt: number): Promise<AppendResult[]> {
    const stored = new Map(refusal.stored.map((identity) => [identity.id, identity]));
    const retried = requests.map((request) => findRetriedBatch(request.streamId, request.events, stored));
    const rest = requests.filter((_, index) => retried[index] === null);
    if (rest.length === requests.length) {
      const { expectedRevision } = requests.find((request) => request.streamId === refusal.streamId)!;
      if (refusal.head !== undefined) {
        // Another writer moved the stream on: chain onto its head now (it is remembered).
        if (attempt < RECHAIN_ATTEMPTS) return this.#append(requests, attempt + 1);
        throw new WrongExpectedRevisionError(refusal.streamId, expectedRevision, refusal.head?.revision ?? null);
      }
      // An already stored id is a retry or an IdempotencyConflictError: findRetriedBatch decided.
      if (refusal.actual === undefined) throw error;
      throw new WrongExpectedRevisionError(refusal.streamId, expectedRevision, refusal.actual);
    }
    // The stored batches passed their checks when they were written: with nothing new, none is made again.
    const appended = rest.some((request) => request.events.length > 0) ? await this.#append(rest, attempt) : [];
    const results = new Map(appended.filter((_, index) => rest[index]!.events.length > 0).map((result) => [result.streamId, result]));
    requests.forEach((request, index) => {
      const last = retried[index];
      if (!last) return;
      const chain = request.events.map((event) => {
        const { id, revision, hash, previousHash } = stored.get(event.id)!;
        return { id, revision, hash, previousHash };
      });
      results.set(request.streamId, { streamId: request.streamId, nextExpectedRevision: last.revision, position: parsePosition(last.position), chain });
    });
    return withChecksAnswered(requests, results);
  }

  async readStream(streamId: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    const { rows } = await this.#sql.query<EventRow>(
      `SELECT ${EVENT_COLUMNS} FROM events
       WHERE stream_id = $1 AND stream_revision >= $2
       ORDER BY stream_revision
       LIMIT $3`,
      [streamId, options.fromRevision ?? 0, options.maxCount ?? null],
      { name: 'event_store_read_stream' },
    );
    const events = rows.map(toRecordedEvent);
    // Read to its end: the stream's head, for the next append's chain.
    const last = events.at(-1);
    if (last !== undefined && (options.maxCount === undefined || events.length < options.maxCount)) this.#heads.rememberRead(streamId, { revision: last.revision, hash: last.hash });
    return events;
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
    // One round trip: the settled page, or, when it is empty, one row saying whether committed
    // events wait behind an open transaction (held_back; then look again soon). held_back asks for
    // the first such event in log order rather than EXISTS: PostgreSQL drops an EXISTS subquery's
    // ORDER BY and LIMIT, and on a table not analyzed yet (a young log growing fast) it then
    // guesses that a third of the log matches and scans the whole table to find none (1.2 ms at
    // 25,000 events, against 0.02 ms down the log-order index).
    const { rows } = await this.#sql.query<EventRow & { held_back: boolean | null }>(
      `WITH page AS (
         SELECT ${EVENT_COLUMNS}, transaction_id, global_position FROM events
         WHERE ${afterClause} AND ${SETTLED}
         ORDER BY transaction_id, global_position
         LIMIT $${afterParams.length + 1})
       SELECT *, NULL::boolean AS held_back FROM page
       UNION ALL
       SELECT NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, (SELECT true FROM events WHERE ${afterClause} ORDER BY transaction_id, global_position LIMIT 1) IS NOT NULL
       WHERE NOT EXISTS (SELECT 1 FROM page)
       ORDER BY transaction_id, global_position`,
      [...afterParams, maxCount],
    );
    if (rows.length === 1 && rows[0]!.held_back !== null) return { events: [], heldBack: rows[0]!.held_back };
    return { events: rows.map(toRecordedEvent), heldBack: false };
  }

  /**
   * Schema.ts gives each filter an index that starts with the filtered value and continues in log
   * order, so that a page is a walk of one index from `after` that stops at the limit. Recorded
   * times do not follow log order exactly, so no index can be walked for a time window: either the
   * log is walked anyway (cheap when the window starts soon after `after` and holds a page), or all
   * of the window's matches are gathered and the first kept (cheap when the window is small). Which
   * costs less is guessed from global positions at the window's edges; both answer exactly.
   */
  async queryLog(query: LogQuery): Promise<LogQueryPage> {
    validateLogQuery(query);
    if (query.types?.length === 0) return { events: [], next: null }; // no type at all matches nothing
    const wanted = query.limit + 1;
    let statement = walkFilterIndexes(query, wanted);
    if (query.from !== undefined || query.to !== undefined) {
      const { rows } = await this.#sql.query<WindowEdges>(...windowEdges(query));
      if (!walkCostsLess(rows[0]!, query, wanted)) statement = gatherMatches(query, wanted);
    }
    const { rows } = await this.#sql.query<EventRow>(...statement);
    return pageOfMatches(rows.map(toRecordedEvent), query.limit);
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
        const { rows } = await this.#sql.query<PositionRow>(
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
    const { rows } = await this.#sql.query<PositionRow>(
      `SELECT transaction_id::text AS commit_position, global_position::text AS prepare_position FROM events
       ORDER BY transaction_id DESC, global_position DESC LIMIT 1`,
    );
    return rows[0] ? toPosition(rows[0]) : null;
  }

  async close(): Promise<void> {
    this.#closed = true;
    await this.#announcing;
    this.#changes.notify();
    const unlisten = this.#unlisten;
    this.#unlisten = undefined;
    if (unlisten) await (await unlisten.catch(() => async () => undefined))();
  }
}

type Statement = [text: string, params: unknown[]];

/** Collects a statement's parameters; each use answers its typed placeholder. */
function parameters() {
  const values: unknown[] = [];
  const add = (value: unknown, type: string): string => {
    values.push(value);
    return `$${values.length}::${type}`;
  };
  return { values, add };
}

type AddParameter = ReturnType<typeof parameters>['add'];

/** Settled events after `after`: the part of the log a page is taken from. */
function logRangeConditions(query: LogQuery, add: AddParameter): string[] {
  if (query.after === undefined) return [SETTLED];
  const { commit, prepare } = query.after;
  return [SETTLED, `(transaction_id, global_position) > (${add(String(commit), 'text')}::xid8, ${add(String(prepare), 'bigint')})`];
}

/** Every filter of the query; `types` as ANY unless the caller joins them itself. */
function filterConditions(query: LogQuery, add: AddParameter, options: { types: boolean }): string[] {
  const conditions: string[] = [];
  if (query.stream !== undefined) conditions.push(`stream_id = ${add(query.stream, 'text')}`);
  // A stream id without "-" has no category, though split_part would answer the whole id.
  if (query.category !== undefined) conditions.push(`${CATEGORY} = ${add(query.category, 'text')}`, `strpos(stream_id, '-') > 0`);
  if (options.types && query.types !== undefined) conditions.push(`event_type = ANY(${add([...query.types], 'text[]')})`);
  if (query.actorId !== undefined) conditions.push(`${ACTOR} = ${add(query.actorId, 'text')}`);
  if (query.correlationId !== undefined) conditions.push(`${CORRELATION} = ${add(query.correlationId, 'text')}`);
  if (query.from !== undefined) conditions.push(`recorded_at >= ${add(query.from, 'timestamptz')}`);
  if (query.to !== undefined) conditions.push(`recorded_at < ${add(query.to, 'timestamptz')}`);
  return conditions;
}

/** The first `wanted` matches, walking the filters' indexes in log order. */
function walkFilterIndexes(query: LogQuery, wanted: number): Statement {
  const { values, add } = parameters();
  const conditions = [...logRangeConditions(query, add), ...filterConditions(query, add, { types: false })].join(' AND ');
  const limit = add(wanted, 'int');
  if (query.types === undefined) {
    return [`SELECT ${EVENT_COLUMNS} FROM events WHERE ${conditions} ORDER BY transaction_id, global_position LIMIT ${limit}`, values];
  }
  // event_type = ANY(...) would read every event of those types and sort them. Instead each
  // type's first matches come in log order from its index (one branch each, so that each is
  // planned for its own type), and only those few are merged.
  const branches = [...new Set(query.types)].map(
    (type) => `(SELECT * FROM events WHERE event_type = ${add(type, 'text')} AND ${conditions}
                ORDER BY transaction_id, global_position LIMIT ${limit})`,
  );
  return [
    `SELECT ${EVENT_COLUMNS} FROM (${branches.join(' UNION ALL ')}) AS matched
     ORDER BY transaction_id, global_position LIMIT ${limit}`,
    values,
  ];
}

/** Global positions (as text) of the first events recorded at `from` and at `to` (null: none), and of the last. */
interface WindowEdges {
  window_start: string | null;
  window_end: string | null;
  log_end: string | null;
}

function windowEdges(query: LogQuery): Statement {
  const { values, add } = parameters();
  const firstRecordedAt = (time: Date | undefined) =>
    time === undefined ? 'NULL' : `(SELECT global_position FROM events WHERE recorded_at >= ${add(time, 'timestamptz')} ORDER BY recorded_at LIMIT 1)`;
  return [
    `SELECT ${firstRecordedAt(query.from)}::text AS window_start, ${firstRecordedAt(query.to)}::text AS window_end,
            (SELECT max(global_position) FROM events)::text AS log_end`,
    values,
  ];
}

/**
 * Whether walking the log from `after` should read fewer events than gathering the time window:
 * global positions count events, and recorded times nearly follow them. The walk skips what lies
 * before the window, then stops once it has a page, or at the end of the log if the rest of the
 * window cannot hold one; gathering reads the whole window.
 */
function walkCostsLess(edges: WindowEdges, query: LogQuery, wanted: number): boolean {
  const logEnd = Number(edges.log_end ?? 0);
  const start = query.from === undefined ? 0 : Number(edges.window_start ?? logEnd + 1);
  const end = edges.window_end === null ? logEnd + 1 : Number(edges.window_end);
  const after = query.after === undefined ? 0 : Number(query.after.prepare);
  const walkFrom = Math.max(start, after);
  const skipped = walkFrom - after;
  const walked = end - walkFrom >= 2 * wanted ? wanted : logEnd - walkFrom;
  return skipped + walked <= end - start;
}

/**
 * The first `wanted` matches, from all of them. OFFSET 0 keeps the planner from pushing the limit
 * into the inner query: it reads the matches through the most selective index (index-only for a
 * time window alone) instead of walking the log and hoping to meet them early.
 */
function gatherMatches(query: LogQuery, wanted: number): Statement {
  const { values, add } = parameters();
  const conditions = [...logRangeConditions(query, add), ...filterConditions(query, add, { types: true })];
  return [
    `SELECT ${EVENT_COLUMNS} FROM events WHERE (transaction_id, global_position) IN (
       SELECT transaction_id, global_position FROM (
         SELECT transaction_id, global_position FROM events WHERE ${conditions.join(' AND ')} OFFSET 0
       ) AS matching
       ORDER BY transaction_id, global_position LIMIT ${add(wanted, 'int')}
     )
     ORDER BY transaction_id, global_position`,
    values,
  ];
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
    hash: row.hash,
    previousHash: row.previous_hash,
  };
}

/** Why event_store_append_chained wrote nothing (schema.ts): from its SQLSTATE and its JSON DETAIL. */
interface AppendRefusal {
  readonly streamId: string;
  /** PVREV only: the stream's revision when the expected one did not hold; null when it does not exist. */
  readonly actual?: number | null;
  /** PVCHN only: the event the stream ends with (null: none), which the batch was not chained onto. */
  readonly head?: StreamHead | null;
  /** The stored events among the append's event ids. */
  readonly stored: ReadonlyArray<StoredIdentity & Pick<ChainLink, 'hash' | 'previousHash'> & { position: string }>;
}

function appendRefusal(error: unknown): AppendRefusal | null {
  const e = error as { code?: string; detail?: string } | null;
  if ((e?.code !== 'PVREV' && e?.code !== 'PVDUP' && e?.code !== 'PVCHN') || e.detail === undefined) return null;
  return JSON.parse(e.detail) as AppendRefusal;
}

import type { SqlClient } from '../../postgres/sql-client';
import { hashStoredEvents } from './hash-chain-migration';

/** Expressions queryLog filters on; its queries must spell them as these indexes do to use them. */
export const INDEXED_EXPRESSIONS = {
  CATEGORY: `split_part(stream_id, '-', 1)`,
  ACTOR: `(metadata->>'actorId')`,
  CORRELATION: `(metadata->>'correlationId')`,
} as const;

/**
 * For queryLog, whose queries stop at the page's last event: one index per filter that continues
 * in log order, so that a filtered page is a walk of one index from `after`. Recorded times do not
 * follow log order exactly, so a time window is gathered instead, its positions read from its index
 * alone. Existing tables get these indexes at next open.
 */
const LOG_QUERY_INDEXES = [
  ['events_stream_in_log_order', 'stream_id'],
  ['events_category_in_log_order', INDEXED_EXPRESSIONS.CATEGORY],
  ['events_type_in_log_order', 'event_type'],
  ['events_actor_in_log_order', INDEXED_EXPRESSIONS.ACTOR],
  ['events_correlation_in_log_order', INDEXED_EXPRESSIONS.CORRELATION],
  ['events_recorded_at_with_position', 'recorded_at'],
].map(([name, expression]) => `CREATE INDEX IF NOT EXISTS ${name} ON events (${expression}, transaction_id, global_position)`);

/**
 * An append in one statement, so in one round trip and one transaction of its own:
 * `SELECT event_store_append_chained(requests)`, where requests is a JSON array of
 * {streamId, expectedRevision, head, events: [{id, type, data, metadata, hash}]}. Per stream, in
 * one global order (two multi-stream appends cannot deadlock): a compare-and-set on the stream's
 * revision row (its row lock makes a concurrent writer of the stream wait, then see the new
 * revision), then the insert; a stream without events is a check (its row compared and
 * share-locked, nothing written). Answers [{streamId, revision, position}] for the streams
 * written: the stream's last revision and the position of its last event (as positionToString
 * writes it). No NOTIFY here: see PostgresEventStore's announce.
 *
 * The appender hashes each event into its stream's chain (event-hash.ts) onto `head`, the event
 * it believes the stream ends with ({revision, hash}; null for an empty stream), and the append
 * writes the batch only if, under the stream's row lock, that is the event the stream ends with:
 * two writers of a stream can never both chain onto one event. Each event's previous_hash is the
 * hash before it in the batch, the first's the head's.
 *
 * Named for its request's shape: event_store_append (before events were hashed) and
 * event_store_append_canonical (which hashed the events itself, from their canonical text) stay
 * defined while processes of an older version share the database (a rolling deploy, a rollback):
 * each process creates and calls only its own.
 *
 * It does not judge retries, which idempotency.ts does for every adapter. It refuses instead, and
 * writes nothing, with the stored events among the append's event ids in its DETAIL (JSON):
 * - PVREV: a stream is not at its expected revision; `actual` is the stream's revision (null: no
 *   stream).
 * - PVCHN: a stream does not end with the event its batch was chained onto; `head` is the one it
 *   ends with (null: none), onto which the appender may chain the batch again.
 * - PVDUP: an event id is already stored. The insert skips such ids instead of failing on them, so
 *   that the common case needs no lookup beforehand and no subtransaction; a retry racing another
 *   retry of the same batch waits on the index for the other's outcome and is refused here.
 */
const APPEND_FUNCTIONS = [
  `CREATE OR REPLACE FUNCTION event_store_stored_identities(requests jsonb) RETURNS jsonb LANGUAGE sql AS $$
     SELECT coalesce(jsonb_agg(jsonb_build_object(
              'id', stored.event_id, 'streamId', stored.stream_id, 'revision', stored.stream_revision,
              'position', stored.transaction_id::text || '/' || stored.global_position,
              'hash', stored.hash, 'previousHash', stored.previous_hash)), '[]'::jsonb)
     FROM events AS stored
     -- Not what this very append wrote before it refused: that is about to be rolled back.
     WHERE stored.transaction_id IS DISTINCT FROM pg_current_xact_id_if_assigned()
       AND stored.event_id IN (
         SELECT (event.value->>'id')::uuid
         FROM jsonb_array_elements(requests) AS request(value), jsonb_array_elements(request.value->'events') AS event(value))
   $$`,
  `CREATE OR REPLACE FUNCTION event_store_append_chained(requests jsonb) RETURNS jsonb LANGUAGE plpgsql AS $$
   DECLARE
     request jsonb;
     target text;
     expected jsonb;
     event_count bigint;
     last_revision bigint;
     head_revision bigint;
     head_hash text;
     written bigint;
     last_position bigint;
     appended jsonb := '[]';
   BEGIN
     FOR request IN SELECT r.value FROM jsonb_array_elements(requests) AS r(value) ORDER BY r.value->>'streamId' COLLATE "C" LOOP
       target := request->>'streamId';
       expected := request->'expectedRevision';
       event_count := jsonb_array_length(request->'events');
       last_revision := NULL;
       IF event_count = 0 THEN
         -- A check: the stream's row, which writers of the stream wait on until this append ends.
         SELECT revision INTO last_revision FROM event_streams WHERE stream_id = target AND revision = expected::bigint FOR SHARE;
       ELSIF expected = '"any"' THEN
         INSERT INTO event_streams AS s (stream_id, revision) VALUES (target, event_count - 1)
         ON CONFLICT (stream_id) DO UPDATE SET revision = s.revision + event_count
         RETURNING s.revision INTO last_revision;
       ELSIF expected = '"no_stream"' THEN
         INSERT INTO event_streams (stream_id, revision) VALUES (target, event_count - 1)
         ON CONFLICT (stream_id) DO NOTHING
         RETURNING revision INTO last_revision;
       ELSIF expected = '"stream_exists"' THEN
         UPDATE event_streams SET revision = revision + event_count WHERE stream_id = target
         RETURNING revision INTO last_revision;
       ELSE
         UPDATE event_streams SET revision = revision + event_count WHERE stream_id = target AND revision = expected::bigint
         RETURNING revision INTO last_revision;
       END IF;
       IF last_revision IS NULL THEN
         RAISE EXCEPTION USING ERRCODE = 'PVREV', MESSAGE = format('Stream %s: expected revision %s', target, expected),
           DETAIL = jsonb_build_object(
             'streamId', target,
             'actual', (SELECT revision FROM event_streams WHERE stream_id = target),
             'stored', event_store_stored_identities(requests))::text;
       END IF;
       CONTINUE WHEN event_count = 0;
       -- The event the batch goes on from, read under the stream's row lock taken above: the one the
       -- appender hashed the batch's chain onto, or nothing is written.
       head_revision := last_revision - event_count;
       head_hash := NULL;
       IF head_revision >= 0 THEN
         SELECT hash INTO head_hash FROM events WHERE stream_id = target AND stream_revision = head_revision;
       END IF;
       IF head_revision IS DISTINCT FROM coalesce((request->'head'->>'revision')::bigint, -1) OR head_hash IS DISTINCT FROM request->'head'->>'hash' THEN
         RAISE EXCEPTION USING ERRCODE = 'PVCHN', MESSAGE = format('Stream %s: the batch is not chained onto revision %s', target, head_revision),
           DETAIL = jsonb_build_object(
             'streamId', target,
             'head', CASE WHEN head_revision >= 0 THEN jsonb_build_object('revision', head_revision, 'hash', head_hash) END,
             'stored', event_store_stored_identities(requests))::text;
       END IF;
       WITH written_events AS (
         INSERT INTO events (stream_id, stream_revision, event_id, event_type, data, metadata, hash, previous_hash)
         SELECT target, head_revision + e.ordinality, (e.value->>'id')::uuid, e.value->>'type', e.value->'data', e.value->'metadata',
                e.value->>'hash', CASE WHEN e.ordinality = 1 THEN head_hash ELSE lag(e.value->>'hash') OVER (ORDER BY e.ordinality) END
         FROM jsonb_array_elements(request->'events') WITH ORDINALITY AS e(value, ordinality)
         ORDER BY e.ordinality
         ON CONFLICT (event_id) DO NOTHING
         RETURNING global_position
       )
       SELECT count(*), max(global_position) INTO written, last_position FROM written_events;
       IF written < event_count THEN
         RAISE EXCEPTION USING ERRCODE = 'PVDUP', MESSAGE = format('Stream %s: event ids already stored', target),
           DETAIL = jsonb_build_object('streamId', target, 'stored', event_store_stored_identities(requests))::text;
       END IF;
       appended := appended || jsonb_build_object(
         'streamId', target, 'revision', last_revision, 'position', pg_current_xact_id()::text || '/' || last_position);
     END LOOP;
     RETURN appended;
   END
   $$`,
];

/**
 * The event store's own tables. `events` is append-only (a trigger refuses UPDATE, DELETE and
 * TRUNCATE); `event_streams` holds each stream's current revision, the row that serialises writers
 * of one stream. `transaction_id` lets a subscriber read only what no open transaction can still
 * precede (see PostgresEventStore.readAll).
 */
const STATEMENTS = [
  `CREATE TABLE IF NOT EXISTS event_streams (
     stream_id text PRIMARY KEY,
     revision bigint NOT NULL
   )`,
  `CREATE TABLE IF NOT EXISTS events (
     global_position bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
     transaction_id xid8 NOT NULL DEFAULT pg_current_xact_id(),
     stream_id text NOT NULL,
     stream_revision bigint NOT NULL,
     event_id uuid NOT NULL,
     event_type text NOT NULL,
     data jsonb NOT NULL,
     metadata jsonb NOT NULL,
     recorded_at timestamptz NOT NULL DEFAULT now(),
     hash text NOT NULL,
     previous_hash text,
     CONSTRAINT events_stream_revision_key UNIQUE (stream_id, stream_revision),
     CONSTRAINT events_event_id_key UNIQUE (event_id)
   )`,
  `CREATE INDEX IF NOT EXISTS events_log_order ON events (transaction_id, global_position)`,
  ...LOG_QUERY_INDEXES,
  `CREATE OR REPLACE FUNCTION events_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     RAISE EXCEPTION 'the events table is append-only' USING ERRCODE = 'insufficient_privilege';
   END
   $$`,
  `CREATE OR REPLACE TRIGGER events_append_only BEFORE UPDATE OR DELETE ON events
     FOR EACH ROW EXECUTE FUNCTION events_refuse_change()`,
  `CREATE OR REPLACE TRIGGER events_no_truncate BEFORE TRUNCATE ON events
     FOR EACH STATEMENT EXECUTE FUNCTION events_refuse_change()`,
];

/** Creates the tables if missing. Safe when several processes start at once. */
export async function ensureEventStoreSchema(sql: SqlClient): Promise<void> {
  await sql.transaction(async (tx) => {
    await tx.query(`SELECT pg_advisory_xact_lock(hashtext('provenance.event_store_schema'))`);
    for (const statement of STATEMENTS) await tx.query(statement);
    // Before the functions: they read the hash columns, which an older table gets here.
    await hashStoredEvents(tx);
    for (const statement of APPEND_FUNCTIONS) await tx.query(statement);
  });
}

import type { SqlClient } from '../../postgres/sql-client';

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
  });
}

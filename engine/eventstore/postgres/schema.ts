import type { SqlClient } from '../../postgres/sql-client';

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

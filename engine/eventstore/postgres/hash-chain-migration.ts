import { eventHash } from '../../integrity/event-hash';
import type { SqlQueryable } from '../../postgres/sql-client';

/** Events hashed per statement: a page of the walk and one UPDATE. */
const PAGE = 1_000;

interface UnhashedRow {
  global_position: string;
  stream_id: string;
  stream_revision: string;
  event_id: string;
  event_type: string;
  data: unknown;
  metadata: unknown;
}

/**
 * For stores created before events were hashed (a new store's table requires a hash from the
 * start): gives the events stored before the log was hashed their hashes, once, then makes a hash required:
 * each stream's events chained in revision order, exactly as appends chain them. It runs in the
 * schema's transaction with appends locked out, and is the one writer ever allowed past the
 * append-only trigger, for hashes only. Returns how many events it hashed.
 */
export async function hashStoredEvents(tx: SqlQueryable): Promise<number> {
  const { rows } = await tx.query<{ required: boolean }>(
    `SELECT attnotnull AS required FROM pg_attribute WHERE attrelid = 'events'::regclass AND attname = 'hash' AND NOT attisdropped`,
  );
  if (rows[0]?.required) return 0;
  await tx.query('LOCK TABLE event_streams, events IN EXCLUSIVE MODE');
  // Checked first: ALTER TABLE locks the table even when it changes nothing.
  if (rows.length === 0) await tx.query('ALTER TABLE events ADD COLUMN hash text, ADD COLUMN previous_hash text');
  await tx.query('ALTER TABLE events DISABLE TRIGGER events_append_only');
  let hashed = 0;
  let last: { streamId: string; revision: string; hash: string } | null = null;
  for (;;) {
    const { rows: page }: { rows: UnhashedRow[] } = await tx.query<UnhashedRow>(
      `SELECT global_position::text, stream_id, stream_revision::text, event_id::text, event_type, data, metadata FROM events
       WHERE ${last === null ? 'TRUE' : '(stream_id, stream_revision) > ($2, $3::bigint)'}
       ORDER BY stream_id, stream_revision LIMIT $1`,
      last === null ? [PAGE] : [PAGE, last.streamId, last.revision],
    );
    if (page.length === 0) break;
    const positions: string[] = [];
    const hashes: string[] = [];
    const previousHashes: (string | null)[] = [];
    for (const row of page) {
      const previousHash = last !== null && last.streamId === row.stream_id ? last.hash : null;
      // Each row once, as read: not through chainHashes, which keeps the hashes of events this process sends.
      const hash = eventHash({
        streamId: row.stream_id,
        revision: Number(row.stream_revision),
        id: row.event_id,
        type: row.event_type,
        data: row.data,
        metadata: row.metadata,
        previousHash,
      });
      positions.push(row.global_position);
      hashes.push(hash);
      previousHashes.push(previousHash);
      last = { streamId: row.stream_id, revision: row.stream_revision, hash };
    }
    await tx.query(
      `UPDATE events SET hash = u.hash, previous_hash = u.previous_hash
       FROM unnest($1::bigint[], $2::text[], $3::text[]) AS u(global_position, hash, previous_hash)
       WHERE events.global_position = u.global_position`,
      [positions, hashes, previousHashes],
    );
    hashed += page.length;
  }
  await tx.query('ALTER TABLE events ENABLE TRIGGER events_append_only');
  await tx.query('ALTER TABLE events ALTER COLUMN hash SET NOT NULL');
  return hashed;
}

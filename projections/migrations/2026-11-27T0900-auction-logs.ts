import { sql, type Kysely } from 'kysely';

/**
 * auction_logs: how much of each auction's log (its stream and its refused attempts) is signed by
 * a checkpoint, for the checkpointer. A new projection: it replays the log from its start.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('auction_logs')
    .addColumn('auction_id', 'text', (c) => c.primaryKey())
    .addColumn('log_size', 'integer', (c) => c.notNull())
    .addColumn('signed_size', 'integer', (c) => c.notNull())
    .addColumn('signed_at', 'timestamptz')
    .addColumn('checkpoints', 'integer', (c) => c.notNull())
    .addColumn('closed', 'boolean', (c) => c.notNull())
    .execute();
  // The checkpointer reads only the auctions with events no checkpoint signs yet.
  await db.schema.createIndex('auction_logs_unsigned').on('auction_logs').column('auction_id').where(sql<boolean>`log_size > signed_size`).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('auction_logs').execute();
}

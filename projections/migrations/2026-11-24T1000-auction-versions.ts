import { sql, type Kysely } from 'kysely';

/**
 * auctions.version: how many of the auction stream's events the row has folded in, so that a
 * reader can tell which of two summaries of an auction is newer. Rows written before cannot know
 * it, and read models are disposable: every one is emptied (as on a new database) and the
 * projection runner replays the log into them when it starts, as `npm run projections:rebuild` would.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`TRUNCATE listings, auctions, bids, bid_rejections, nfc_tags, projection_checkpoints RESTART IDENTITY`.execute(db);
  await db.schema.alterTable('auctions').addColumn('version', 'integer', (c) => c.notNull()).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  // The older rows are whole without it.
  await db.schema.alterTable('auctions').dropColumn('version').execute();
}

import { sql, type Kysely } from 'kysely';

/** The first read models: listings, auctions, bids, refused bids, NFC tags, checkpoints. */
export async function up(db: Kysely<unknown>): Promise<void> {
  // One copy of the extension per database, kept in public so that dropping an application's (or
  // a test's) schema never drops it; the operator class is named with the schema it lives in.
  await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public`.execute(db);
  const { rows } = await sql<{ schema: string }>`
    SELECT extnamespace::regnamespace::text AS schema FROM pg_extension WHERE extname = 'pg_trgm'`.execute(db);
  const trigramOps = sql.raw(`${rows[0]!.schema}.gin_trgm_ops`);

  await db.schema
    .createTable('listings')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('slug', 'text', (c) => c.notNull().unique())
    .addColumn('owner_id', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('category', 'text', (c) => c.notNull())
    .addColumn('condition', 'text', (c) => c.notNull())
    .addColumn('sport_type', 'text', (c) => c.notNull())
    .addColumn('asking_price', 'bigint', (c) => c.notNull())
    // The price a buyer sees: the auction's current price once there is an auction.
    .addColumn('price', 'bigint', (c) => c.notNull())
    .addColumn('player_name', 'text')
    .addColumn('team_or_club', 'text')
    .addColumn('league_or_event', 'text')
    .addColumn('date_or_season', 'text')
    .addColumn('size', 'text')
    .addColumn('tags', 'jsonb', (c) => c.notNull())
    .addColumn('jersey', 'jsonb')
    .addColumn('media_ids', 'jsonb', (c) => c.notNull())
    .addColumn('nfc_uid', 'text')
    .addColumn('auction_id', 'text')
    .addColumn('auction_ends_at', 'timestamptz')
    // Lower-cased player, team, title and description, trigram-indexed for "contains" search.
    .addColumn('search_text', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await sql`CREATE INDEX listings_search ON listings USING gin (search_text ${trigramOps})`.execute(db);
  for (const column of ['created_at', 'price', 'title', 'auction_ends_at']) {
    await db.schema.createIndex(`listings_status_${column}`).on('listings').columns(['status', column]).execute();
  }
  await db.schema.createIndex('listings_category').on('listings').columns(['category', 'status']).execute();

  await db.schema
    .createTable('auctions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('listing_id', 'text', (c) => c.notNull())
    .addColumn('seller_id', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('starts_at', 'timestamptz', (c) => c.notNull())
    .addColumn('ends_at', 'timestamptz', (c) => c.notNull())
    .addColumn('scheduled_ends_at', 'timestamptz', (c) => c.notNull())
    .addColumn('starting_price', 'bigint', (c) => c.notNull())
    .addColumn('current_price', 'bigint', (c) => c.notNull())
    .addColumn('minimum_next_bid', 'bigint', (c) => c.notNull())
    .addColumn('leader_id', 'text')
    .addColumn('leading_bid_id', 'text')
    .addColumn('bid_count', 'integer', (c) => c.notNull())
    .addColumn('reserve_price', 'bigint')
    .addColumn('reserve_met', 'boolean')
    .addColumn('buy_now_price', 'bigint')
    .addColumn('buy_now_available', 'boolean', (c) => c.notNull())
    .addColumn('increment_table', 'jsonb', (c) => c.notNull())
    .addColumn('soft_close', 'jsonb')
    .addColumn('result', 'text')
    .addColumn('winner_id', 'text')
    .addColumn('winning_bid_id', 'text')
    .addColumn('final_price', 'bigint')
    .addColumn('closed_at', 'timestamptz')
    .addColumn('closed_by', 'text')
    .addColumn('cancellation_reason', 'text')
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('auctions_listing').on('auctions').column('listing_id').execute();
  await db.schema.createIndex('auctions_status_starts').on('auctions').columns(['status', 'starts_at']).execute();
  await db.schema.createIndex('auctions_status_ends').on('auctions').columns(['status', 'ends_at']).execute();

  await db.schema
    .createTable('bids')
    // Log order: rows are inserted in the order the log delivers them.
    .addColumn('sequence', 'bigint', (c) => c.generatedAlwaysAsIdentity().primaryKey())
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('auction_id', 'text', (c) => c.notNull())
    .addColumn('bidder_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('maximum', 'bigint')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('for_bid_id', 'text')
    .addColumn('placed_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('bids_auction').on('bids').columns(['auction_id', 'sequence']).execute();
  await db.schema.createIndex('bids_bidder').on('bids').columns(['bidder_id', 'sequence']).execute();

  await db.schema
    .createTable('bid_rejections')
    .addColumn('sequence', 'bigint', (c) => c.generatedAlwaysAsIdentity().primaryKey())
    .addColumn('event_id', 'text', (c) => c.notNull().unique())
    .addColumn('auction_id', 'text', (c) => c.notNull())
    .addColumn('bid_id', 'text', (c) => c.notNull())
    .addColumn('bidder_id', 'text', (c) => c.notNull())
    .addColumn('attempt', 'text', (c) => c.notNull())
    .addColumn('amount', 'bigint')
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('attempted_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('bid_rejections_bidder').on('bid_rejections').columns(['bidder_id', 'sequence']).execute();

  await db.schema
    .createTable('nfc_tags')
    .addColumn('uid', 'text', (c) => c.primaryKey())
    .addColumn('claim_code', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('listing_id', 'text')
    .addColumn('provisioned_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('nfc_tags_claim_code').on('nfc_tags').column('claim_code').execute();
  await db.schema.createIndex('nfc_tags_status').on('nfc_tags').columns(['status', 'uid']).execute();

  await db.schema
    .createTable('projection_checkpoints')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('position', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['projection_checkpoints', 'nfc_tags', 'bid_rejections', 'bids', 'auctions', 'listings']) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}

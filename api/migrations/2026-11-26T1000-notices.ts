import { sql, type Kysely } from 'kysely';

/**
 * Buyers stay in the game: verified addresses and one-time account links, the server-side
 * watchlist, notices made from the log (with the notifier's own view of each auction and its
 * checkpoint, kept apart from the disposable read models), and the mail outbox.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').addColumn('email_verified_at', 'timestamptz').execute();

  await db.schema
    .createTable('account_tokens')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('purpose', 'text', (c) => c.notNull().check(sql`purpose in ('PASSWORD_RESET', 'EMAIL_VERIFICATION', 'EMAIL_CHANGE')`))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('used_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('account_tokens_user').on('account_tokens').columns(['user_id', 'purpose']).execute();

  await db.schema
    .createTable('watchlist')
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('listing_id', 'text', (c) => c.notNull())
    .addColumn('added_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('watchlist_pk', ['user_id', 'listing_id'])
    .execute();
  await db.schema.createIndex('watchlist_listing').on('watchlist').columns(['listing_id']).execute();

  await db.schema
    .createTable('notifications')
    .addColumn('id', 'text', (c) => c.primaryKey())
    // The order notices were made in, across processes: a socket's feed asks for what is past the last it saw.
    .addColumn('sequence', 'bigserial', (c) => c.notNull().unique())
    .addColumn('recipient_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('listing_id', 'text')
    .addColumn('auction_id', 'text')
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('link', 'text')
    // What caused it, once: the event and the kind (or the lot and the person, for ENDING_SOON).
    .addColumn('cause', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('read_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('notifications_recipient').on('notifications').columns(['recipient_id', 'sequence']).execute();
  await sql`create index notifications_unread on notifications (recipient_id) where read_at is null`.execute(db);

  await db.schema
    .createTable('notifier_auctions')
    .addColumn('auction_id', 'text', (c) => c.primaryKey())
    .addColumn('listing_id', 'text', (c) => c.notNull())
    .addColumn('leader_id', 'text')
    .execute();
  await db.schema
    .createTable('notifier_bidders')
    .addColumn('auction_id', 'text', (c) => c.notNull())
    .addColumn('bidder_id', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('notifier_bidders_pk', ['auction_id', 'bidder_id'])
    .execute();
  await db.schema
    .createTable('log_consumer_checkpoints')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('position', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('mail_outbox')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('cause', 'text', (c) => c.notNull().unique())
    .addColumn('recipient', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('text_body', 'text', (c) => c.notNull())
    .addColumn('html_body', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'timestamptz', (c) => c.notNull())
    .addColumn('claimed_until', 'timestamptz')
    .addColumn('sent_at', 'timestamptz')
    .addColumn('failed_at', 'timestamptz')
    .addColumn('last_error', 'text')
    .execute();
  await sql`create index mail_outbox_due on mail_outbox (next_attempt_at) where sent_at is null and failed_at is null`.execute(db);
  // GET /api/admin/mail lists by status, newest first.
  await db.schema.createIndex('mail_outbox_created').on('mail_outbox').columns(['created_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['mail_outbox', 'log_consumer_checkpoints', 'notifier_bidders', 'notifier_auctions', 'notifications', 'watchlist', 'account_tokens']) {
    await db.schema.dropTable(table).ifExists().execute();
  }
  await db.schema.alterTable('users').dropColumn('email_verified_at').execute();
}

import type { Kysely } from 'kysely';

/** The notifier's own view of each order (its buyer, lot and total), kept apart from the read models like its view of auctions. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('notifier_orders')
    .addColumn('order_id', 'text', (c) => c.primaryKey())
    .addColumn('order_number', 'text', (c) => c.notNull())
    .addColumn('buyer_id', 'text', (c) => c.notNull())
    .addColumn('listing_id', 'text', (c) => c.notNull())
    .addColumn('auction_id', 'text', (c) => c.notNull())
    .addColumn('total', 'bigint', (c) => c.notNull())
    .addColumn('has_address', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('notifier_orders').ifExists().execute();
}

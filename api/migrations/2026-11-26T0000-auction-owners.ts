import { sql, type Kysely } from 'kysely';

/** Leases on hot auctions: one API process decides each auction's commands, the others forward them to it. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('auction_owners')
    .addColumn('auction_id', 'text', (c) => c.primaryKey())
    .addColumn('instance_id', 'text', (c) => c.notNull())
    .addColumn('instance_url', 'text', (c) => c.notNull())
    .addColumn('lease_until', 'timestamptz', (c) => c.notNull())
    .addColumn('since', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('auction_owners_instance').on('auction_owners').columns(['instance_id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('auction_owners').ifExists().execute();
}

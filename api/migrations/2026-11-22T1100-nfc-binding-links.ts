import type { Kysely } from 'kysely';

/**
 * One-time links that bind an NFC tag to a listing from a phone (the admin's QR code). Only the
 * token's SHA-256 is kept: whoever reads this table cannot bind with what they find in it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('nfc_binding_links')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('listing_id', 'text', (c) => c.notNull())
    // The admin whose authority the phone binds with.
    .addColumn('created_by', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('used_at', 'timestamptz')
    .addColumn('bound_uid', 'text')
    .execute();
  await db.schema.createIndex('nfc_binding_links_listing').on('nfc_binding_links').column('listing_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('nfc_binding_links').ifExists().execute();
}

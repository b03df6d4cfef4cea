import { sql, type Kysely } from 'kysely';

/**
 * Media files: one row per file, whatever stores the bytes. The key is chosen by the server; a
 * client's filename is kept only as a label. PENDING rows are uploads announced but not confirmed.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('media')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('storage_key', 'text', (c) => c.notNull().unique())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('size_bytes', 'bigint', (c) => c.notNull())
    .addColumn('original_filename', 'text')
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status IN ('PENDING', 'COMPLETED')`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('media').ifExists().execute();
}

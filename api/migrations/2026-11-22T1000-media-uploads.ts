import { sql, type Kysely } from 'kysely';

/**
 * Uploads through signed URLs: a media row is PENDING from the moment its URL is handed out until
 * the client confirms the upload, then COMPLETED, or FAILED with the reason the status call gives.
 * The size is known only once the file has arrived, so it may be empty while PENDING.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('media')
    .addColumn('upload_expires_at', 'timestamptz')
    .addColumn('declared_size_bytes', 'bigint')
    .addColumn('etag', 'text')
    .addColumn('failure_code', 'text')
    .addColumn('failure_reason', 'text')
    .execute();
  await db.schema.alterTable('media').alterColumn('size_bytes', (c) => c.dropNotNull()).execute();
  await sql`ALTER TABLE media DROP CONSTRAINT media_status_check`.execute(db);
  await sql`ALTER TABLE media ADD CONSTRAINT media_status_check CHECK (status IN ('PENDING', 'COMPLETED', 'FAILED'))`.execute(db);
  // A settled upload says why it failed; a row without a size is still waiting for its file.
  await sql`ALTER TABLE media ADD CONSTRAINT media_failure_check CHECK ((status = 'FAILED') = (failure_code IS NOT NULL))`.execute(db);
  await sql`ALTER TABLE media ADD CONSTRAINT media_completed_size_check CHECK (status <> 'COMPLETED' OR size_bytes IS NOT NULL)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  // The older shape knows neither failures nor sizeless rows: those uploads are forgotten.
  await sql`DELETE FROM media WHERE status = 'FAILED' OR size_bytes IS NULL`.execute(db);
  await sql`ALTER TABLE media DROP CONSTRAINT media_completed_size_check`.execute(db);
  await sql`ALTER TABLE media DROP CONSTRAINT media_failure_check`.execute(db);
  await sql`ALTER TABLE media DROP CONSTRAINT media_status_check`.execute(db);
  await sql`ALTER TABLE media ADD CONSTRAINT media_status_check CHECK (status IN ('PENDING', 'COMPLETED'))`.execute(db);
  await db.schema.alterTable('media').alterColumn('size_bytes', (c) => c.setNotNull()).execute();
  await db.schema
    .alterTable('media')
    .dropColumn('upload_expires_at')
    .dropColumn('declared_size_bytes')
    .dropColumn('etag')
    .dropColumn('failure_code')
    .dropColumn('failure_reason')
    .execute();
}

import { sql, type Kysely } from 'kysely';

/** The marketplace's sorts, by column: created_at, price, title and auction_ends_at. */
const SORT_COLUMNS = ['created_at', 'price', 'title', 'auction_ends_at'];

/**
 * An index for each filter and sort the marketplace sends (api/listings/queries.ts), in the query's
 * own order, so that a page is read off an index at any size and each count is an index-only scan:
 * - by status: (status, column, id), replacing (status, column), which left the id tie-break to a sort;
 * - by category: (category, status, column, id), replacing (category, status);
 * - the Signed chip: (status, column, id) over the signed listings only. Its filter, a JSONB ?| on
 *   tags, is otherwise checked row by row in the table, for the page and for the count.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const column of SORT_COLUMNS) await db.schema.dropIndex(`listings_status_${column}`).execute();
  await db.schema.dropIndex('listings_category').execute();
  for (const column of SORT_COLUMNS) {
    await db.schema.createIndex(`listings_status_${column}`).on('listings').columns(['status', column, 'id']).execute();
    await db.schema.createIndex(`listings_category_${column}`).on('listings').columns(['category', 'status', column, 'id']).execute();
    await db.schema
      .createIndex(`listings_signed_${column}`)
      .on('listings')
      .columns(['status', column, 'id'])
      // The very expression the query sends for the Signed chip: PostgreSQL proves nothing looser.
      .where(sql<boolean>`tags ?| array['SIGNED', 'AUTOGRAPHED']`)
      .execute();
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const column of SORT_COLUMNS) {
    for (const index of [`listings_status_${column}`, `listings_category_${column}`, `listings_signed_${column}`]) {
      await db.schema.dropIndex(index).execute();
    }
    await db.schema.createIndex(`listings_status_${column}`).on('listings').columns(['status', column]).execute();
  }
  await db.schema.createIndex('listings_category').on('listings').columns(['category', 'status']).execute();
}

import { sql, type Kysely } from 'kysely';
import type { Database } from '../database';

/** How many notices each of `users` has not read (absent: none). */
export async function unreadCounts(db: Kysely<Database>, users: readonly string[]): Promise<Map<string, number>> {
  if (users.length === 0) return new Map();
  const rows = await db
    .selectFrom('notifications')
    .select(['recipient_id', sql<string | number>`count(*)`.as('unread')])
    .where('recipient_id', 'in', users)
    .where('read_at', 'is', null)
    .groupBy('recipient_id')
    .execute();
  return new Map(rows.map((row) => [row.recipient_id, Number(row.unread)]));
}

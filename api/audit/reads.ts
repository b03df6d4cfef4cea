import type { Kysely } from 'kysely';
import type { AuditRead } from '../contracts/audit';
import type { Database } from '../database';

export interface AuditReadRecord {
  readonly userId: string;
  readonly route: string;
  readonly params: Record<string, unknown>;
  readonly query: Record<string, unknown>;
}

/** Written before the answer is built: a read that cannot be recorded is not served. */
export async function recordAuditRead(db: Kysely<Database>, read: AuditReadRecord, now: Date): Promise<void> {
  await db
    .insertInto('audit_reads')
    .values({ user_id: read.userId, route: read.route, params: JSON.stringify(read.params), query: JSON.stringify(read.query), at: now })
    .execute();
}

export async function listAuditReads(
  db: Kysely<Database>,
  filter: { user?: string | undefined; before?: number | undefined; limit: number },
): Promise<{ reads: AuditRead[]; next: number | null }> {
  let query = db.selectFrom('audit_reads').selectAll().orderBy('id', 'desc').limit(filter.limit + 1);
  if (filter.user !== undefined) query = query.where('user_id', '=', filter.user);
  if (filter.before !== undefined) query = query.where('id', '<', String(filter.before));
  const rows = await query.execute();
  const reads = rows.slice(0, filter.limit).map(
    (row): AuditRead => ({
      id: Number(row.id),
      userId: row.user_id,
      route: row.route,
      params: row.params,
      query: row.query,
      at: new Date(row.at).toISOString(),
    }),
  );
  return { reads, next: rows.length > filter.limit ? reads.at(-1)!.id : null };
}

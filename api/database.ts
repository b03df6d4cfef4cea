import type { Kysely } from 'kysely';
import { createKysely } from '../engine/postgres/kysely-dialect';
import type { SqlClient } from '../engine/postgres/sql-client';
import { migrateReadModels, type ReadModels } from '../projections';
import { migrateApplicationTables } from './migrations';
import type { AccountTables } from './accounts/schema';
import type { AuditTables } from './audit/schema';
import type { ClusterTables } from './cluster/schema';
import type { MediaTables } from './media/schema';
import type { NfcBindingLinkTables } from './mobile-binding/schema';
import type { MailTables } from './mail/schema';
import type { NoticeTables } from './notices/schema';
import type { WatchlistTables } from './watchlist/schema';

/** Every table the API queries: read models (projections/) and the application's own (api/migrations/). */
export type Database = ReadModels & AccountTables & AuditTables & ClusterTables & MediaTables & NfcBindingLinkTables & WatchlistTables & NoticeTables & MailTables;

/**
 * A kysely instance on the infrastructure's database, with its schema migrated. Do not call
 * `destroy()` on it: the pool belongs to the SqlClient, closed with the infrastructure.
 */
export async function openDatabase(sql: SqlClient): Promise<Kysely<Database>> {
  const db = createKysely<Database>(sql);
  await migrateApplicationTables(db as Kysely<unknown>);
  await migrateReadModels(db as Kysely<unknown>);
  return db;
}

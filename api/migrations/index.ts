import { Migrator, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import * as accounts20261122 from './2026-11-22T0000-accounts';

/** Migrations of the application's own tables (accounts, idempotency keys, media), oldest first. */
const MIGRATIONS: Record<string, Migration> = {
  '2026-11-22T0000-accounts': accounts20261122,
};

const provider: MigrationProvider = { getMigrations: async () => MIGRATIONS };

export async function migrateApplicationTables(db: Kysely<unknown>): Promise<void> {
  const migrator = new Migrator({ db, provider, migrationTableName: 'application_migrations', migrationLockTableName: 'application_migrations_lock' });
  const { error } = await migrator.migrateToLatest();
  if (error) throw error;
}

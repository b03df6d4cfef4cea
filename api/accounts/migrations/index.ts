import { Migrator, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import * as accounts20261122 from './2026-11-22T0000-accounts';

/** Account migrations, oldest first; names sort by their timestamp. */
const MIGRATIONS: Record<string, Migration> = {
  '2026-11-22T0000-accounts': accounts20261122,
};

const provider: MigrationProvider = { getMigrations: async () => MIGRATIONS };

export async function migrateAccounts(db: Kysely<unknown>): Promise<void> {
  const migrator = new Migrator({ db, provider, migrationTableName: 'account_migrations', migrationLockTableName: 'account_migrations_lock' });
  const { error } = await migrator.migrateToLatest();
  if (error) throw error;
}

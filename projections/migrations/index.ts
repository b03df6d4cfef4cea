import { Migrator, NO_MIGRATIONS, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import { currentSchema } from '../../engine/postgres/kysely-dialect';
import * as readModels20261121 from './2026-11-21T2330-read-models';
import * as auctionVersions20261124 from './2026-11-24T1000-auction-versions';
import * as listingSortIndexes20261125 from './2026-11-25T1200-listing-sort-indexes';
import * as orders20261126 from './2026-11-26T2000-orders';
import * as auctionLogs20261127 from './2026-11-27T0900-auction-logs';

/** Read-model migrations, oldest first; names sort by their timestamp. */
const MIGRATIONS: Record<string, Migration> = {
  '2026-11-21T2330-read-models': readModels20261121,
  '2026-11-24T1000-auction-versions': auctionVersions20261124,
  '2026-11-25T1200-listing-sort-indexes': listingSortIndexes20261125,
  '2026-11-26T2000-orders': orders20261126,
  '2026-11-27T0900-auction-logs': auctionLogs20261127,
};

const provider: MigrationProvider = { getMigrations: async () => MIGRATIONS };

async function migrator(db: Kysely<unknown>): Promise<Migrator> {
  // A history of their own: read models are dropped and rebuilt without touching other tables.
  return new Migrator({
    db,
    provider,
    migrationTableSchema: await currentSchema(db),
    migrationTableName: 'read_model_migrations',
    migrationLockTableName: 'read_model_migrations_lock',
  });
}

export async function migrateReadModels(db: Kysely<unknown>): Promise<void> {
  const { error } = await (await migrator(db)).migrateToLatest();
  if (error) throw error;
}

/** Drops every read-model table (all migrations down). The event log is not touched. */
export async function dropReadModels(db: Kysely<unknown>): Promise<void> {
  const { error } = await (await migrator(db)).migrateTo(NO_MIGRATIONS);
  if (error) throw error;
}

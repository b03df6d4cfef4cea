import { Migrator, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import { currentSchema } from '../../engine/postgres/kysely-dialect';
import * as accounts20261122 from './2026-11-22T0000-accounts';
import * as media20261122 from './2026-11-22T0100-media';
import * as mediaUploads20261122 from './2026-11-22T1000-media-uploads';
import * as nfcBindingLinks20261122 from './2026-11-22T1100-nfc-binding-links';
import * as auditReads20261125 from './2026-11-25T0000-audit-reads';
import * as accountAccessChanges20261125 from './2026-11-25T1300-account-access-changes';
import * as auctionOwners20261126 from './2026-11-26T0000-auction-owners';
import * as notices20261126 from './2026-11-26T1000-notices';
import * as notifierOrders20261126 from './2026-11-26T2100-notifier-orders';

/** Migrations of the application's own tables (accounts, idempotency keys, media, NFC binding links, audit reads, auction owners, notices and mail, the notifier's view of orders), oldest first. */
const MIGRATIONS: Record<string, Migration> = {
  '2026-11-22T0000-accounts': accounts20261122,
  '2026-11-22T0100-media': media20261122,
  '2026-11-22T1000-media-uploads': mediaUploads20261122,
  '2026-11-22T1100-nfc-binding-links': nfcBindingLinks20261122,
  '2026-11-25T0000-audit-reads': auditReads20261125,
  '2026-11-25T1300-account-access-changes': accountAccessChanges20261125,
  '2026-11-26T0000-auction-owners': auctionOwners20261126,
  '2026-11-26T1000-notices': notices20261126,
  '2026-11-26T2100-notifier-orders': notifierOrders20261126,
};

const provider: MigrationProvider = { getMigrations: async () => MIGRATIONS };

export async function migrateApplicationTables(db: Kysely<unknown>): Promise<void> {
  const migrator = new Migrator({
    db,
    provider,
    migrationTableSchema: await currentSchema(db),
    migrationTableName: 'application_migrations',
    migrationLockTableName: 'application_migrations_lock',
  });
  const { error } = await migrator.migrateToLatest();
  if (error) throw error;
}

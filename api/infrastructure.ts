import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { PRODUCT_STREAM_PREFIXES } from '../engine/domain/catalogue';
import type { EventStore } from '../engine/eventstore/port';
import { PostgresEventStore } from '../engine/eventstore/postgres/postgres-event-store';
import { NodePostgresClient, PGliteClient, type SqlClient } from '../engine/postgres/sql-client';
import type { Config } from './config';
import { lockDataDir, type DataDirLock } from './data-dir-lock';

export interface Infrastructure {
  /** Postgres for read models and accounts: the server at DATABASE_URL, else PGlite under DATA_DIR. */
  readonly database: SqlClient;
  /** KurrentDB when EVENTSTORE_URL is set, else the events table in `database`. */
  readonly eventStore: EventStore;
  /** What runs where, for the start-up log line. */
  readonly description: { database: string; eventStore: string };
  close(): Promise<void>;
}

/**
 * Opens the storage the configuration names. PGlite allows one process per folder, so on the
 * embedded default this process first takes DATA_DIR for itself (DataDirLockedError when another
 * holds it). With DATABASE_URL, DATA_DIR keeps only files several processes may share (media,
 * the generated JWT secret): no lock, as replicas run side by side.
 */
export async function openInfrastructure(config: Config): Promise<Infrastructure> {
  let database: SqlClient;
  let databaseDescription: string;
  let lock: DataDirLock | undefined;
  if (config.databaseUrl) {
    database = new NodePostgresClient({ connectionString: config.databaseUrl });
    databaseDescription = 'PostgreSQL (DATABASE_URL)';
  } else {
    lock = await lockDataDir(config.dataDir);
    const directory = join(config.dataDir, 'pglite');
    try {
      await mkdir(directory, { recursive: true });
      database = await PGliteClient.open(directory);
    } catch (error) {
      await lock.release();
      throw error;
    }
    databaseDescription = `PGlite in ${directory}`;
  }
  try {
    const eventStore = config.eventStoreUrl ? await openKurrentDb(config.eventStoreUrl, config.eventStoreNamespace) : await PostgresEventStore.open(database);
    return {
      database,
      eventStore,
      description: { database: databaseDescription, eventStore: config.eventStoreUrl ? `KurrentDB (EVENTSTORE_URL${config.eventStoreNamespace ? `, namespace ${config.eventStoreNamespace}` : ''})` : 'events table in the database' },
      async close() {
        await eventStore.close();
        await database.close();
        await lock?.release();
      },
    };
  } catch (error) {
    await database.close();
    await lock?.release();
    throw error;
  }
}

/** The KurrentDB client brings a gRPC stack of some 26 MB: loaded only when EVENTSTORE_URL asks for it. */
async function openKurrentDb(connectionString: string, namespace: string | undefined): Promise<EventStore> {
  const { KurrentDbEventStore } = await import('../engine/eventstore/kurrentdb/store');
  // $all is shared: the product reads and follows only its own streams (in its namespace, if any).
  return KurrentDbEventStore.fromConnectionString(connectionString, { streamPrefixes: PRODUCT_STREAM_PREFIXES, ...(namespace === undefined ? {} : { namespace }) });
}

import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { KurrentDbEventStore } from '../engine/eventstore/kurrentdb/store';
import type { EventStore } from '../engine/eventstore/port';
import { PostgresEventStore } from '../engine/eventstore/postgres/postgres-event-store';
import { NodePostgresClient, PGliteClient, type SqlClient } from '../engine/postgres/sql-client';
import type { Config } from './config';

export interface Infrastructure {
  /** Postgres for read models and accounts: the server at DATABASE_URL, else PGlite under DATA_DIR. */
  readonly database: SqlClient;
  /** KurrentDB when EVENTSTORE_URL is set, else the events table in `database`. */
  readonly eventStore: EventStore;
  /** What runs where, for the start-up log line. */
  readonly description: { database: string; eventStore: string };
  close(): Promise<void>;
}

export async function openInfrastructure(config: Config): Promise<Infrastructure> {
  let database: SqlClient;
  let databaseDescription: string;
  if (config.databaseUrl) {
    database = new NodePostgresClient({ connectionString: config.databaseUrl });
    databaseDescription = 'PostgreSQL (DATABASE_URL)';
  } else {
    const directory = join(config.dataDir, 'pglite');
    await mkdir(directory, { recursive: true });
    database = await PGliteClient.open(directory);
    databaseDescription = `PGlite in ${directory}`;
  }
  try {
    const eventStore = config.eventStoreUrl
      ? KurrentDbEventStore.fromConnectionString(config.eventStoreUrl)
      : await PostgresEventStore.open(database);
    return {
      database,
      eventStore,
      description: { database: databaseDescription, eventStore: config.eventStoreUrl ? 'KurrentDB (EVENTSTORE_URL)' : 'events table in the database' },
      async close() {
        await eventStore.close();
        await database.close();
      },
    };
  } catch (error) {
    await database.close();
    throw error;
  }
}

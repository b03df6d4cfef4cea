/**
 * The store-level sections of `npm run bench` work in databases of their own, created fresh on the
 * benchmark's PostgreSQL server and dropped afterwards, so that a run never touches data it did not
 * make and two sections never see each other's tables.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';

export interface ScratchDatabase {
  readonly name: string;
  /** The server's URL with this database in its path. */
  readonly url: string;
  drop(): Promise<void>;
}

/** A new empty database `bench_<purpose>_<random>` on the server at `serverUrl`. */
async function createScratchDatabase(serverUrl: string, purpose: string): Promise<ScratchDatabase> {
  const name = `bench_${purpose}_${randomUUID().slice(0, 8)}`;
  await onServer(serverUrl, `CREATE DATABASE ${pg.escapeIdentifier(name)}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    // FORCE: a pool a failed section left open must not keep the database alive.
    drop: () => onServer(serverUrl, `DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`),
  };
}

/** Runs `work` with a fresh scratch database, dropped afterwards whatever happens. */
export async function withScratchDatabase<T>(serverUrl: string, purpose: string, work: (database: ScratchDatabase) => Promise<T>): Promise<T> {
  const database = await createScratchDatabase(serverUrl, purpose);
  try {
    return await work(database);
  } finally {
    await database.drop();
  }
}

async function onServer(serverUrl: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

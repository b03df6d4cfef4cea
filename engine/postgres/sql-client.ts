import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

/**
 * The one database connection the event store, the read models and the API share: the little they
 * need of it, so that one implementation runs on a real server (node-postgres) and on PGlite
 * (in-process Postgres, the embedded default).
 */
export interface SqlQueryable {
  query<Row = Record<string, unknown>>(text: string, params?: unknown[], options?: QueryOptions): Promise<{ rows: Row[] }>;
}

export interface QueryOptions {
  /**
   * Prepares the statement once per connection under this name (node-postgres), so that a hot
   * statement is parsed and planned once. PGlite has no named statements and ignores it. One name,
   * one text.
   */
  readonly name?: string;
}

export interface SqlClient extends SqlQueryable {
  /** Runs `work` in one transaction on one connection; rolls back if it throws. */
  transaction<T>(work: (tx: SqlQueryable) => Promise<T>): Promise<T>;
  /** Calls `onNotify` for each NOTIFY on `channel`; resolves to an unsubscribe function. */
  listen(channel: string, onNotify: () => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

export class NodePostgresClient implements SqlClient {
  /** Shared with kysely, so that read models and the event store use one pool. */
  readonly pool: pg.Pool;
  readonly #connection: pg.PoolConfig;

  constructor(connection: pg.PoolConfig) {
    this.#connection = connection;
    this.pool = new pg.Pool(connection);
    // An idle client that loses its connection must not crash the process; the pool replaces it.
    this.pool.on('error', () => undefined);
  }

  async query<Row>(text: string, params: unknown[] = [], options: QueryOptions = {}) {
    const result = await this.pool.query({ text, values: params, name: options.name });
    return { rows: result.rows as Row[] };
  }

  async transaction<T>(work: (tx: SqlQueryable) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const result = await work({
        query: async <Row>(text: string, params: unknown[] = [], options: QueryOptions = {}) => ({
          rows: (await client.query({ text, values: params, name: options.name })).rows as Row[],
        }),
      });
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  async listen(channel: string, onNotify: () => void): Promise<() => Promise<void>> {
    // LISTEN needs a connection of its own, outside the pool. If it drops, reconnect; the
    // subscriber's periodic poll covers the gap.
    let stopped = false;
    let client: pg.Client | undefined;
    const connect = async (): Promise<void> => {
      const listener = new pg.Client(this.#connection);
      listener.on('notification', onNotify);
      listener.on('error', () => {
        void listener.end().catch(() => undefined);
        if (!stopped) setTimeout(() => void connect().catch(() => undefined), 1000).unref();
      });
      await listener.connect();
      await listener.query(`LISTEN ${quoteIdentifier(channel)}`);
      client = listener;
      onNotify(); // anything appended while (re)connecting is picked up by the next read
    };
    await connect();
    return async () => {
      stopped = true;
      await client?.end().catch(() => undefined);
    };
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}

/**
 * initdb writes PostgreSQL's server defaults (shared_buffers 128MB), which PGlite sets aside in the
 * process's own memory and touches whole at start. Its files are read through the operating
 * system's page cache, so a small buffer pool costs no reads from disk.
 */
const PGLITE_START_PARAMS = [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB'];

/**
 * Creates the database in a process of its own: PGlite runs initdb in a second instance, whose
 * peak (some 500 MiB more) and what the allocator keeps of it afterwards (some 75 MiB) then stay
 * with that short-lived process.
 */
async function createPGliteDatabase(dataDir: string): Promise<void> {
  const pglite = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  const script = `require(${JSON.stringify(pglite)}).PGlite.create(${JSON.stringify(dataDir)}, { startParams: ${JSON.stringify(PGLITE_START_PARAMS)} }).then((db) => db.close())`;
  await promisify(execFile)(process.execPath, ['-e', script]);
}

/**
 * PGlite is one connection. Every use of it takes a lock, so that a transaction (ours or one
 * kysely runs through `lease`) never has another caller's statements run inside it.
 */
export class PGliteClient implements SqlClient {
  #tail: Promise<unknown> = Promise.resolve();

  constructor(readonly db: PGlite) {}

  /** Opens (or creates) a PGlite database in `dataDir`; in memory when dataDir is undefined. */
  static async open(dataDir?: string): Promise<PGliteClient> {
    if (dataDir !== undefined && !existsSync(join(dataDir, 'PG_VERSION'))) await createPGliteDatabase(dataDir);
    return new PGliteClient(await PGlite.create(dataDir, { extensions: { pg_trgm }, startParams: PGLITE_START_PARAMS }));
  }

  query<Row>(text: string, params: unknown[] = []) {
    return this.#exclusive(async () => ({ rows: (await this.db.query<Row>(text, params)).rows }));
  }

  transaction<T>(work: (tx: SqlQueryable) => Promise<T>): Promise<T> {
    return this.#exclusive(() =>
      this.db.transaction(async (tx) =>
        work({ query: async <Row>(text: string, params: unknown[] = []) => ({ rows: (await tx.query<Row>(text, params)).rows }) }),
      ),
    );
  }

  /** Exclusive use of the connection until `release` is called: what a kysely connection is. */
  lease(): Promise<{ query: SqlQueryable['query']; release: () => void }> {
    return new Promise((leased) => {
      void this.#exclusive(
        () =>
          new Promise<void>((release) => {
            leased({
              query: async <Row>(text: string, params: unknown[] = []) => ({ rows: (await this.db.query<Row>(text, params)).rows }),
              release,
            });
          }),
      );
    });
  }

  async listen(channel: string, onNotify: () => void): Promise<() => Promise<void>> {
    return this.db.listen(channel, onNotify);
  }

  async close(): Promise<void> {
    await this.#exclusive(() => this.db.close());
  }

  #exclusive<T>(work: () => Promise<T>): Promise<T> {
    const result = this.#tail.then(work);
    this.#tail = result.catch(() => undefined);
    return result;
  }
}

export function quoteIdentifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

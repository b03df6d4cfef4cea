import {
  CompiledQuery,
  Kysely,
  PostgresAdapter,
  PostgresDialect,
  PostgresIntrospector,
  PostgresQueryCompiler,
  sql,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type QueryResult,
} from 'kysely';
import { NodePostgresClient, PGliteClient, type SqlClient } from './sql-client';

/** A kysely instance on the same database (and, for a server, the same pool) as the event store. */
export function createKysely<Database>(sql: SqlClient): Kysely<Database> {
  if (sql instanceof NodePostgresClient) return new Kysely<Database>({ dialect: new PostgresDialect({ pool: sql.pool }) });
  if (sql instanceof PGliteClient) return new Kysely<Database>({ dialect: pgliteDialect(sql) });
  throw new TypeError('createKysely needs a NodePostgresClient or a PGliteClient');
}

function pgliteDialect(client: PGliteClient): Dialect {
  return {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new PGliteDriver(client),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  };
}

class PGliteConnection implements DatabaseConnection {
  constructor(readonly lease: Awaited<ReturnType<PGliteClient['lease']>>) {}

  async executeQuery<Row>(compiled: CompiledQuery): Promise<QueryResult<Row>> {
    const result = await this.lease.query<Row>(compiled.sql, [...compiled.parameters]);
    return { rows: result.rows };
  }

  /**
   * kysely's `stream()` is refused, as on the server's pool (configured without cursors): were it
   * to work here only, code that streams would pass its PGlite tests and fail in production.
   */
  streamQuery<Row>(): AsyncIterableIterator<QueryResult<Row>> {
    const refuse = (): Promise<IteratorResult<QueryResult<Row>>> => Promise.reject(new Error('PGlite connections do not stream'));
    return { next: refuse, [Symbol.asyncIterator]() { return this; } };
  }
}

/** Each kysely connection is an exclusive lease on the one PGlite connection. */
class PGliteDriver implements Driver {
  constructor(readonly client: PGliteClient) {}

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    return new PGliteConnection(await this.client.lease());
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('BEGIN'));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('COMMIT'));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('ROLLBACK'));
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    (connection as PGliteConnection).lease.release();
  }

  async destroy(): Promise<void> {}
}

/**
 * The schema unqualified names resolve to. Migrators are told it explicitly: otherwise kysely's
 * "does the migration table exist" check looks across every schema on the server and is fooled by
 * another schema's table (several test schemas, or several apps, on one server).
 */
export async function currentSchema(db: Kysely<unknown>): Promise<string> {
  const { rows } = await sql<{ schema: string }>`SELECT current_schema() AS schema`.execute(db);
  return rows[0]!.schema;
}

import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { NodePostgresClient } from '../../engine/postgres/sql-client';

/** The real PostgreSQL the Postgres-backed suites run against, when one is given. */
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;

if (!TEST_DATABASE_URL) {
  console.warn(
    'PostgreSQL suites NOT RUN: set TEST_DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/test) to run them against a real server',
  );
}

/**
 * A schema of its own on the test server, so that suites running at once never see each other's
 * rows. Clients made by `client()` use it as their search path.
 */
export async function createTestSchema(url: string) {
  const schema = `t_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  const connection = { connectionString: url, options: `-c search_path=${schema}` };
  const clients: NodePostgresClient[] = [];
  return {
    schema,
    connection,
    client(): NodePostgresClient {
      const client = new NodePostgresClient({ ...connection, max: 10 });
      clients.push(client);
      return client;
    },
    async drop(): Promise<void> {
      await Promise.all(clients.map((client) => client.close().catch(() => undefined)));
      const cleanup = new pg.Client({ connectionString: url });
      await cleanup.connect();
      await cleanup.query(`DROP SCHEMA ${schema} CASCADE`);
      await cleanup.end();
    },
  };
}

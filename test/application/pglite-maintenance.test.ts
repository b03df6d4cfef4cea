import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Logger } from '../../engine/application/logger';
import { PGliteMaintenance } from '../../engine/postgres/pglite-maintenance';
import { PGliteClient } from '../../engine/postgres/sql-client';

/** What the job logged, by level. */
function recordingLogger(): Logger & { lines: Array<{ level: string; details: object; message: string }> } {
  const lines: Array<{ level: string; details: object; message: string }> = [];
  const record = (level: string) => (details: object, message: string) => void lines.push({ level, details, message });
  return { lines, error: record('error'), warn: record('warn'), info: record('info') };
}

const ROWS = 2_000;

describe('PGliteMaintenance: what autovacuum does on a server, on the embedded default', () => {
  let sql: PGliteClient;
  let log: ReturnType<typeof recordingLogger>;
  let maintenance: PGliteMaintenance;

  /** Every row updated `times` times, on an indexed column: each update leaves a dead row version and index entry behind. */
  const churn = async (times: number) => {
    for (let time = 0; time < times; time++) await sql.query('UPDATE lots SET price = price + 1');
  };
  const size = async (table: string) => Number((await sql.query<{ bytes: string }>('SELECT pg_total_relation_size($1::regclass)::text AS bytes', [table])).rows[0]!.bytes);
  const statistics = async (table: string) => Number((await sql.query<{ count: string }>('SELECT count(*)::text AS count FROM pg_stats WHERE tablename = $1', [table])).rows[0]!.count);

  beforeEach(async () => {
    sql = await PGliteClient.open();
    log = recordingLogger();
    maintenance = new PGliteMaintenance(sql, log);
    await sql.query('CREATE TABLE lots (id integer PRIMARY KEY, price integer NOT NULL, title text NOT NULL)');
    await sql.query('CREATE INDEX lots_price ON lots (price)');
    await sql.query(`INSERT INTO lots SELECT g, g, repeat('x', 100) FROM generate_series(1, ${ROWS}) AS g`);
    await sql.query('CREATE TABLE "Quoted ""Name""" (id integer PRIMARY KEY)');
  });

  afterEach(async () => {
    await maintenance.stop();
    await sql.close();
  });

  it('without it, PGlite keeps every dead row and has no statistics (why the job exists)', async () => {
    const fresh = await size('lots');
    await churn(10);
    expect(await size('lots')).toBeGreaterThan(5 * fresh);
    expect(await statistics('lots')).toBe(0);
  });

  it('a round vacuums and analyzes every table; after it, updates reuse the space dead rows held', async () => {
    await churn(10);
    const every = ['"public"."Quoted ""Name"""', '"public"."lots"'];
    expect(await maintenance.runOnce()).toEqual({ vacuumed: every, analyzed: every });
    expect(await statistics('lots')).toBeGreaterThan(0);
    const { rows } = await sql.query<{ reltuples: number }>(`SELECT reltuples FROM pg_class WHERE relname = 'lots'`);
    expect(rows[0]!.reltuples).toBe(ROWS);

    const vacuumed = await size('lots');
    await churn(10);
    // Ten more versions of every row fit in the space the first ten left: the table did not grow.
    expect(await size('lots')).toBe(vacuumed);
    expect(log.lines).toEqual([expect.objectContaining({ level: 'info', message: 'embedded database vacuumed and analyzed', details: expect.objectContaining({ vacuumed: 2, analyzed: 2 }) })]);
  });

  it('a table whose size has not changed since the last round is left alone; one that grew is vacuumed again', async () => {
    await maintenance.runOnce();
    expect(await maintenance.runOnce()).toEqual({ vacuumed: [], analyzed: [] });
    await sql.query(`INSERT INTO lots SELECT g, g, repeat('y', 100) FROM generate_series(${ROWS + 1}, ${2 * ROWS}) AS g`);
    expect(await maintenance.runOnce()).toEqual({ vacuumed: ['"public"."lots"'], analyzed: ['"public"."lots"'] });
    const { rows } = await sql.query<{ reltuples: number }>(`SELECT reltuples FROM pg_class WHERE relname = 'lots'`);
    expect(rows[0]!.reltuples).toBe(2 * ROWS);
  });

  it('a large table is analyzed again only once it grew by a tenth since it last was; vacuumed whenever it changed', async () => {
    maintenance = new PGliteMaintenance(sql, log, { analyzeAlwaysBelowBytes: 0 });
    await maintenance.runOnce();
    const lots = ['"public"."lots"'];
    // Some 2.5% more rows: vacuumed, not analyzed.
    await sql.query(`INSERT INTO lots SELECT g, g, repeat('y', 100) FROM generate_series(${ROWS + 1}, ${ROWS + 50}) AS g`);
    expect(await maintenance.runOnce()).toEqual({ vacuumed: lots, analyzed: [] });
    // Some 20% more: past a tenth since the last ANALYZE.
    await sql.query(`INSERT INTO lots SELECT g, g, repeat('y', 100) FROM generate_series(${ROWS + 51}, ${ROWS + 450}) AS g`);
    expect(await maintenance.runOnce()).toEqual({ vacuumed: lots, analyzed: lots });
  });

  it('started, it runs its first round after firstAfterMs and then every everyMs; stopped, no more', async () => {
    maintenance = new PGliteMaintenance(sql, log, { firstAfterMs: 10, everyMs: 20 });
    maintenance.start();
    await expect.poll(() => log.lines.length, { timeout: 5_000 }).toBe(1);
    await sql.query(`INSERT INTO lots SELECT g, g, 'next' FROM generate_series(${ROWS + 1}, ${ROWS + 500}) AS g`);
    await expect.poll(() => log.lines.length, { timeout: 5_000 }).toBe(2);
    await maintenance.stop();
    await sql.query(`INSERT INTO lots SELECT g, g, 'later' FROM generate_series(${ROWS + 501}, ${ROWS + 1_000}) AS g`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(log.lines).toHaveLength(2);
    expect(await maintenance.runOnce()).toEqual({ vacuumed: [], analyzed: [] });
  });
});

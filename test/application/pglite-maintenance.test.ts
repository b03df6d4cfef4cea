import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Logger } from '../../engine/application/logger';
import { PGliteMaintenance, type MaintenanceRound } from '../../engine/postgres/pglite-maintenance';
import { PGliteClient } from '../../engine/postgres/sql-client';

/** What the job logged, by level. */
function recordingLogger(): Logger & { lines: Array<{ level: string; details: object; message: string }> } {
  const lines: Array<{ level: string; details: object; message: string }> = [];
  const record = (level: string) => (details: object, message: string) => void lines.push({ level, details, message });
  return { lines, error: record('error'), warn: record('warn'), info: record('info') };
}

const ROWS = 2_000;
const LOTS = '"public"."lots"';
const QUOTED = '"public"."Quoted ""Name"""';

/** A round's tables of this test's own (the system catalogs are maintained too). */
const ours = (round: MaintenanceRound) => ({
  vacuumed: round.vacuumed.filter((table) => table.startsWith('"public".')),
  analyzed: round.analyzed.filter((table) => table.startsWith('"public".')),
});

describe('PGliteMaintenance: what autovacuum does on a server, on the embedded default', () => {
  let sql: PGliteClient;
  let log: ReturnType<typeof recordingLogger>;
  let maintenance: PGliteMaintenance;

  /** Every row updated `times` times, on an indexed column: each update leaves a dead row version and index entry behind. */
  const churn = async (times: number) => {
    for (let time = 0; time < times; time++) await sql.query('UPDATE lots SET price = price + 1');
  };
  const addLots = (from: number, to: number) => sql.query(`INSERT INTO lots SELECT g, g, repeat('y', 100) FROM generate_series(${from}, ${to}) AS g`);
  const size = async (table: string) => Number((await sql.query<{ bytes: string }>('SELECT pg_total_relation_size($1::regclass)::text AS bytes', [table])).rows[0]!.bytes);
  const statistics = async (table: string) => Number((await sql.query<{ count: string }>('SELECT count(*)::text AS count FROM pg_stats WHERE tablename = $1', [table])).rows[0]!.count);
  const estimatedRows = async () => (await sql.query<{ reltuples: number }>(`SELECT reltuples FROM pg_class WHERE relname = 'lots'`)).rows[0]!.reltuples;

  beforeEach(async () => {
    sql = await PGliteClient.open();
    log = recordingLogger();
    maintenance = new PGliteMaintenance(sql, log);
    await sql.query('CREATE TABLE lots (id integer PRIMARY KEY, price integer NOT NULL, title text NOT NULL)');
    await sql.query('CREATE INDEX lots_price ON lots (price)');
    await addLots(1, ROWS);
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

  it('a round vacuums and analyzes every table, the catalogs too; after it, updates reuse the space dead rows held', async () => {
    await churn(10);
    const round = await maintenance.runOnce();
    expect(ours(round)).toEqual({ vacuumed: [QUOTED, LOTS], analyzed: [QUOTED, LOTS] });
    expect(round.vacuumed).toContain('"pg_catalog"."pg_statistic"');
    expect(await statistics('lots')).toBeGreaterThan(0);
    expect(await estimatedRows()).toBe(ROWS);

    const vacuumed = await size('lots');
    await churn(10);
    // Ten more versions of every row fit in the space the first ten left: the table did not grow.
    expect(await size('lots')).toBeLessThanOrEqual(vacuumed);
    expect(log.lines).toEqual([
      expect.objectContaining({ level: 'info', message: 'embedded database vacuumed and analyzed', details: expect.objectContaining({ vacuumed: round.vacuumed.length }) }),
    ]);
  });

  it('a table whose size has not changed since its last VACUUM is left alone; one that grew is vacuumed again', async () => {
    await maintenance.runOnce();
    await maintenance.runOnce(); // The first round's ANALYZE rows in pg_statistic are vacuumed by the second.
    expect(ours(await maintenance.runOnce())).toEqual({ vacuumed: [], analyzed: [] });
    await addLots(ROWS + 1, 2 * ROWS);
    expect(ours(await maintenance.runOnce())).toEqual({ vacuumed: [LOTS], analyzed: [LOTS] });
    expect(await estimatedRows()).toBe(2 * ROWS);
  });

  it('a large table is analyzed again only once it grew by a tenth since it last was; vacuumed whenever it changed', async () => {
    maintenance = new PGliteMaintenance(sql, log, { analyzeAlwaysBelowBytes: 0 });
    await maintenance.runOnce();
    // Some 2.5% more rows: vacuumed, not analyzed.
    await addLots(ROWS + 1, ROWS + 50);
    expect(ours(await maintenance.runOnce())).toEqual({ vacuumed: [LOTS], analyzed: [] });
    // Some 20% more: past a tenth since the last ANALYZE.
    await addLots(ROWS + 51, ROWS + 450);
    expect(ours(await maintenance.runOnce())).toEqual({ vacuumed: [LOTS], analyzed: [LOTS] });
  });

  it('a table is vacuumed and analyzed again after revisitAfterMs even when its size stayed the same (updates reusing free space)', async () => {
    maintenance = new PGliteMaintenance(sql, log, { analyzeAlwaysBelowBytes: 0, revisitAfterMs: 50 });
    await maintenance.runOnce();
    await new Promise((resolve) => setTimeout(resolve, 60));
    const round = ours(await maintenance.runOnce());
    expect(round).toEqual({ vacuumed: [QUOTED, LOTS], analyzed: [QUOTED, LOTS] });
  });

  it('waits for a transaction in progress on the one connection: VACUUM never runs inside one', async () => {
    const connection = await sql.lease();
    await connection.query('BEGIN');
    await connection.query(`INSERT INTO lots VALUES (${ROWS + 1}, 1, 'in a transaction')`);
    let finished = false;
    const round = maintenance.runOnce().finally(() => (finished = true));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(finished).toBe(false);
    await connection.query('COMMIT');
    connection.release();
    expect(ours(await round).vacuumed).toEqual([QUOTED, LOTS]);
    expect(log.lines.filter((line) => line.level !== 'info')).toEqual([]);
  });

  it('started, it runs its first round after firstAfterMs and then every everyMs; stopped, for good', async () => {
    maintenance = new PGliteMaintenance(sql, log, { firstAfterMs: 10, everyMs: 20 });
    maintenance.start();
    await expect.poll(() => log.lines.length, { timeout: 5_000 }).toBeGreaterThanOrEqual(1);
    const rounds = log.lines.length;
    await addLots(ROWS + 1, ROWS + 500);
    await expect.poll(() => log.lines.length, { timeout: 5_000 }).toBeGreaterThan(rounds);
    await maintenance.stop();
    const stoppedAt = log.lines.length;
    await addLots(ROWS + 501, ROWS + 1_000);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(log.lines).toHaveLength(stoppedAt);
    expect(await maintenance.runOnce()).toEqual({ vacuumed: [], analyzed: [] });
    expect(() => maintenance.start()).toThrow('stopped');
  });
});

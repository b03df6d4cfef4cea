import type { Logger } from '../application/logger';
import { quoteIdentifier, type SqlClient } from './sql-client';

export interface PGliteMaintenanceOptions {
  /** The first round, after start: out of the way of start-up and of a new store's seeding. */
  readonly firstAfterMs?: number;
  /** Then a round this often. */
  readonly everyMs?: number;
  /** Tables smaller than this are analyzed whenever they are vacuumed; larger ones once they grew by a tenth. */
  readonly analyzeAlwaysBelowBytes?: number;
}

/** What a round did, table by table (schema-qualified, quoted). */
export interface MaintenanceRound {
  readonly vacuumed: readonly string[];
  /** Of those, the ones analyzed too. */
  readonly analyzed: readonly string[];
}

/** A large table is analyzed again once it grew by this share: autovacuum_analyze_scale_factor's default. */
const ANALYZE_AFTER_GROWTH = 0.1;

interface Table {
  readonly qualifiedName: string;
  /** On disk, its indexes, TOAST and free-space map included. */
  readonly bytes: number;
}

/**
 * What autovacuum does on a PostgreSQL server, for PGlite, which has none (one backend, no
 * background workers) and whose activity counters stay at zero. Without it every row version an
 * update leaves behind (an auction's price and its listing on every bid, both indexed) stays on
 * disk for good, and the planner never has statistics: measured, 20 updates of a 2,000-row table
 * grew it from 0.3 to 5.9 MB, and after one VACUUM (14 ms) the next 120 updates grew it no more.
 *
 * Each round vacuums every table whose size changed since the round before (every table in the
 * first): one that grew holds new rows, or dead ones it outgrew; one that did not is skipped. It
 * analyzes it too while it is small (analyzeAlwaysBelowBytes), and after that once it grew by a
 * tenth since it was last analyzed, as autovacuum would: ANALYZE reads a sample of up to 30,000
 * rows, 340 ms on a 150 MB events table, where a VACUUM with nothing new to look at takes 2 ms.
 * A statement a table, each holding PGlite's one connection for itself, so a bid waits behind one
 * table at most, never a whole round.
 */
export class PGliteMaintenance {
  readonly #sql: SqlClient;
  readonly #log: Logger;
  readonly #firstAfterMs: number;
  readonly #everyMs: number;
  readonly #analyzeAlwaysBelowBytes: number;
  /** Each table's size right after its last VACUUM (which itself may change it). */
  readonly #vacuumedAt = new Map<string, number>();
  /** Each table's size right after its last ANALYZE. */
  readonly #analyzedAt = new Map<string, number>();
  #timer: NodeJS.Timeout | undefined;
  #round: Promise<unknown> = Promise.resolve();
  #running = false;
  #stopping = false;

  constructor(sql: SqlClient, log: Logger, options: PGliteMaintenanceOptions = {}) {
    this.#sql = sql;
    this.#log = log;
    this.#firstAfterMs = options.firstAfterMs ?? 60_000;
    this.#everyMs = options.everyMs ?? 5 * 60_000;
    this.#analyzeAlwaysBelowBytes = options.analyzeAlwaysBelowBytes ?? 8 * 1024 * 1024;
  }

  start(): void {
    if (this.#running) return;
    this.#running = true;
    this.#schedule(this.#firstAfterMs);
  }

  /** Ends the round in progress after its current table. */
  async stop(): Promise<void> {
    this.#running = false;
    this.#stopping = true;
    clearTimeout(this.#timer);
    await this.#round;
  }

  /** One round now (after any in progress). */
  runOnce(): Promise<MaintenanceRound> {
    const round = this.#round.then(() => this.#maintain());
    this.#round = round.catch(() => undefined);
    return round;
  }

  #schedule(afterMs: number): void {
    if (!this.#running) return;
    this.#timer = setTimeout(() => {
      void this.runOnce()
        .catch((error: unknown) => this.#log.error({ err: error }, 'embedded database maintenance: round failed; trying again next round'))
        .finally(() => this.#schedule(this.#everyMs));
    }, afterMs);
    this.#timer.unref();
  }

  async #maintain(): Promise<MaintenanceRound> {
    const started = performance.now();
    const round = { vacuumed: [] as string[], analyzed: [] as string[] };
    let longest = { table: '', ms: 0 };
    for (const table of await this.#tables()) {
      if (this.#stopping) break;
      const name = table.qualifiedName;
      if (this.#vacuumedAt.get(name) === table.bytes) continue;
      const analyzedAt = this.#analyzedAt.get(name);
      const analyze = analyzedAt === undefined || table.bytes < this.#analyzeAlwaysBelowBytes || Math.abs(table.bytes - analyzedAt) >= ANALYZE_AFTER_GROWTH * analyzedAt;
      const tableStarted = performance.now();
      try {
        // Outside any transaction, as VACUUM must be: PGlite runs a lone statement in none.
        await this.#sql.query(`VACUUM ${analyze ? '(ANALYZE) ' : ''}${name}`);
        const { rows } = await this.#sql.query<{ bytes: string }>('SELECT pg_total_relation_size($1::regclass)::text AS bytes', [name]);
        const bytes = Number(rows[0]!.bytes);
        this.#vacuumedAt.set(name, bytes);
        round.vacuumed.push(name);
        if (analyze) {
          this.#analyzedAt.set(name, bytes);
          round.analyzed.push(name);
        }
      } catch (error) {
        // A table dropped since it was listed, say: the others still get theirs.
        this.#log.warn({ err: error, table: table.qualifiedName }, 'embedded database maintenance: could not vacuum a table');
      }
      const ms = performance.now() - tableStarted;
      if (ms > longest.ms) longest = { table: table.qualifiedName, ms };
    }
    if (round.vacuumed.length > 0) {
      this.#log.info(
        { vacuumed: round.vacuumed.length, analyzed: round.analyzed.length, ms: Math.round(performance.now() - started), longestMs: Math.round(longest.ms), longestTable: longest.table },
        'embedded database vacuumed and analyzed',
      );
    }
    return round;
  }

  async #tables(): Promise<Table[]> {
    const { rows } = await this.#sql.query<{ schema: string; name: string; bytes: string }>(
      `SELECT n.nspname AS schema, c.relname AS name, pg_total_relation_size(c.oid)::text AS bytes
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
       WHERE c.relkind IN ('r', 'm') AND n.nspname NOT IN ('pg_catalog', 'information_schema')
       ORDER BY 1, 2`,
    );
    return rows.map((row) => ({ qualifiedName: `${quoteIdentifier(row.schema)}.${quoteIdentifier(row.name)}`, bytes: Number(row.bytes) }));
  }
}

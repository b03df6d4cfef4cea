import type { Logger } from '../application/logger';
import { quoteIdentifier, type PGliteClient } from './sql-client';

export interface PGliteMaintenanceOptions {
  /** The first round, after start: out of the way of start-up and of a new store's seeding. */
  readonly firstAfterMs?: number;
  /** Then a round this often. */
  readonly everyMs?: number;
  /** Tables smaller than this are analyzed whenever they are vacuumed; larger ones once they grew by a tenth. */
  readonly analyzeAlwaysBelowBytes?: number;
  /** A table not vacuumed (or a large one not analyzed) for this long is, whatever its size did. */
  readonly revisitAfterMs?: number;
}

/** What a round did, table by table (schema-qualified, quoted). */
export interface MaintenanceRound {
  readonly vacuumed: readonly string[];
  /** Of those, the ones analyzed too. */
  readonly analyzed: readonly string[];
}

/** A large table is analyzed again once it grew by this share: autovacuum_analyze_scale_factor's default. */
const ANALYZE_AFTER_GROWTH = 0.1;
/** Transactions since a table's oldest unfrozen row past which it is vacuumed at once: autovacuum_freeze_max_age is 200 million. */
const FREEZE_AFTER_TRANSACTIONS = 150_000_000;

interface Table {
  readonly qualifiedName: string;
  /** On disk, its indexes, TOAST and free-space map included. */
  readonly bytes: number;
  /** age(relfrozenxid): how close its rows are to transaction-id wraparound. */
  readonly unfrozenAge: number;
}

/** Where a table stood after its last VACUUM, and after its last ANALYZE. */
interface Visit {
  readonly bytes: number;
  readonly at: number;
}

/**
 * What autovacuum does on a PostgreSQL server, for PGlite, which has none (one backend, no
 * background workers) and whose activity counters stay at zero. Without it the row versions
 * updates leave behind (an auction's row and its listing's, on every bid) stay on disk for good,
 * and the planner never has statistics: measured, 20 updates of every row of a 2,000-row table
 * (an indexed column) grew it from 0.3 to 5.9 MB; after one VACUUM (14 ms), 20 more grew it no more.
 *
 * Each round vacuums every table, system catalogs included, whose size changed since its last
 * VACUUM (every table in the first round): one that grew holds new rows, or dead ones it outgrew.
 * A table is also vacuumed once revisitAfterMs passed (updates that reuse free space leave its
 * size as it was) and as soon as its rows near transaction-id wraparound. It is analyzed too while
 * small (analyzeAlwaysBelowBytes), and after that once it grew by a tenth or revisitAfterMs passed
 * since its last ANALYZE, as autovacuum would: ANALYZE reads a sample of up to 30,000 rows, 340 ms
 * on a 150 MB events table, where a VACUUM with nothing new to look at takes 2 ms. A table at a
 * time on a lease of PGlite's one connection, so a bid waits behind one table at most, never a
 * whole round.
 */
export class PGliteMaintenance {
  readonly #sql: PGliteClient;
  readonly #log: Logger;
  readonly #firstAfterMs: number;
  readonly #everyMs: number;
  readonly #analyzeAlwaysBelowBytes: number;
  readonly #revisitAfterMs: number;
  readonly #vacuumed = new Map<string, Visit>();
  readonly #analyzed = new Map<string, Visit>();
  #timer: NodeJS.Timeout | undefined;
  #round: Promise<unknown> = Promise.resolve();
  #running = false;
  #stopped = false;

  constructor(sql: PGliteClient, log: Logger, options: PGliteMaintenanceOptions = {}) {
    this.#sql = sql;
    this.#log = log;
    this.#firstAfterMs = options.firstAfterMs ?? 60_000;
    this.#everyMs = options.everyMs ?? 5 * 60_000;
    this.#analyzeAlwaysBelowBytes = options.analyzeAlwaysBelowBytes ?? 8 * 1024 * 1024;
    this.#revisitAfterMs = options.revisitAfterMs ?? 24 * 60 * 60_000;
  }

  start(): void {
    if (this.#stopped) throw new Error('This maintenance was stopped: it does not start again');
    if (this.#running) return;
    this.#running = true;
    this.#schedule(this.#firstAfterMs);
  }

  /** For good: the round in progress ends after its current table, and none follows. */
  async stop(): Promise<void> {
    this.#running = false;
    this.#stopped = true;
    clearTimeout(this.#timer);
    await this.#round;
  }

  /** One round now (after any in progress); once stopped, none. */
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
    const round = { vacuumed: [] as string[], analyzed: [] as string[] };
    if (this.#stopped) return round;
    const started = performance.now();
    let longest = { table: '', ms: 0 };
    for (const table of await this.#tables()) {
      if (this.#stopped) break;
      const now = Date.now();
      const vacuumed = this.#vacuumed.get(table.qualifiedName);
      const due = vacuumed === undefined || vacuumed.bytes !== table.bytes || now - vacuumed.at >= this.#revisitAfterMs || table.unfrozenAge >= FREEZE_AFTER_TRANSACTIONS;
      if (!due) continue;
      const analyzed = this.#analyzed.get(table.qualifiedName);
      const analyze =
        analyzed === undefined ||
        table.bytes < this.#analyzeAlwaysBelowBytes ||
        Math.abs(table.bytes - analyzed.bytes) >= ANALYZE_AFTER_GROWTH * analyzed.bytes ||
        now - analyzed.at >= this.#revisitAfterMs;
      const tableStarted = performance.now();
      try {
        const bytes = await this.#vacuum(table.qualifiedName, analyze);
        this.#vacuumed.set(table.qualifiedName, { bytes, at: now });
        round.vacuumed.push(table.qualifiedName);
        if (analyze) {
          this.#analyzed.set(table.qualifiedName, { bytes, at: now });
          round.analyzed.push(table.qualifiedName);
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

  /**
   * VACUUM (ANALYZE) on a lease: outside any transaction, as VACUUM must be, and with the table's
   * size read before anything else writes to it. Returns that size.
   */
  async #vacuum(table: string, analyze: boolean): Promise<number> {
    const connection = await this.#sql.lease();
    try {
      await connection.query(`VACUUM ${analyze ? '(ANALYZE) ' : ''}${table}`);
      const { rows } = await connection.query<{ bytes: string }>('SELECT pg_total_relation_size($1::regclass)::text AS bytes', [table]);
      return Number(rows[0]!.bytes);
    } finally {
      connection.release();
    }
  }

  async #tables(): Promise<Table[]> {
    const { rows } = await this.#sql.query<{ schema: string; name: string; bytes: string; unfrozen_age: number }>(
      `SELECT n.nspname AS schema, c.relname AS name, pg_total_relation_size(c.oid)::text AS bytes, age(c.relfrozenxid) AS unfrozen_age
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
       WHERE c.relkind IN ('r', 'm')
       ORDER BY 1, 2`,
    );
    return rows.map((row) => ({ qualifiedName: `${quoteIdentifier(row.schema)}.${quoteIdentifier(row.name)}`, bytes: Number(row.bytes), unfrozenAge: row.unfrozen_age }));
  }
}

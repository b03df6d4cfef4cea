/**
 * `npm run bench`'s settings, all from the environment: where PostgreSQL is, how many trials, how
 * long each one loads, and the sizes a section may take (read by that section).
 */
import type { ServerBenchOptions } from './server-harness';

export const DEFAULT_POSTGRES_URL = 'postgres://postgres:postgres@127.0.0.1:5432/postgres';

/**
 * EVENTSTORE_URL, when set, puts the events of the servers the server sections start in that
 * KurrentDB (the store-level sections measure the PostgreSQL store against its own baselines).
 * BENCH_DATABASE_URL, TEST_DATABASE_URL or DATABASE_URL names the PostgreSQL server (any database
 * on it: every section creates databases of its own beside it and drops them); BENCH_TRIALS
 * (default 3) and BENCH_SECONDS (default 5) shape every timed figure.
 */
export function benchOptionsFromEnv(): ServerBenchOptions {
  return {
    postgresUrl: process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL ?? DEFAULT_POSTGRES_URL,
    trials: positiveNumber('BENCH_TRIALS', 3),
    seconds: positiveNumber('BENCH_SECONDS', 5),
    log: (line) => console.error(`  ${line}`),
    eventStoreUrl: process.env.EVENTSTORE_URL || undefined,
  };
}

/** An environment setting that must be a positive number when it is given. */
export function positiveNumber(name: string, fallback: number): number {
  const text = process.env[name];
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number, not "${text}"`);
  return value;
}

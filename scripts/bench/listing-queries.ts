/**
 * The marketplace's listing queries at 100,000 listings on PostgreSQL: every chip with every sort,
 * and searches, as the web app asks for them (web/src/features/marketplace/marketplace-query.ts),
 * run through the API's own query function (api/listings/queries.ts) against generated listings
 * (listings-fixture.ts) in a schema of their own, dropped afterwards. p50 and p95 per query.
 *
 * Alone: `tsx scripts/bench/listing-queries.ts` with BENCH_DATABASE_URL, TEST_DATABASE_URL or
 * DATABASE_URL; BENCH_LISTINGS sets the count (default 100,000).
 */
import { randomUUID } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import type { Database } from '../../api/database';
import { searchListings, type ListingSearch } from '../../api/listings/queries';
import { createKysely } from '../../engine/postgres/kysely-dialect';
import { NodePostgresClient } from '../../engine/postgres/sql-client';
import { CHIPS, SORTS, toListingsRequest } from '../../web/src/features/marketplace/marketplace-query';
import { median, percentile } from './figures';
import { fillListings } from './listings-fixture';

const RUNS = 40;
/** A last name (1 in 20 listings), a whole player (1 in 400), a team's nickname (1 in 8), a word in every description. */
const SEARCHES = ['jordan', 'michael jordan', 'hawks', 'season'];

export interface ListingQueryFigure {
  /** e.g. "chip=jerseys sort=price-desc" */
  readonly query: string;
  readonly p50Ms: number;
  readonly p95Ms: number;
  readonly total: number;
}

/** The marketplace's requests: each chip with each sort (Ending Soon decides its own), searches with the default sort, a later page. */
function marketplaceRequests(): Array<{ query: string; criteria: ListingSearch }> {
  const requests: Array<{ query: string; criteria: ListingSearch }> = [];
  const add = (query: string, search: string, chip: (typeof CHIPS)[number]['id'], sort: (typeof SORTS)[number]['id'], page = 0) => {
    const request = toListingsRequest({ search, chip, sort });
    const [field, direction] = request.sort.split(',') as [ListingSearch['sort']['field'], 'asc' | 'desc'];
    requests.push({
      query,
      criteria: {
        page,
        size: 20,
        status: 'LIVE',
        search: request.search || undefined,
        category: request.category ?? undefined,
        tags: request.tag ? [request.tag] : undefined,
        sort: { field, direction },
      },
    });
  };
  for (const chip of CHIPS) {
    if ('sort' in chip) add(`chip=${chip.id}`, '', chip.id, chip.sort);
    else for (const sort of SORTS) add(`chip=${chip.id} sort=${sort.id}`, '', chip.id, sort.id);
  }
  for (const search of SEARCHES) add(`search="${search}"`, search, 'all', 'newest');
  add('search="jordan" sort=price-desc', 'jordan', 'all', 'price-desc');
  add('chip=all sort=newest page=50', '', 'all', 'newest', 50);
  return requests;
}

/** Fills a fresh schema with `count` listings, times every marketplace query, drops the schema. */
export async function benchmarkListingQueries(databaseUrl: string, count = 100_000): Promise<ListingQueryFigure[]> {
  const schema = `bench_listings_${randomUUID().replace(/-/g, '').slice(0, 8)}`;
  await fillListings(databaseUrl, schema, count);
  const sql = new NodePostgresClient({ connectionString: databaseUrl, max: 2, options: `-c search_path=${pg.escapeIdentifier(schema)}` });
  try {
    const db = createKysely<Database>(sql);
    const figures: ListingQueryFigure[] = [];
    for (const { query, criteria } of marketplaceRequests()) {
      const { total } = await searchListings(db, criteria); // warms the cache
      const times: number[] = [];
      for (let run = 0; run < RUNS; run++) {
        const started = performance.now();
        await searchListings(db, criteria);
        times.push(performance.now() - started);
      }
      const round = (ms: number) => Math.round(ms * 100) / 100;
      figures.push({ query, p50Ms: round(median(times)), p95Ms: round(percentile(times, 95)), total });
    }
    return figures;
  } finally {
    await sql.query(`DROP SCHEMA ${pg.escapeIdentifier(schema)} CASCADE`);
    await sql.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const databaseUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
  if (!databaseUrl) throw new Error('set BENCH_DATABASE_URL, TEST_DATABASE_URL or DATABASE_URL');
  const figures = await benchmarkListingQueries(databaseUrl, Number(process.env.BENCH_LISTINGS ?? 100_000));
  console.table(figures);
  const slowest = figures.reduce((worst, figure) => (figure.p95Ms > worst.p95Ms ? figure : worst));
  console.log(`slowest p95: ${slowest.p95Ms} ms (${slowest.query})`);
}

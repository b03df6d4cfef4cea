/**
 * Section `listings` of `npm run bench`: the marketplace's listing pages at 100,000 listings
 * (BENCH_LISTINGS), over HTTP from a real server process, against the very same SQL run directly.
 *
 * The requests are the ones the web app sends: the marketplace's own fetchListings
 * (web/src/features/marketplace/api.ts) is called for every chip with every sort, and the URLs it
 * asks for are caught at `fetch`. The SQL is what the API's query function (searchListings) sends
 * for each, caught at kysely's log on this process's own connection; run directly with pg, its two
 * statements at once as the API runs them. Each trial asks every URL BENCH_LISTINGS_ROUNDS times
 * (default 20), each time over HTTP and then directly; the figure is the slowest request's p95 (the
 * goal holds for every chip and sort), its baseline that same request's SQL p95.
 */
import { Kysely, PostgresDialect, type CompiledQuery } from 'kysely';
import pg from 'pg';
import type { Database } from '../../api/database';
import { listingSearchQuery } from '../../api/listings/paging';
import { PUBLIC_LISTING_STATUSES, searchListings } from '../../api/listings/queries';
import { fetchListings } from '../../web/src/features/marketplace/api';
import { CHIPS, SORTS, toListingsRequest } from '../../web/src/features/marketplace/marketplace-query';
import { z } from 'zod';
import { median, percentile, type Figure, type Trial } from './figures';
import { fillListings } from './listings-fixture';
import { ApiClient, inFreshDeployment, startProductServer, type ServerBenchOptions } from './server-harness';
import { positiveNumber } from './settings';

const LISTINGS = positiveNumber('BENCH_LISTINGS', 100_000);
const ROUNDS = positiveNumber('BENCH_LISTINGS_ROUNDS', 20);
const GOAL_P95_MS = 20;

/** GET /api/public/listings's query string, parsed as its route parses it (api/listings/routes.ts). */
const routeQuery = listingSearchQuery.extend({ status: z.enum(PUBLIC_LISTING_STATUSES).default('LIVE') });

interface MarketplaceRequest {
  /** Path and query, as the web app requests it. */
  readonly url: string;
  /** The statements the API sends for it. */
  readonly statements: readonly CompiledQuery[];
}

export async function listingsFigures(options: ServerBenchOptions): Promise<Figure[]> {
  return inFreshDeployment(options, async (deployment) => {
    const filling = performance.now();
    await fillListings(deployment.databaseUrl, 'public', LISTINGS);
    options.log(`listings: ${LISTINGS.toLocaleString('en-US')} listings generated in ${((performance.now() - filling) / 1000).toFixed(1)} s`);
    const server = await startProductServer({ ...deployment, name: 'listings' });
    const rssAtStartMiB = server.rssMiB();
    const api = new ApiClient(server.url, 1);
    const pool = new pg.Pool({ connectionString: deployment.databaseUrl, max: 2 });
    try {
      const requests = await marketplaceRequests(pool);
      // One unmeasured pass: the server's routes compiled, the pages in PostgreSQL's cache.
      for (const request of requests) await timeBoth(api, pool, request);
      const trials: Trial[] = [];
      const p95s: Array<Map<string, { api: number; sql: number }>> = [];
      const slowest: string[] = [];
      for (let trial = 1; trial <= options.trials; trial++) {
        const times = new Map(requests.map((request) => [request.url, { api: [] as number[], sql: [] as number[] }]));
        for (let round = 0; round < ROUNDS; round++) {
          for (const request of requests) {
            const { apiMs, sqlMs } = await timeBoth(api, pool, request);
            times.get(request.url)!.api.push(apiMs);
            times.get(request.url)!.sql.push(sqlMs);
          }
        }
        const byUrl = new Map([...times].map(([url, { api: apiTimes, sql: sqlTimes }]) => [url, { api: percentile(apiTimes, 95), sql: percentile(sqlTimes, 95) }]));
        const [worstUrl, worst] = [...byUrl].reduce((a, b) => (b[1].api > a[1].api ? b : a));
        trials.push({ value: worst.api, baseline: worst.sql });
        p95s.push(byUrl);
        slowest.push(worstUrl);
        options.log(`listings, trial ${trial}: slowest p95 ${worst.api.toFixed(1)} ms over HTTP, ${worst.sql.toFixed(1)} ms its SQL (${worstUrl})`);
      }
      const round = (ms: number) => Math.round(ms * 100) / 100;
      return [
        {
          name: `listings by category and sort, ${Math.round(LISTINGS / 1000)}k listings, slowest chip x sort, p95 over HTTP`,
          unit: 'ms',
          baselineName: "the same SQL run directly (the API's statements, via pg)",
          higherIsBetter: false,
          goalRatio: null,
          goalValue: { atMost: GOAL_P95_MS },
          trials,
          details: {
            requests: requests.length,
            requestsPerTrial: requests.length * ROUNDS,
            slowestRequestPerTrial: slowest,
            p95MsPerRequest: Object.fromEntries(
              requests.map(({ url }) => [url, { http: round(median(p95s.map((trial) => trial.get(url)!.api))), sql: round(median(p95s.map((trial) => trial.get(url)!.sql))) }]),
            ),
            serverRssMiB: { atStart: rssAtStartMiB, atEnd: server.rssMiB() },
          },
        },
      ];
    } finally {
      await api.close();
      await pool.end();
      await server.stop();
    }
  });
}

async function timeBoth(api: ApiClient, pool: pg.Pool, request: MarketplaceRequest): Promise<{ apiMs: number; sqlMs: number }> {
  const sent = performance.now();
  const answer = await api.call('GET', request.url);
  const apiMs = performance.now() - sent;
  if (answer.status !== 200) throw new Error(`GET ${request.url}: ${answer.status} ${JSON.stringify(answer.body)}`);
  const queried = performance.now();
  await Promise.all(request.statements.map((statement) => pool.query(statement.sql, [...statement.parameters])));
  return { apiMs, sqlMs: performance.now() - queried };
}

/** Every URL the marketplace requests for a chip and a sort, each with the SQL the API sends for it. */
async function marketplaceRequests(pool: pg.Pool): Promise<MarketplaceRequest[]> {
  let caught: CompiledQuery[] = [];
  const db = new Kysely<Database>({
    dialect: new PostgresDialect({ pool }),
    log: (event) => {
      if (event.level === 'query') caught.push(event.query);
    },
  });
  const requests: MarketplaceRequest[] = [];
  for (const url of await marketplaceUrls()) {
    const query = routeQuery.parse(Object.fromEntries(new URL(url, 'http://marketplace').searchParams));
    caught = [];
    const { page, size, search, category, tag, status, sort } = query;
    await searchListings(db, { page, size, status, search: search || undefined, category, tags: tag, sort });
    requests.push({ url, statements: caught });
  }
  return requests;
}

/**
 * The URLs the web app's fetchListings asks for, for each chip with each sort (Ending Soon sets its
 * own sort, so fewer than chips x sorts). Caught at `fetch` and answered with an empty page there.
 */
async function marketplaceUrls(): Promise<string[]> {
  const urls = new Set<string>();
  const realFetch = globalThis.fetch;
  globalThis.fetch = async (input) => {
    urls.add(String(input));
    return new Response(JSON.stringify({ content: [] }), { status: 200 });
  };
  try {
    for (const chip of CHIPS) {
      for (const sort of SORTS) await fetchListings(toListingsRequest({ search: '', chip: chip.id, sort: sort.id }), 0);
    }
  } finally {
    globalThis.fetch = realFetch;
  }
  return [...urls];
}

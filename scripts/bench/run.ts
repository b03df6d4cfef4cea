/**
 * `npm run bench [-- section...]`: every figure of the performance table, each measured beside its
 * baseline in the same trial (figures.ts), printed as a markdown table and written to
 * scripts/bench/results.json (every figure's summary with its raw trials, the machine, when each
 * section ran) and scripts/bench/results.md (the table, for README). Naming sections runs only
 * those; the figures of the others stay in the files as the last run left them.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { cpus, totalmem } from 'node:os';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { runCli, usageError } from '../cli';
import { auditFilterFigures } from './audit-filters';
import { markdownTable, summarise, type Figure, type FigureSummary, type Trial } from './figures';
import { lcpFigures } from './marketplace-lcp';
import { listingsFigures } from './marketplace-listings';
import { pureEngineFigures } from './pure-engine';
import { eventStoreOf, type ServerBenchOptions } from './server-harness';
import { hotAuctionFigures, noticeFigures, twoProcessHotAuctionFigures, verifiableHistoryFigures } from './server-hot-auction';
import { liveFanOutFigures } from './server-live-fan-out';
import { benchOptionsFromEnv, DEFAULT_POSTGRES_URL } from './settings';
import { appendFigures } from './store-appends';
import { rebuildFigures } from './store-rebuild';

interface Section {
  readonly name: string;
  readonly about: string;
  /** Whether it measures product servers (whose events EVENTSTORE_URL may put in KurrentDB), not the PostgreSQL store itself. */
  readonly servers?: boolean;
  /** Where its events are, when `servers` does not say it. */
  readonly eventStores?: (options: ServerBenchOptions) => string[];
  readonly run: (options: ServerBenchOptions) => Promise<Figure[]>;
}

/** In the order of the table. */
const SECTIONS: readonly Section[] = [
  { name: 'hot-auction', servers: true, about: 'accepted bids/s on one auction over HTTP, 32 bidders, and the read models lag behind it', run: hotAuctionFigures },
  { name: 'rebuild', about: 'rebuild of the read models vs reading the events table raw (BENCH_REBUILD_EVENTS, 67,000)', run: rebuildFigures },
  {
    name: 'appends',
    about: "conditional appends, 1 writer and 16 writers, vs Emmett's PostgreSQL event store; with EVENTSTORE_URL also the KurrentDB adapter vs its client",
    eventStores: (options) => [POSTGRES_EVENTS, ...(options.eventStoreUrl ? [eventStoreOf(options)] : [])],
    run: appendFigures,
  },
  { name: 'listings', about: 'marketplace listings, every chip and sort, p95 over HTTP vs the same SQL (BENCH_LISTINGS, 100,000; BENCH_LISTINGS_ROUNDS, 20)', run: listingsFigures },
  { name: 'lcp', about: '/marketplace LCP in headless Chromium vs a static page with the same image (BENCH_LCP_LOADS, 7)', run: lcpFigures },
  { name: 'live-fan-out', servers: true, about: 'bid -> bid_placed at the last of 1,000 sockets vs a bare ws server', run: liveFanOutFigures },
  { name: 'notices', servers: true, about: 'the hot auction with the notifier on vs off, and the notices it makes per second', run: noticeFigures },
  {
    name: 'verifiable-history',
    servers: true,
    about: 'the hot auction hashed, chained and signed vs the product before verifiable history (built from git history), saturated and at an equal load',
    run: verifiableHistoryFigures,
  },
  { name: 'two-processes', servers: true, about: 'the hot auction with two server processes on one database', run: twoProcessHotAuctionFigures },
  { name: 'engine', about: 'the pure engine, decide + evolve, one bid after another', run: pureEngineFigures },
  { name: 'audit', about: "the auditors' log query, 17 filters (BENCH_AUDIT_EVENTS, 1,000,000)", run: auditFilterFigures },
];

const USAGE = `Usage: npm run bench -- [section...]

Measures each figure beside its baseline in the same trial, prints the table and writes
scripts/bench/results.json and results.md. Named sections run alone; the figures of the others
stay as the files had them.

Sections (all when none is named):
${SECTIONS.map((section) => `  ${section.name.padEnd(14)} ${section.about}`).join('\n')}

Settings (environment):
  BENCH_DATABASE_URL, TEST_DATABASE_URL or DATABASE_URL
                 the PostgreSQL server, default ${DEFAULT_POSTGRES_URL};
                 each section creates databases of its own there and drops them
  BENCH_TRIALS   trials per figure (3)
  BENCH_SECONDS  seconds of load per side of a timed trial (5)
  BENCH_CPU_PROFILE_DIR
                 where each product server writes a V8 CPU profile when it stops
  EVENTSTORE_URL the KurrentDB the product servers keep their events in
                 (hot-auction, live-fan-out, two-processes); else the events table.
                 The appends section then also measures the KurrentDB adapter.
                 Use a fresh one: each deployment's read models replay its whole log
  and the sizes named beside the sections above`;

const POSTGRES_EVENTS = 'the PostgreSQL events table';
const RESULTS_JSON = new URL('./results.json', import.meta.url);
const RESULTS_MD = new URL('./results.md', import.meta.url);

interface SectionResult {
  readonly ranAt: string;
  readonly seconds: number;
  readonly figures?: ReadonlyArray<FigureSummary & { readonly trials: readonly Trial[] }>;
  /** Where the events were: what the section measured. */
  readonly eventStores?: readonly string[];
  /** The same, as results.json held it before a section could have several. */
  readonly eventStore?: string;
  /** Why the section gave no figures in that run. */
  readonly failed?: string;
}

interface Results {
  readonly machine: Record<string, unknown>;
  readonly ranAt: string;
  readonly sections: Record<string, SectionResult>;
}

runCli(async () => {
  const chosen = chosenSections(process.argv.slice(2));
  if (!chosen) return;
  const options = benchOptionsFromEnv();
  const machineRunning = await machine(options.postgresUrl);
  const started = performance.now();
  const ranAt = new Date().toISOString();
  const sections = { ...(await previousResults())?.sections };
  for (const section of chosen) {
    const eventStores = section.eventStores?.(options) ?? [section.servers ? eventStoreOf(options) : POSTGRES_EVENTS];
    console.error(`${section.name}: ${section.about} (events in ${eventStores.join(' and ')})`);
    const sectionStarted = performance.now();
    const seconds = () => Math.round((performance.now() - sectionStarted) / 1000);
    try {
      const figures = await section.run(options);
      sections[section.name] = { ranAt: new Date().toISOString(), seconds: seconds(), eventStores, figures: figures.map((figure) => ({ ...summarise(figure), trials: figure.trials })) };
    } catch (error) {
      console.error(`${section.name} failed:`, error);
      sections[section.name] = { ranAt: new Date().toISOString(), seconds: seconds(), eventStores, failed: error instanceof Error ? error.message : String(error) };
    }
    console.error(`${section.name}: ${seconds()} s`);
  }
  const results: Results = { machine: machineRunning, ranAt, sections: inTableOrder(sections) };
  await writeFile(RESULTS_JSON, `${JSON.stringify(results, null, 2)}\n`);
  const table = tableOf(results);
  await writeFile(RESULTS_MD, table);
  console.log(table);
  console.error(`${Math.round((performance.now() - started) / 1000)} s in all; written to ${RESULTS_JSON.pathname} and ${RESULTS_MD.pathname}`);
  const failed = chosen.filter((section) => results.sections[section.name]?.failed !== undefined);
  if (failed.length > 0) throw new Error(`failed: ${failed.map((section) => section.name).join(', ')}`);
});

/** The sections named on the command line (all when none is), or null after --help. */
function chosenSections(argv: string[]): readonly Section[] | null {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: { help: { type: 'boolean', short: 'h' } }, strict: true, allowPositionals: true });
  } catch (error) {
    throw usageError((error as Error).message, USAGE);
  }
  if (parsed.values.help) {
    console.log(USAGE);
    return null;
  }
  const unknown = parsed.positionals.filter((name) => !SECTIONS.some((section) => section.name === name));
  if (unknown.length > 0) throw usageError(`Unknown section: ${unknown.join(', ')}`, USAGE);
  return parsed.positionals.length === 0 ? SECTIONS : SECTIONS.filter((section) => parsed.positionals.includes(section.name));
}

/** The last run's results, when results.json holds some in this shape. */
async function previousResults(): Promise<Results | undefined> {
  const text = await readFile(RESULTS_JSON, 'utf8').catch(() => undefined);
  if (text === undefined) return undefined;
  const parsed = JSON.parse(text) as Partial<Results>;
  return typeof parsed.sections === 'object' ? (parsed as Results) : undefined;
}

function inTableOrder(sections: Record<string, SectionResult>): Record<string, SectionResult> {
  return Object.fromEntries(SECTIONS.filter((section) => sections[section.name]).map((section) => [section.name, sections[section.name]!]));
}

function tableOf(results: Results): string {
  const summaries = Object.values(results.sections).flatMap((section) => section.figures ?? []);
  const failed = Object.entries(results.sections).filter(([, section]) => section.failed !== undefined);
  const { node, cpu, cpus: cores, memoryGiB, postgres } = results.machine as Record<string, string | number>;
  const stores = [...new Set(Object.values(results.sections).flatMap((section) => section.eventStores ?? [section.eventStore ?? POSTGRES_EVENTS]))];
  return [
    'Medians over trials (ranges in brackets), each figure measured beside its baseline in the same trial; ratios are per trial, >= 1 is better than the baseline. ' +
      `Node ${node}, ${cores} x ${cpu}, ${memoryGiB} GiB, ${postgres}; events in ${stores.join(' and ')}; \`npm run bench\`, ${results.ranAt.slice(0, 10)}.`,
    '',
    markdownTable(summaries),
    ...failed.map(([name, section]) => `\nSection ${name} failed: ${section.failed}`),
    '',
  ].join('\n');
}

async function machine(postgresUrl: string): Promise<Record<string, unknown>> {
  const client = new pg.Client({ connectionString: postgresUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ server_version: string }>('SHOW server_version');
    return {
      node: process.version,
      cpus: cpus().length,
      cpu: cpus()[0]?.model.trim() ?? 'unknown',
      memoryGiB: Math.round(totalmem() / 1024 ** 3),
      postgres: `PostgreSQL ${rows[0]!.server_version.split(' ')[0]}`,
    };
  } finally {
    await client.end();
  }
}

/**
 * Section `appends` of `npm run bench`: conditional appends on the product's PostgresEventStore
 * against Emmett's PostgreSQL event store (@event-driven-io/emmett-postgresql) in the same
 * database, each trial measuring both, one after the other, for the same time:
 *
 *  - one writer on one stream, one event per append, each append expecting the revision the last
 *    one returned (a hot auction's single writer);
 *  - 16 writers at once, each on a stream of its own (many quiet auctions).
 *
 * Both stores get a pool of as many connections as there are writers. The event is a bid of the
 * product's shape (data and metadata as the engine writes them). Which store goes first alternates
 * from trial to trial, so that neither always gets the fresher machine.
 */
import { randomUUID } from 'node:crypto';
import { getPostgreSQLEventStore, type PostgresEventStore as EmmettEventStore } from '@event-driven-io/emmett-postgresql';
import pg from 'pg';
import type { ExpectedRevision } from '../../engine/eventstore/port';
import { PostgresEventStore } from '../../engine/eventstore/postgres/postgres-event-store';
import { NodePostgresClient } from '../../engine/postgres/sql-client';
import { median, percentile, type Figure, type Trial } from './figures';
import { withScratchDatabase } from './scratch-database';
import type { ServerBenchOptions } from './server-harness';

/** Appends before the clock starts: connections opened, statements planned, the JIT warm. */
const WARM_UP_APPENDS = 20;

/** Appends one event to the writer's own stream, at the revision its previous append returned. */
type Writer = () => Promise<void>;

interface Side {
  writer(streamId: string): Writer;
  close(): Promise<void>;
}

interface Measured {
  readonly eventsPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
}

export async function appendFigures(options: ServerBenchOptions): Promise<Figure[]> {
  return withScratchDatabase(options.postgresUrl, 'appends', async (database) => [
    await appendFigure(options, database.url, 1, 'conditional appends, one stream, 1 writer'),
    await appendFigure(options, database.url, 16, 'conditional appends, 16 writers on distinct streams'),
  ]);
}

async function appendFigure(options: ServerBenchOptions, url: string, writers: number, name: string): Promise<Figure> {
  const product = await openProduct(url, writers);
  const emmett = await openEmmett(url, writers);
  const trials: Trial[] = [];
  const productRuns: Measured[] = [];
  const emmettRuns: Measured[] = [];
  try {
    for (let trial = 0; trial < options.trials; trial++) {
      const measure = (side: Side) => measureWriters(side, writers, options.seconds);
      let productRun: Measured;
      let emmettRun: Measured;
      if (trial % 2 === 0) {
        productRun = await measure(product);
        emmettRun = await measure(emmett);
      } else {
        emmettRun = await measure(emmett);
        productRun = await measure(product);
      }
      productRuns.push(productRun);
      emmettRuns.push(emmettRun);
      trials.push({ value: productRun.eventsPerSecond, baseline: emmettRun.eventsPerSecond });
      options.log(`${name}, trial ${trial + 1}: product ${describe(productRun)}; Emmett ${describe(emmettRun)}`);
    }
  } finally {
    await product.close();
    await emmett.close();
  }
  return {
    name,
    unit: 'events/s',
    baselineName: "Emmett's PostgreSQL event store, same database",
    higherIsBetter: true,
    goalRatio: 1,
    trials,
    details: {
      writers,
      poolConnectionsEach: writers,
      appendLatencyMs: {
        product: { p50: median(productRuns.map((run) => run.p50Ms)), p99: median(productRuns.map((run) => run.p99Ms)) },
        emmett: { p50: median(emmettRuns.map((run) => run.p50Ms)), p99: median(emmettRuns.map((run) => run.p99Ms)) },
      },
      ...(writers === 1 ? { stretchGoalRatio: 2 } : {}),
    },
  };
}

function describe(run: Measured): string {
  return `${Math.round(run.eventsPerSecond)} events/s, p50 ${run.p50Ms} ms, p99 ${run.p99Ms} ms`;
}

/** Each writer on a fresh stream: warmed up, then appending as fast as it can for `seconds`. */
async function measureWriters(side: Side, writers: number, seconds: number): Promise<Measured> {
  const streams = Array.from({ length: writers }, () => side.writer(`auction-${randomUUID()}`));
  await Promise.all(
    streams.map(async (append) => {
      for (let i = 0; i < WARM_UP_APPENDS; i++) await append();
    }),
  );
  const latencies: number[] = [];
  const started = performance.now();
  const deadline = started + seconds * 1000;
  await Promise.all(
    streams.map(async (append) => {
      while (performance.now() < deadline) {
        const sent = performance.now();
        await append();
        latencies.push(performance.now() - sent);
      }
    }),
  );
  const elapsedSeconds = (performance.now() - started) / 1000;
  const round = (ms: number) => Math.round(ms * 100) / 100;
  return { eventsPerSecond: latencies.length / elapsedSeconds, p50Ms: round(percentile(latencies, 50)), p99Ms: round(percentile(latencies, 99)) };
}

/** A bid as the engine records it: the same bytes go to both stores. */
function bidPlaced(streamId: string, sequence: number) {
  const now = new Date().toISOString();
  return {
    type: 'BidPlaced',
    data: { auctionId: streamId.slice('auction-'.length), bidId: randomUUID(), bidderId: randomUUID(), amount: 10_000 + sequence * 100, maximum: null, placedAt: now },
    metadata: { actorId: randomUUID(), actorRoles: ['BUYER'], occurredAt: now, correlationId: randomUUID(), commandId: randomUUID() },
  };
}

async function openProduct(url: string, connections: number): Promise<Side> {
  const sql = new NodePostgresClient({ connectionString: url, max: connections });
  const store = await PostgresEventStore.open(sql);
  return {
    writer(streamId) {
      let expectedRevision: ExpectedRevision = 'no_stream';
      let sequence = 0;
      return async () => {
        const result = await store.appendToStream(streamId, [{ id: randomUUID(), ...bidPlaced(streamId, sequence++) }], { expectedRevision });
        expectedRevision = result.nextExpectedRevision;
      };
    },
    async close() {
      await store.close();
      await sql.close();
    },
  };
}

async function openEmmett(url: string, connections: number): Promise<Side> {
  const pool = new pg.Pool({ connectionString: url, max: connections });
  const store: EmmettEventStore = getPostgreSQLEventStore(url, { connectionOptions: { pool }, schema: { autoMigration: 'None' } });
  await store.schema.migrate();
  return {
    writer(streamId) {
      let expectedStreamVersion: bigint | 'STREAM_DOES_NOT_EXIST' = 'STREAM_DOES_NOT_EXIST';
      let sequence = 0;
      return async () => {
        const result = await store.appendToStream(streamId, [bidPlaced(streamId, sequence++)], { expectedStreamVersion });
        expectedStreamVersion = result.nextExpectedStreamVersion;
      };
    },
    async close() {
      await store.close();
      await pool.end();
    },
  };
}

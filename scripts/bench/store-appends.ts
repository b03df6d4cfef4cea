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
import { jsonEvent, KurrentDBClient, NO_STREAM, type AppendStreamState } from '@kurrent/kurrentdb-client';
import { KurrentDbEventStore } from '../../engine/eventstore/kurrentdb/store';
import type { EventStore, ExpectedRevision } from '../../engine/eventstore/port';
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
  const figures = await withScratchDatabase(options.postgresUrl, 'appends', async (database) => [
    await postgresAppendFigure(options, database.url, 1, 'conditional appends, one stream, 1 writer'),
    await postgresAppendFigure(options, database.url, 16, 'conditional appends, 16 writers on distinct streams'),
  ]);
  if (options.eventStoreUrl) figures.push(await kurrentDbAppendFigure(options, options.eventStoreUrl));
  return figures;
}

async function postgresAppendFigure(options: ServerBenchOptions, url: string, writers: number, name: string): Promise<Figure> {
  const compared = await compareSides(options, name, writers, await openProduct(url, writers), await openEmmett(url, writers));
  return {
    name,
    unit: 'events/s',
    baselineName: "Emmett's PostgreSQL event store, same database",
    higherIsBetter: true,
    goalRatio: 1,
    trials: compared.trials,
    details: {
      writers,
      poolConnectionsEach: writers,
      appendLatencyMs: { product: compared.productLatency, emmett: compared.baselineLatency },
      ...(writers === 1 ? { stretchGoalRatio: 2 } : {}),
    },
  };
}

/**
 * With EVENTSTORE_URL: the product's KurrentDB adapter against the KurrentDB client's own
 * appendToStream on the same server, one writer on one stream, and how many calls to the server
 * each adapter append made (one: no read before or after).
 */
async function kurrentDbAppendFigure(options: ServerBenchOptions, eventStoreUrl: string): Promise<Figure> {
  const name = 'KurrentDB adapter appends, one stream, 1 writer';
  // Its bids are not the engine's: they stay in a namespace of their own, out of any deployment's way.
  const namespace = `bench-${randomUUID()}`;
  const adapter = openKurrentDbAdapter(eventStoreUrl, namespace);
  const compared = await compareSides(options, name, 1, adapter, openKurrentDbClient(eventStoreUrl, namespace));
  return {
    name,
    unit: 'events/s',
    baselineName: "the KurrentDB client's appendToStream, same server",
    higherIsBetter: true,
    goalRatio: 0.9,
    trials: compared.trials,
    details: {
      eventStore: eventStoreUrl,
      serverCallsPerAppend: adapter.serverCallsPerAppend(),
      appendLatencyMs: { adapter: compared.productLatency, client: compared.baselineLatency },
    },
  };
}

/** Both sides measured in every trial, for the same time; which goes first alternates. Closes both. */
async function compareSides(options: ServerBenchOptions, name: string, writers: number, product: Side, baseline: Side) {
  const trials: Trial[] = [];
  const productRuns: Measured[] = [];
  const baselineRuns: Measured[] = [];
  try {
    for (let trial = 0; trial < options.trials; trial++) {
      const measure = (side: Side) => measureWriters(side, writers, options.seconds);
      let productRun: Measured;
      let baselineRun: Measured;
      if (trial % 2 === 0) {
        productRun = await measure(product);
        baselineRun = await measure(baseline);
      } else {
        baselineRun = await measure(baseline);
        productRun = await measure(product);
      }
      productRuns.push(productRun);
      baselineRuns.push(baselineRun);
      trials.push({ value: productRun.eventsPerSecond, baseline: baselineRun.eventsPerSecond });
      options.log(`${name}, trial ${trial + 1}: product ${describe(productRun)}; baseline ${describe(baselineRun)}`);
    }
  } finally {
    await product.close();
    await baseline.close();
  }
  const latency = (runs: readonly Measured[]) => ({ p50: median(runs.map((run) => run.p50Ms)), p99: median(runs.map((run) => run.p99Ms)) });
  return { trials, productLatency: latency(productRuns), baselineLatency: latency(baselineRuns) };
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
    writer: (streamId) => storeWriter(store, streamId),
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

/** The product's adapter over a client that counts the calls it makes to the server. */
function openKurrentDbAdapter(url: string, namespace: string): Side & { serverCallsPerAppend(): number } {
  const client = KurrentDBClient.connectionString(url);
  let serverCalls = 0;
  let appends = 0;
  const counted = new Proxy(client, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      if (SERVER_CALLS.has(String(property))) serverCalls++;
      return value.bind(target);
    },
  });
  const store = new KurrentDbEventStore(counted, { namespace });
  return {
    writer: (streamId) => storeWriter(store, streamId, () => appends++),
    serverCallsPerAppend: () => (appends === 0 ? 0 : Math.round((serverCalls / appends) * 100) / 100),
    close: () => store.close(),
  };
}

/** The client's methods that ask the server something (`execute`: the adapter's reads over gRPC). */
const SERVER_CALLS = new Set(['appendToStream', 'multiStreamAppend', 'appendRecords', 'readStream', 'readAll', 'subscribeToAll', 'subscribeToStream', 'execute']);

/** One product event store's writer: one bid per append, at the revision the last append returned. */
function storeWriter(store: EventStore, streamId: string, onAppended?: () => void): Writer {
  let expectedRevision: ExpectedRevision = 'no_stream';
  let sequence = 0;
  return async () => {
    const result = await store.appendToStream(streamId, [{ id: randomUUID(), ...bidPlaced(streamId, sequence++) }], { expectedRevision });
    expectedRevision = result.nextExpectedRevision;
    onAppended?.();
  };
}

/** The client's own appends, to the stream names the adapter gives the same streams in `namespace`. */
function openKurrentDbClient(url: string, namespace: string): Side {
  const client = KurrentDBClient.connectionString(url);
  return {
    writer(streamId) {
      let streamState: AppendStreamState = NO_STREAM;
      let sequence = 0;
      return async () => {
        const { metadata, ...event } = bidPlaced(streamId, sequence++);
        const result = await client.appendToStream(`${namespace}.${streamId}`, jsonEvent({ ...event, metadata }), { streamState });
        streamState = result.nextExpectedRevision;
      };
    },
    close: () => client.dispose(),
  };
}

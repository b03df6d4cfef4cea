/**
 * Section `audit` of `npm run bench`: how fast the auditors' log query (EventStore.queryLog)
 * answers on a PostgreSQL log of BENCH_AUDIT_EVENTS events (default 1,000,000), one filter at a time.
 *
 * The log is generated in SQL (INSERT ... SELECT generate_series) in a database of its own, dropped
 * afterwards: streams of the four categories (auction, auction_rejections, listing, nfc_tag), each
 * stream's events spread over a few days among other live streams, 13 event types, 300 actors,
 * one correlation id per three events, six months of recorded times. In each trial every query's
 * time is the median of several runs, beside the baseline measured in the same trial: the
 * unfiltered first page (readAll, 100 events). The figure is the slowest filter's.
 */
import type { LogPosition, LogQuery } from '../../engine/eventstore/port';
import { PostgresEventStore } from '../../engine/eventstore/postgres/postgres-event-store';
import { NodePostgresClient } from '../../engine/postgres/sql-client';
import { median, type Figure, type Trial } from './figures';
import { withScratchDatabase } from './scratch-database';
import type { ServerBenchOptions } from './server-harness';
import { positiveNumber } from './settings';

const EVENTS = positiveNumber('BENCH_AUDIT_EVENTS', 1_000_000);
const CHUNK = 100_000;
const RUNS = 15;
const PAGE = 100;
const FIRST_RECORDED_AT = new Date('2026-01-01T00:00:00.000Z');
/** Six months of log, evenly spread. */
const SECONDS_PER_EVENT = (182 * 24 * 3600) / EVENTS;

/**
 * One chunk of the generated log. The n-th event of a category goes to one of `live` streams open
 * at once, each taking `events_per_stream` events before the next `live` streams open. Transaction
 * ids are made up below the oldest open transaction, so that every event is settled.
 */
const FILL_CHUNK = `
WITH numbered AS (
  SELECT g, g % 20 AS bucket, g / 20 AS round FROM generate_series($1::bigint, $2::bigint - 1) AS g
), placed AS (
  SELECT g,
    CASE WHEN bucket < 12 THEN 'auction' WHEN bucket < 15 THEN 'auction_rejections' WHEN bucket < 18 THEN 'listing' ELSE 'nfc_tag' END AS category,
    CASE WHEN bucket < 12 THEN round * 12 + bucket WHEN bucket < 15 THEN round * 3 + bucket - 12
         WHEN bucket < 18 THEN round * 3 + bucket - 15 ELSE round * 2 + bucket - 18 END AS nth
  FROM numbered
), streamed AS (
  SELECT g, category, events_per_stream,
    (nth / (events_per_stream * live)) * live + nth % live AS stream_number,
    (nth % (events_per_stream * live)) / live AS revision
  FROM placed
  JOIN (VALUES ('auction', 50, 200), ('auction_rejections', 25, 200), ('listing', 4, 500), ('nfc_tag', 2, 500))
    AS shape(category, events_per_stream, live) USING (category)
)
INSERT INTO events (transaction_id, stream_id, stream_revision, event_id, event_type, data, metadata, recorded_at)
SELECT
  (3 + g * $3::bigint / $4::bigint)::text::xid8,
  category || '-' || md5(category || stream_number)::uuid,
  revision,
  md5('event' || g)::uuid,
  CASE category
    WHEN 'auction' THEN CASE WHEN revision = 0 THEN 'AuctionScheduled' WHEN revision = 1 THEN 'AuctionOpened'
      WHEN revision = events_per_stream - 1 THEN 'AuctionClosed' WHEN revision % 10 = 3 THEN 'AuctionExtended'
      WHEN revision % 10 = 7 THEN 'MaximumBidRaised' ELSE 'BidPlaced' END
    WHEN 'auction_rejections' THEN 'BidRejected'
    WHEN 'listing' THEN (ARRAY['ListingDrafted', 'ListingDetailsRevised', 'ListingMediaArranged', 'ListingPublished'])[revision + 1]
    ELSE (ARRAY['NfcTagProvisioned', 'NfcTagBound'])[revision + 1]
  END,
  jsonb_build_object('amount', 500 + (g % 977) * 25),
  jsonb_build_object(
    'actorId', 'user-' || ((hashint8(g) & 2147483647) % 300),
    'actorRoles', jsonb_build_array('BUYER'),
    'correlationId', md5('correlation' || (g / 3))::uuid,
    'commandId', md5('command' || g)::uuid,
    'occurredAt', $5::timestamptz + g * make_interval(secs => $6)
  ),
  $5::timestamptz + g * make_interval(secs => $6)
FROM streamed`;

async function medianMs(run: () => Promise<unknown>): Promise<number> {
  await run(); // warm the cache and the plan
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    await run();
    times.push(performance.now() - started);
  }
  return Math.round(median(times) * 100) / 100;
}

async function fill(sql: NodePostgresClient, log: ServerBenchOptions['log']): Promise<number> {
  const started = performance.now();
  const { rows } = await sql.query<{ xmin: string }>('SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS xmin');
  const transactions = Math.max(1, Number(rows[0]!.xmin) - 4);
  for (let from = 0; from < EVENTS; from += CHUNK) {
    await sql.query(FILL_CHUNK, [from, Math.min(EVENTS, from + CHUNK), transactions, EVENTS, FIRST_RECORDED_AT, SECONDS_PER_EVENT]);
    if ((from / CHUNK) % 5 === 4) log(`audit filters: ${Math.min(EVENTS, from + CHUNK).toLocaleString('en-US')} events generated`);
  }
  await sql.query('INSERT INTO event_streams (stream_id, revision) SELECT stream_id, max(stream_revision) FROM events GROUP BY stream_id');
  await sql.query('VACUUM ANALYZE events');
  return Math.round((performance.now() - started) / 100) / 10;
}

/** The event at the n-th place of the log, to take real stream ids, actors and positions from. */
async function eventAt(sql: NodePostgresClient, n: number) {
  const { rows } = await sql.query<{ stream_id: string; actor: string; correlation: string; commit: string; prepare: string }>(
    `SELECT stream_id, metadata->>'actorId' AS actor, metadata->>'correlationId' AS correlation,
            transaction_id::text AS commit, global_position::text AS prepare
     FROM events ORDER BY transaction_id, global_position OFFSET $1 LIMIT 1`,
    [n],
  );
  const row = rows[0]!;
  const position: LogPosition = { commit: BigInt(row.commit), prepare: BigInt(row.prepare) };
  return { streamId: row.stream_id, actorId: row.actor, correlationId: row.correlation, position };
}

function timeAt(fraction: number): Date {
  return new Date(FIRST_RECORDED_AT.getTime() + fraction * EVENTS * SECONDS_PER_EVENT * 1000);
}

/** The slowest filter's time against the first unfiltered page, trial by trial; every filter's time in the details. */
export async function auditFilterFigures(options: ServerBenchOptions): Promise<Figure[]> {
  return withScratchDatabase(options.postgresUrl, 'audit', async (database) => {
    const sql = new NodePostgresClient({ connectionString: database.url, max: 2 });
    try {
      const store = await PostgresEventStore.open(sql);
      const fillSeconds = await fill(sql, options.log);
      options.log(`audit filters: ${EVENTS.toLocaleString('en-US')} events generated in ${fillSeconds} s`);
      const queries = await auditorQueries(sql);
      const baseline = () => store.readAll({ maxCount: PAGE });
      // One pass over everything first: the first queries of a process pay for warming the JIT and the pool.
      for (const filter of Object.values(queries)) {
        await baseline();
        await store.queryLog({ ...filter, limit: PAGE });
      }
      const trials: Trial[] = [];
      const msPerTrial: Array<Record<string, number>> = [];
      const slowestPerTrial: string[] = [];
      for (let trial = 1; trial <= options.trials; trial++) {
        const baselineMs = await medianMs(baseline);
        const ms: Record<string, number> = {};
        for (const [name, filter] of Object.entries(queries)) ms[name] = await medianMs(() => store.queryLog({ ...filter, limit: PAGE }));
        const [slowest, slowestMs] = Object.entries(ms).reduce((a, b) => (b[1] > a[1] ? b : a));
        trials.push({ value: slowestMs, baseline: baselineMs });
        msPerTrial.push(ms);
        slowestPerTrial.push(slowest);
        options.log(`audit filters, trial ${trial}: slowest ${slowestMs} ms (${slowest}); first page unfiltered ${baselineMs} ms`);
      }
      await store.close();
      return [
        {
          name: `auditors' log query, ${EVENTS.toLocaleString('en-US')} events, slowest of ${Object.keys(queries).length} filters`,
          unit: 'ms',
          baselineName: `the first ${PAGE} events unfiltered (readAll)`,
          higherIsBetter: false,
          goalRatio: null,
          trials,
          details: {
            events: EVENTS,
            fillSeconds,
            pageSize: PAGE,
            runsPerQuery: RUNS,
            slowestPerTrial,
            medianMsPerFilter: Object.fromEntries(Object.keys(queries).map((name) => [name, median(msPerTrial.map((ms) => ms[name]!))])),
          },
        },
      ];
    } finally {
      await sql.close();
    }
  });
}

/** Filters an auditor would set, on real stream ids, actors and positions of the generated log. */
async function auditorQueries(sql: NodePostgresClient): Promise<Record<string, Omit<LogQuery, 'limit'>>> {
  const middle = await eventAt(sql, Math.floor(EVENTS / 2));
  const deepCount = Math.floor(EVENTS * 0.9);
  const deep = await eventAt(sql, deepCount);
  const deepName = `after the ${deepCount.toLocaleString('en-US')}th event`;
  return {
    'stream (one auction)': { stream: middle.streamId },
    'category nfc_tag (10%)': { category: 'nfc_tag' },
    'category auction (60%)': { category: 'auction' },
    'type AuctionClosed (1%)': { types: ['AuctionClosed'] },
    'types AuctionScheduled + AuctionClosed + BidRejected': { types: ['AuctionScheduled', 'AuctionClosed', 'BidRejected'] },
    'actor (1 of 300)': { actorId: middle.actorId },
    'correlationId (3 events)': { correlationId: middle.correlationId },
    'from/to (one week in the middle)': { from: timeAt(0.5), to: timeAt(0.5 + 7 / 182) },
    'from (last week)': { from: timeAt(1 - 7 / 182) },
    // The costly shape: a wide window far from `after`, which can only be skipped to or gathered whole.
    'from/to (three months in the middle)': { from: timeAt(0.25), to: timeAt(0.75) },
    'from/to (three months in the middle) + category auction': { from: timeAt(0.25), to: timeAt(0.75), category: 'auction' },
    'from (day 2 on: 99% of the log)': { from: timeAt(1 / 182) },
    'from (day 2 on) + category auction': { from: timeAt(1 / 182), category: 'auction' },
    'category auction + type BidPlaced + actor + from/to (one month)': {
      category: 'auction',
      types: ['BidPlaced'],
      actorId: middle.actorId,
      from: timeAt(0.4),
      to: timeAt(0.4 + 30 / 182),
    },
    [`deep page: ${deepName}, no filter`]: { after: deep.position },
    [`deep page: ${deepName}, category listing`]: { after: deep.position, category: 'listing' },
    'no match (unknown actor)': { actorId: 'nobody' },
  };
}

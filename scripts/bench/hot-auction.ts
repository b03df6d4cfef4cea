/**
 * `npm run bench`: how fast one hot auction takes bids, and how fast auditors query the log.
 *
 *  1. the pure engine alone: decide + evolve, one bid after another;
 *  2. the command handler with many bidders racing on one auction, on each store that can run here
 *     (in-memory, PGlite, and PostgreSQL when BENCH_DATABASE_URL, TEST_DATABASE_URL or DATABASE_URL
 *     is set);
 *  3. on that PostgreSQL, the auditors' log query at a million events, one filter at a time
 *     (audit-filters.ts).
 *
 * Figures go to scripts/bench/results.json (and the console). Compare runs on the same machine only.
 */
import { randomUUID } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { cpus, totalmem } from 'node:os';
import { handleAuctionCommand } from '../../engine/application/auction-commands';
import { CommandHandler } from '../../engine/application/command-handler';
import {
  auctionDecider,
  commandMetadata,
  DomainError,
  EBAY_INCREMENTS,
  fold,
  minimumNextBid,
  type AuctionCommand,
  type AuctionRules,
  type AuctionState,
  type CommandMetadata,
} from '../../engine/domain';
import { InMemoryEventStore } from '../../engine/eventstore/memory';
import type { EventStore } from '../../engine/eventstore/port';
import { PostgresEventStore } from '../../engine/eventstore/postgres/postgres-event-store';
import { createKysely } from '../../engine/postgres/kysely-dialect';
import { NodePostgresClient, PGliteClient, type SqlClient } from '../../engine/postgres/sql-client';
import { migrateReadModels, ProjectionRunner, type ReadModels } from '../../projections';
import { benchmarkAuditFilters } from './audit-filters';
import type { Kysely } from 'kysely';

const RULES: AuctionRules = {
  currency: 'USD',
  startingPrice: 10_000,
  incrementTable: EBAY_INCREMENTS,
  softClose: null,
  reservePrice: null,
  buyNowPrice: null,
};
const STARTS_AT = '2026-01-01T00:00:00.000Z';
const ENDS_AT = '2099-01-01T00:00:00.000Z';
const admin = { userId: 'admin', roles: ['ADMIN' as const] };

function meta(userId: string, roles: CommandMetadata['actor']['roles'], now: string): CommandMetadata {
  return commandMetadata({ userId, roles }, now, { correlationId: randomUUID(), commandId: randomUUID() });
}

function schedule(auctionId: string): AuctionCommand {
  return {
    type: 'ScheduleAuction',
    data: { auctionId, listingId: `listing-${auctionId}`, sellerId: 'seller', startsAt: STARTS_AT, endsAt: ENDS_AT, rules: RULES },
    metadata: meta(admin.userId, admin.roles, '2026-01-01T00:00:00.000Z'),
  };
}

function bid(auctionId: string, bidderId: string, amount: number, now: string): AuctionCommand {
  return {
    type: 'PlaceBid',
    data: { auctionId, bidId: randomUUID(), amount, maximum: null },
    metadata: meta(bidderId, ['BUYER'], now),
  };
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

function pureEngine(bids: number) {
  let state: AuctionState = fold(auctionDecider, auctionDecider.decide(schedule('pure'), auctionDecider.initialState));
  const now = '2026-06-01T00:00:00.000Z';
  const heapBefore = process.memoryUsage().heapUsed;
  const started = performance.now();
  for (let i = 0; i < bids; i++) {
    if (state.status !== 'ACTIVE') throw new Error('auction not active');
    const amount = minimumNextBid(state.facts.rules, state.standing);
    const events = auctionDecider.decide(bid('pure', `bidder-${i % 50}`, amount, now), state);
    for (const event of events) state = auctionDecider.evolve(state, event);
  }
  const seconds = (performance.now() - started) / 1000;
  return {
    bids,
    bidsPerSecond: Math.round(bids / seconds),
    heapGrowthMB: Math.round(((process.memoryUsage().heapUsed - heapBefore) / 1024 / 1024) * 10) / 10,
  };
}

async function racingBidders(store: EventStore, options: { bidders: number; seconds: number }) {
  const handler = new CommandHandler(store);
  const auctionId = randomUUID();
  await handleAuctionCommand(handler, schedule(auctionId));
  const latencies: number[] = [];
  let accepted = 0;
  let refused = 0;
  let lastPrice = RULES.startingPrice;
  let leaderId: string | null = null;
  const deadline = performance.now() + options.seconds * 1000;

  // Each bidder bids the minimum it last heard of, unless it leads; a refusal tells it the new minimum.
  await Promise.all(
    Array.from({ length: options.bidders }, async (_, index) => {
      const bidderId = `bidder-${index}`;
      let knownMinimum = minimumNextBid(RULES, { price: RULES.startingPrice, leaderId: null, leadingBidId: null, leaderMaximum: null, reserveMet: null });
      let leading = false;
      while (performance.now() < deadline) {
        if (leading) {
          // Watch, as a leader would, and come back when outbid.
          await new Promise((resolve) => setTimeout(resolve, 1));
          leading = leaderId === bidderId;
          continue;
        }
        const started = performance.now();
        try {
          const handled = await handleAuctionCommand(handler, bid(auctionId, bidderId, knownMinimum, new Date().toISOString()));
          accepted++;
          if (handled.state.status === 'ACTIVE') {
            lastPrice = handled.state.standing.price;
            leaderId = handled.state.standing.leaderId;
            leading = leaderId === bidderId;
            knownMinimum = minimumNextBid(RULES, handled.state.standing);
          }
        } catch (error) {
          if (!(error instanceof DomainError)) throw error;
          refused++;
          const minimum = error.details.minimumBid;
          knownMinimum = typeof minimum === 'number' ? minimum : knownMinimum + 500;
        }
        latencies.push(performance.now() - started);
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  const attempts = accepted + refused;
  return {
    bidders: options.bidders,
    seconds: options.seconds,
    attemptsPerSecond: Math.round(attempts / options.seconds),
    acceptedPerSecond: Math.round(accepted / options.seconds),
    refusedShare: Math.round((refused / Math.max(1, attempts)) * 100) / 100,
    latencyMs: { p50: round(percentile(latencies, 50)), p99: round(percentile(latencies, 99)) },
    finalPrice: lastPrice,
  };
}

/** From a bid's answer to the bid being in the read models (the projections running live). */
async function projectionLag(store: EventStore, sql: SqlClient, bids: number) {
  const db = createKysely<ReadModels>(sql);
  await migrateReadModels(db as Kysely<unknown>);
  const runner = new ProjectionRunner(store, db);
  await runner.start();
  await runner.caughtUp();
  const handler = new CommandHandler(store);
  const auctionId = randomUUID();
  await handleAuctionCommand(handler, schedule(auctionId));
  const lags: number[] = [];
  let amount = minimumNextBid(RULES, { price: RULES.startingPrice, leaderId: null, leadingBidId: null, leaderMaximum: null, reserveMet: null });
  for (let i = 0; i < bids; i++) {
    const handled = await handleAuctionCommand(handler, bid(auctionId, `bidder-${i % 2}`, amount, new Date().toISOString()));
    const answeredAt = performance.now();
    const head = await store.headPosition();
    await runner.caughtUpTo(head!);
    lags.push(performance.now() - answeredAt);
    if (handled.state.status === 'ACTIVE') amount = minimumNextBid(RULES, handled.state.standing);
  }
  await runner.stop();
  lags.sort((a, b) => a - b);
  return { bids, lagMs: { p50: round(percentile(lags, 50)), p95: round(percentile(lags, 95)), p99: round(percentile(lags, 99)), max: round(lags.at(-1) ?? 0) } };
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}

async function main(): Promise<void> {
  const seconds = Number(process.env.BENCH_SECONDS ?? 5);
  const results: Record<string, unknown> = {
    ranAt: new Date().toISOString(),
    machine: { node: process.version, cpus: cpus().length, memoryGB: Math.round(totalmem() / 1024 ** 3) },
  };

  results.pureEngine = pureEngine(100_000);
  console.log('pure engine', results.pureEngine);

  const stores: Array<{ name: string; open: () => Promise<{ store: EventStore; sql?: SqlClient; close: () => Promise<void> }> }> = [
    { name: 'in-memory', open: async () => ({ store: new InMemoryEventStore(), close: async () => undefined }) },
    {
      name: 'PGlite',
      open: async () => {
        const sql = await PGliteClient.open();
        const store = await PostgresEventStore.open(sql);
        return { store, sql, close: async () => { await store.close(); await sql.close(); } };
      },
    },
  ];
  const databaseUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
  if (databaseUrl) {
    stores.push({
      name: 'PostgreSQL',
      open: async () => {
        const admin = new NodePostgresClient({ connectionString: databaseUrl, max: 1 });
        await admin.query('DROP SCHEMA IF EXISTS bench CASCADE');
        await admin.query('CREATE SCHEMA bench');
        const scoped = new NodePostgresClient({ connectionString: databaseUrl, max: 20, options: '-c search_path=bench' });
        const store = await PostgresEventStore.open(scoped, { channel: 'bench_events' });
        return {
          store,
          sql: scoped,
          close: async () => {
            await store.close();
            await scoped.close();
            await admin.query('DROP SCHEMA bench CASCADE');
            await admin.close();
          },
        };
      },
    });
  } else {
    console.log('PostgreSQL figures (hot auction, audit filters) NOT RUN: set BENCH_DATABASE_URL, TEST_DATABASE_URL or DATABASE_URL');
  }

  const hotAuction: Record<string, unknown> = {};
  const readModelLag: Record<string, unknown> = {};
  for (const { name, open } of stores) {
    const { store, sql, close } = await open();
    for (const bidders of [2, 50]) {
      const figures = await racingBidders(store, { bidders, seconds });
      hotAuction[`${name}, ${bidders} bidders`] = figures;
      console.log(`hot auction on ${name}, ${bidders} bidders`, figures);
    }
    if (sql) {
      readModelLag[name] = await projectionLag(store, sql, 200);
      console.log(`read model lag on ${name}`, readModelLag[name]);
    }
    await close();
  }
  results.hotAuction = hotAuction;
  results.readModelLag = readModelLag;
  if (databaseUrl) results.auditFilters = await benchmarkAuditFilters(databaseUrl);

  const file = new URL('./results.json', import.meta.url);
  await writeFile(file, `${JSON.stringify(results, null, 2)}\n`);
  console.log(`written to ${file.pathname}`);
}

await main();

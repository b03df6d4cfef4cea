/**
 * `npm run bench:live`: how long a bid takes to reach the people watching the auction.
 *
 * A real API (openServices + buildApp, listening on a port) on an in-memory PGlite, and on
 * PostgreSQL too when BENCH_DATABASE_URL or TEST_DATABASE_URL is set. N WebSocket clients follow
 * one auction on /ws/bidding; bids go in over HTTP (POST /api/bids, signed in as buyers). Measured:
 *
 *  1. one bid at a time: from sending the POST until each socket has the bid_placed (every socket's
 *     receipt is one sample), and the POST's own answer time;
 *  2. bidders racing for a few seconds: accepted bids per second and the same latency under load.
 *
 * The clients run in the same process as the server, so they share its CPU: the figures are an
 * upper bound of what the server alone would take. Figures go to scripts/bench/live-results.json.
 * Settings: BENCH_SOCKETS (200), BENCH_BIDS (200), BENCH_BIDDERS (8), BENCH_SECONDS (5).
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import WebSocket from 'ws';
import { startSession } from '../../api/accounts/sessions';
import { createUser } from '../../api/accounts/users';
import { buildApp } from '../../api/app';
import { sameLimitForAll } from '../../api/http/rate-limit-settings';
import type { PlacedBid } from '../../api/contracts/bids';
import type { ServerMessage } from '../../api/contracts/live';
import { openServices } from '../../api/services';
import { handleAuctionCommand } from '../../engine/application/auction-commands';
import { commandMetadata, FLAT_ONE_DOLLAR } from '../../engine/domain';
import type { EventStore } from '../../engine/eventstore/port';
import { PostgresEventStore } from '../../engine/eventstore/postgres/postgres-event-store';
import { NodePostgresClient, PGliteClient, type SqlClient } from '../../engine/postgres/sql-client';

const SOCKETS = Number(process.env.BENCH_SOCKETS ?? 200);
const SEQUENTIAL_BIDS = Number(process.env.BENCH_BIDS ?? 200);
const BIDDERS = Number(process.env.BENCH_BIDDERS ?? 8);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);

interface Storage {
  readonly sql: SqlClient;
  readonly store: EventStore;
  close(): Promise<void>;
}

async function openPglite(): Promise<Storage> {
  const sql = await PGliteClient.open();
  const store = await PostgresEventStore.open(sql);
  return { sql, store, close: async () => { await store.close(); await sql.close(); } };
}

async function openPostgres(url: string): Promise<Storage> {
  const schema = `bench_live_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  const sql = new NodePostgresClient({ connectionString: url, max: 20, options: `-c search_path=${schema}` });
  const store = await PostgresEventStore.open(sql, { channel: `events_${schema}` });
  return {
    sql,
    store,
    async close() {
      await store.close();
      await sql.close();
      const cleanup = new pg.Client({ connectionString: url });
      await cleanup.connect();
      await cleanup.query(`DROP SCHEMA ${schema} CASCADE`);
      await cleanup.end();
    },
  };
}

/** Receipt times of bid_placed messages (kind BID) by bid id, for one socket. */
type Receipts = Map<string, number>;

interface Watcher {
  readonly socket: WebSocket;
  readonly receipts: Receipts;
}

type BidPlaced = Extract<ServerMessage, { type: 'bid_placed' }>;

async function watch(url: string, auctionId: string, onBid: (message: BidPlaced) => void): Promise<Watcher> {
  const socket = new WebSocket(`${url.replace(/^http/, 'ws')}/ws/bidding`);
  const receipts: Receipts = new Map();
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  const subscribed = new Promise<void>((resolve) => {
    socket.on('message', (data) => {
      const message = JSON.parse(data.toString()) as ServerMessage;
      if (message.type === 'subscribed') resolve();
      if (message.type === 'bid_placed' && message.bidData.kind === 'BID') {
        receipts.set(message.bidData.bidId, performance.now());
        onBid(message);
      }
    });
  });
  socket.send(JSON.stringify({ action: 'subscribe', auctionId }));
  await subscribed;
  return { socket, receipts };
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

function summary(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const round = (value: number) => Math.round(value * 10) / 10;
  return { samples: sorted.length, p50: round(percentile(sorted, 50)), p95: round(percentile(sorted, 95)), p99: round(percentile(sorted, 99)), max: round(sorted.at(-1) ?? 0) };
}

async function until(condition: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = performance.now() + timeoutMs;
  while (!condition()) {
    if (performance.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  return true;
}

async function run(name: string, storage: Storage) {
  const dataDir = await mkdtemp(join(tmpdir(), 'provenance-bench-'));
  const services = await openServices(
    { database: storage.sql, eventStore: storage.store },
    { jwtSecret: 'bench-secret-bench-secret-bench-secret-0123', logLevel: 'silent', dataDir, lifecycle: false },
  );
  // A few bidders bid hundreds of times a minute here: the general limits must not refuse them.
  const app = await buildApp(services.deps, { rateLimits: sameLimitForAll({ max: 1_000_000, windowMs: 60_000 }) });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  const { deps } = services;

  try {
    const bidders = await Promise.all(
      Array.from({ length: Math.max(2, BIDDERS) }, async (_, index) => {
        const user = await createUser(deps.db, { email: `bench-${index}-${randomUUID().slice(0, 8)}@example.com`, password: 'Str0ng!Passw0rd', firstName: 'Bench', lastName: `Bidder ${index}`, roles: ['BUYER'] });
        const tokens = await startSession(deps.db, app.signAccessToken, user);
        return { userId: user.id, token: tokens.accessToken };
      }),
    );

    const auctionId = randomUUID();
    const now = new Date();
    await handleAuctionCommand(deps.commands, {
      type: 'ScheduleAuction',
      data: {
        auctionId,
        listingId: randomUUID(),
        sellerId: 'bench-seller',
        startsAt: new Date(now.getTime() - 60_000).toISOString(),
        endsAt: new Date(now.getTime() + 24 * 3_600_000).toISOString(),
        rules: { currency: 'USD', startingPrice: 100, incrementTable: FLAT_ONE_DOLLAR, softClose: null, reservePrice: null, buyNowPrice: null },
      },
      metadata: commandMetadata({ userId: 'bench-admin', roles: ['ADMIN'] }, now, { correlationId: randomUUID(), commandId: randomUUID() }),
    });

    // What a bidder knows from the feed: the minimum next bid and who leads.
    let minimumBid = 2;
    let leaderId: string | null = null;
    const learn = (message: BidPlaced) => {
      if (message.auctionData.minimumBid > minimumBid) {
        minimumBid = message.auctionData.minimumBid;
        leaderId = message.auctionData.currentLeaderId;
      }
    };
    const watchers: Watcher[] = [];
    for (let index = 0; index < SOCKETS; index += 50) {
      watchers.push(...(await Promise.all(Array.from({ length: Math.min(50, SOCKETS - index) }, (_, offset) => watch(url, auctionId, index + offset === 0 ? learn : () => undefined)))));
    }

    const post = async (bidder: { token: string }, amount: number) => {
      const response = await fetch(`${url}/api/bids`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${bidder.token}` },
        body: JSON.stringify({ auctionId, amount }),
      });
      // A PlacedBid when status is 201 (the only case read), else the error answer.
      const body = (await response.json()) as PlacedBid;
      return { status: response.status, body };
    };

    // 1. One bid at a time.
    const sequentialLatencies: number[] = [];
    const answerTimes: number[] = [];
    for (let index = 0; index < SEQUENTIAL_BIDS; index++) {
      const bidder = bidders[index % 2]!;
      const sentAt = performance.now();
      const { status, body } = await post(bidder, minimumBid);
      answerTimes.push(performance.now() - sentAt);
      if (status !== 201) throw new Error(`bid refused: ${status} ${JSON.stringify(body)}`);
      const bidId: string = body.id;
      minimumBid = Math.max(minimumBid, body.auction.minimumBid);
      if (!(await until(() => watchers.every((watcher) => watcher.receipts.has(bidId)), 10_000))) throw new Error('a socket never received a bid');
      for (const watcher of watchers) sequentialLatencies.push(watcher.receipts.get(bidId)! - sentAt);
    }

    // 2. Bidders racing: each bids the minimum it last saw unless it leads; refusals are part of it.
    const sentAt = new Map<string, number>();
    let refused = 0;
    const deadline = performance.now() + SECONDS * 1000;
    const started = performance.now();
    await Promise.all(
      bidders.map(async (bidder) => {
        while (performance.now() < deadline) {
          if (leaderId === bidder.userId) {
            await new Promise((resolve) => setTimeout(resolve, 1));
            continue;
          }
          const sent = performance.now();
          const { status, body } = await post(bidder, minimumBid);
          if (status === 201 && body.kind === 'BID') {
            sentAt.set(body.id, sent);
            if (body.auction.minimumBid > minimumBid) {
              minimumBid = body.auction.minimumBid;
              leaderId = body.auction.currentLeaderId;
            }
          } else {
            refused++;
            await new Promise((resolve) => setTimeout(resolve, 1));
          }
        }
      }),
    );
    const elapsedSeconds = (performance.now() - started) / 1000;
    const accepted = [...sentAt.keys()];
    const deliveredAll = await until(() => watchers.every((watcher) => accepted.every((bidId) => watcher.receipts.has(bidId))), 30_000);
    const loadLatencies: number[] = [];
    for (const watcher of watchers) {
      for (const [bidId, sent] of sentAt) {
        const received = watcher.receipts.get(bidId);
        if (received !== undefined) loadLatencies.push(received - sent);
      }
    }

    for (const watcher of watchers) watcher.socket.close(1000);
    const figures = {
      sockets: SOCKETS,
      oneBidAtATime: {
        bids: SEQUENTIAL_BIDS,
        bidToSocketMs: summary(sequentialLatencies),
        httpAnswerMs: summary(answerTimes),
      },
      racingBidders: {
        bidders: bidders.length,
        seconds: Math.round(elapsedSeconds * 10) / 10,
        acceptedBidsPerSecond: Math.round(accepted.length / elapsedSeconds),
        refusedPerSecond: Math.round(refused / elapsedSeconds),
        messagesDeliveredPerSecond: Math.round((accepted.length * SOCKETS) / elapsedSeconds),
        everySocketGotEveryBid: deliveredAll,
        bidToSocketMs: summary(loadLatencies),
      },
    };
    console.log(name, JSON.stringify(figures, null, 2));
    return figures;
  } finally {
    await app.close();
    await services.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const results: Record<string, unknown> = {
    ranAt: new Date().toISOString(),
    machine: { node: process.version, cpus: cpus().length, memoryGB: Math.round(totalmem() / 1024 ** 3) },
    bidsSentThrough: 'POST /api/bids (HTTP, signed in as buyers)',
  };
  const backends: Array<{ name: string; open: () => Promise<Storage> }> = [{ name: 'PGlite (in memory)', open: openPglite }];
  const databaseUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (databaseUrl) backends.push({ name: 'PostgreSQL', open: () => openPostgres(databaseUrl) });
  else console.log('PostgreSQL figures NOT RUN: set BENCH_DATABASE_URL (or TEST_DATABASE_URL)');

  for (const { name, open } of backends) {
    const storage = await open();
    try {
      results[name] = await run(name, storage);
    } finally {
      await storage.close();
    }
  }

  const file = new URL('./live-results.json', import.meta.url);
  await writeFile(file, `${JSON.stringify(results, null, 2)}\n`);
  console.log(`written to ${file.pathname}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

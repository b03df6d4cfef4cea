/**
 * Section `rebuild` of `npm run bench`: the product's rebuild of the read models
 * (rebuildReadModels, what `npm run projections:rebuild` runs) over a log of a realistic
 * marketplace, against reading that log's events table raw in the same trial.
 *
 * The log (BENCH_REBUILD_EVENTS events, default 67,000) is decided by the engine's own command
 * handlers, on the in-memory store for speed, as an admin and bidders would make it: listings
 * drafted and saved with photos, NFC tags provisioned and bound, listings published at auction,
 * auctions opened, bid on (one lot in ten hot, with thousands of attempts; a quarter of attempts
 * refused as too low and recorded as such; every fifth accepted bid a proxy maximum), closed, and
 * each listing marked SOLD or UNSOLD. It is then copied into the product's events table in log
 * order, a few thousand events per transaction.
 */
import { randomUUID } from 'node:crypto';
import { handleAuctionCommand } from '../../engine/application/auction-commands';
import { CommandHandler } from '../../engine/application/command-handler';
import { recordAuctionOutcome } from '../../engine/application/listing-follows-auction';
import { handleListingDraft } from '../../engine/application/listing-drafts';
import { handleListingPublication } from '../../engine/application/listing-publication';
import { handleTagBinding } from '../../engine/application/tag-binding';
import { handleTagProvisioning } from '../../engine/application/tag-provisioning';
import {
  commandMetadata,
  DomainError,
  EBAY_INCREMENTS,
  FLAT_ONE_DOLLAR,
  fromMillis,
  minimumNextBid,
  openingStanding,
  type Actor,
  type AuctionRules,
  type Standing,
} from '../../engine/domain';
import { InMemoryEventStore } from '../../engine/eventstore/memory';
import type { RecordedEvent } from '../../engine/eventstore/port';
import { PostgresEventStore } from '../../engine/eventstore/postgres/postgres-event-store';
import { createKysely } from '../../engine/postgres/kysely-dialect';
import { NodePostgresClient } from '../../engine/postgres/sql-client';
import { rebuildReadModels, type ReadModels } from '../../projections';
import { DEMO_CATALOGUE } from '../../api/seed/catalogue';
import type { Figure, Trial } from './figures';
import { positiveNumber } from './settings';
import { withScratchDatabase } from './scratch-database';
import type { ServerBenchOptions } from './server-harness';

const EVENTS = positiveNumber('BENCH_REBUILD_EVENTS', 67_000);
/** Events per transaction when copying the log into PostgreSQL. */
const COPY_CHUNK = 5_000;
/** Rows per page of the raw read (keyset paging in log order). */
const RAW_PAGE = 5_000;

const HOUR_MS = 3_600_000;
const FIRST_START_MS = Date.parse('2026-01-05T00:00:00.000Z');
const AUCTION_DAYS = 7;

const admin: Actor = { userId: randomUUID(), roles: ['ADMIN'] };
const system: Actor = { userId: 'system', roles: ['SYSTEM'] };
const bidders: Actor[] = Array.from({ length: 40 }, () => ({ userId: randomUUID(), roles: ['BUYER'] }));

export async function rebuildFigures(options: ServerBenchOptions): Promise<Figure[]> {
  const started = performance.now();
  const log = await generateMarketplaceLog(EVENTS);
  options.log(`rebuild: ${log.length.toLocaleString('en-US')} events decided by the engine in ${seconds(started)} s`);
  return withScratchDatabase(options.postgresUrl, 'rebuild', async (database) => {
    const sql = new NodePostgresClient({ connectionString: database.url });
    try {
      const store = await PostgresEventStore.open(sql);
      const copying = performance.now();
      await copyIntoEventsTable(sql, log);
      options.log(`rebuild: copied into PostgreSQL in ${seconds(copying)} s`);
      const db = createKysely<ReadModels>(sql);
      const trials: Trial[] = [];
      const rebuildSeconds: number[] = [];
      for (let trial = 1; trial <= options.trials; trial++) {
        const rebuilding = performance.now();
        await rebuildReadModels(store, db);
        const rebuildTook = (performance.now() - rebuilding) / 1000;
        const raw = await readEventsRaw(database.url);
        trials.push({ value: log.length / rebuildTook, baseline: raw.rows / raw.seconds });
        rebuildSeconds.push(Math.round(rebuildTook * 10) / 10);
        options.log(`rebuild, trial ${trial}: ${Math.round(log.length / rebuildTook)} events/s (${rebuildTook.toFixed(1)} s); raw read ${Math.round(raw.rows / raw.seconds)} rows/s`);
      }
      await store.close();
      return [
        {
          name: `rebuild of the read models, ${Math.round(log.length / 1000)}k events`,
          unit: 'events/s',
          baselineName: 'reading the events table raw, in log order',
          higherIsBetter: true,
          goalRatio: 0.25,
          trials,
          details: { events: log.length, mix: countByType(log), rebuildSeconds, rawPageRows: RAW_PAGE },
        },
      ];
    } finally {
      await sql.close();
    }
  });
}

function seconds(since: number): string {
  return ((performance.now() - since) / 1000).toFixed(1);
}

/** `SELECT *` in log order, a page at a time (keyset on the log order's index), every row parsed. */
async function readEventsRaw(url: string): Promise<{ rows: number; seconds: number }> {
  const sql = new NodePostgresClient({ connectionString: url, max: 1 });
  try {
    const started = performance.now();
    let rows = 0;
    let after: { transaction_id: string; global_position: string } | undefined;
    for (;;) {
      const page = await sql.query<{ transaction_id: string; global_position: string }>(
        after === undefined
          ? 'SELECT * FROM events ORDER BY transaction_id, global_position LIMIT $1'
          : 'SELECT * FROM events WHERE (transaction_id, global_position) > ($2::xid8, $3::bigint) ORDER BY transaction_id, global_position LIMIT $1',
        after === undefined ? [RAW_PAGE] : [RAW_PAGE, after.transaction_id, after.global_position],
      );
      rows += page.rows.length;
      if (page.rows.length < RAW_PAGE) break;
      after = page.rows.at(-1)!;
    }
    return { rows, seconds: (performance.now() - started) / 1000 };
  } finally {
    await sql.close();
  }
}

function countByType(log: readonly RecordedEvent[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const event of log) counts[event.type] = (counts[event.type] ?? 0) + 1;
  return counts;
}

/**
 * The log in its order, in chunks of one transaction each. Written straight into the events table
 * (and each stream's revision into event_streams), as the store would have written it.
 */
async function copyIntoEventsTable(sql: NodePostgresClient, log: readonly RecordedEvent[]): Promise<void> {
  for (let from = 0; from < log.length; from += COPY_CHUNK) {
    const chunk = log.slice(from, from + COPY_CHUNK).map((event) => ({
      streamId: event.streamId,
      revision: event.revision,
      id: event.id,
      type: event.type,
      data: event.data,
      metadata: event.metadata,
      recordedAt: event.recordedAt.toISOString(),
    }));
    await sql.query(
      `INSERT INTO events (stream_id, stream_revision, event_id, event_type, data, metadata, recorded_at)
       SELECT e.value->>'streamId', (e.value->>'revision')::bigint, (e.value->>'id')::uuid, e.value->>'type',
              e.value->'data', e.value->'metadata', (e.value->>'recordedAt')::timestamptz
       FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS e(value, ordinality)
       ORDER BY e.ordinality`,
      [JSON.stringify(chunk)],
    );
  }
  await sql.query('INSERT INTO event_streams (stream_id, revision) SELECT stream_id, max(stream_revision) FROM events GROUP BY stream_id');
  await sql.query('VACUUM ANALYZE events');
}

/** Lots listed, auctioned and settled one after another until the log holds at least `events` events. */
async function generateMarketplaceLog(events: number): Promise<RecordedEvent[]> {
  const store = new InMemoryEventStore();
  const handler = new CommandHandler(store);
  for (let lot = 0; ((await store.headPosition())?.prepare ?? -1n) + 1n < BigInt(events); lot++) {
    await listAndSell(handler, lot);
  }
  const log = await store.readAll();
  await store.close();
  return log;
}

/** How many bids a lot draws: one in ten is hot, a few draw none. */
function bidAttemptsFor(lot: number): number {
  if (lot % 10 === 0) return 2_500;
  if (lot % 10 === 7) return 0;
  return 300;
}

/** One lot, from photos to the listing following its closed auction, in the order an admin does it. */
async function listAndSell(handler: CommandHandler, lot: number): Promise<void> {
  const item = DEMO_CATALOGUE[lot % DEMO_CATALOGUE.length]!;
  const startsAt = FIRST_START_MS + lot * HOUR_MS;
  const endsAt = startsAt + AUCTION_DAYS * 24 * HOUR_MS;
  const by = (actor: Actor, atMs: number) => commandMetadata(actor, fromMillis(atMs), { correlationId: randomUUID(), commandId: randomUUID() });

  const listingId = randomUUID();
  await handleListingDraft(handler, {
    type: 'DraftListing',
    data: { listingId, slug: `${item.slug}-${lot}`, details: item.details, mediaIds: [randomUUID(), randomUUID()], save: true },
    metadata: by(admin, startsAt - 26 * HOUR_MS),
  });
  const uid = `04:${lot.toString(16).padStart(12, '0').match(/../g)!.join(':')}`.toUpperCase();
  await handleTagProvisioning(handler, { type: 'ProvisionNfcTag', data: { uid, claimCode: `BENCH-${lot}` }, metadata: by(admin, startsAt - 25 * HOUR_MS) });
  await handleTagBinding(handler, { type: 'BindTagToListing', data: { listingId, uid }, metadata: by(admin, startsAt - 25 * HOUR_MS) });

  const auctionId = randomUUID();
  const rules: AuctionRules = {
    currency: 'USD',
    startingPrice: item.details.price,
    incrementTable: lot % 2 === 0 ? EBAY_INCREMENTS : FLAT_ONE_DOLLAR,
    softClose: lot % 3 === 0 ? { windowSeconds: 900, latestEndsAt: fromMillis(endsAt + HOUR_MS) } : null,
    reservePrice: lot % 5 === 0 ? item.details.price * 20 : null,
    buyNowPrice: null,
  };
  await handleListingPublication(handler, {
    type: 'PublishListingAtAuction',
    data: { listingId, auctionId, startsAt: fromMillis(startsAt), endsAt: fromMillis(endsAt), rules },
    metadata: by(admin, startsAt - 24 * HOUR_MS),
  });
  await handleAuctionCommand(handler, { type: 'OpenAuction', data: { auctionId }, metadata: by(system, startsAt) });

  let standing: Standing = openingStanding(rules);
  const attempts = bidAttemptsFor(lot);
  for (let attempt = 0; attempt < attempts; attempt++) {
    // Never the leader: a leader raising its own bid is another command (MaximumBidRaised).
    let bidder = bidders[(attempt * 7 + lot) % bidders.length]!;
    if (bidder.userId === standing.leaderId) bidder = bidders[(attempt * 7 + lot + 1) % bidders.length]!;
    const tooLow = attempt % 4 === 3;
    const amount = tooLow ? standing.price : minimumNextBid(rules, standing);
    const maximum = !tooLow && attempt % 5 === 0 ? amount + 10 * (minimumNextBid(rules, standing) - standing.price) : null;
    try {
      const handled = await handleAuctionCommand(handler, {
        type: 'PlaceBid',
        data: { auctionId, bidId: randomUUID(), amount, maximum },
        metadata: by(bidder, startsAt + (attempt + 1) * 1000),
      });
      if (handled.state.status === 'ACTIVE') standing = handled.state.standing;
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
    }
  }

  const closed = await handleAuctionCommand(handler, { type: 'CloseAuction', data: { auctionId }, metadata: by(system, endsAt + 1000) });
  if (closed.state.status !== 'ENDED') throw new Error(`lot ${lot}: the auction did not end (${closed.state.status})`);
  const { result, winnerId, finalPrice } = closed.state.closing;
  await recordAuctionOutcome(handler, { auctionId, listingId, status: 'ENDED', result, winnerId, finalPrice }, by(system, endsAt + 60_000));
}

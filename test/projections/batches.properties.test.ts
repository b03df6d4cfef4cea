import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auctionRejectionsStreamId,
  auctionStreamId,
  bidRejection,
  listingStreamId,
  type AuctionEvent,
  type BidRejected,
  type ListingEvent,
} from '../../engine/domain';
import { InMemoryEventStore } from '../../engine/eventstore/memory';
import type { BatchHandler, SubscribeOptions, Subscription } from '../../engine/eventstore/port';
import { createKysely } from '../../engine/postgres/kysely-dialect';
import { PGliteClient } from '../../engine/postgres/sql-client';
import { migrateReadModels, ProjectionRunner, type ReadModels } from '../../projections';
import { ADMIN, AUCTION_ID, auctionScenarioArb, LISTING_ID, runAuction, type AuctionRun } from '../engine/arbitraries';
import { listingDetails } from '../engine/fixtures';

/**
 * The projections write a batch set-wise (one upsert per table, rows folded in memory), yet the
 * read models must end exactly as applying the log one event at a time leaves them, wherever the
 * log is cut into batches. Random auctions (accepted bids, proxies, refusals, retractions, closes)
 * with listing events put anywhere among them, since listing rows take writes from two projections.
 */

type LoggedEvent = AuctionEvent | BidRejected | ListingEvent;

/** The auction's stream and its refusals, in the order the command handler appends them. */
function auctionLog(run: AuctionRun): LoggedEvent[] {
  return run.records.flatMap(({ command, error, before, events }): LoggedEvent[] => {
    if (error === null) return [...events];
    return command.type === 'PlaceBid' || command.type === 'BuyNow' ? [bidRejection(command, error, before)] : [];
  });
}

function listingEvents(): ListingEvent[] {
  const metadata = (minute: number) => ({
    actorId: ADMIN.userId,
    actorRoles: ADMIN.roles,
    occurredAt: new Date(Date.parse('2026-03-01T11:00:00.000Z') + minute * 60_000).toISOString(),
    correlationId: 'corr-listing',
    commandId: `cmd-listing-${minute}`,
  });
  return [
    { type: 'ListingDrafted', data: { listingId: LISTING_ID, ownerId: ADMIN.userId, slug: 'lot-1', details: listingDetails, mediaIds: [] }, metadata: metadata(1) },
    { type: 'ListingDetailsRevised', data: { listingId: LISTING_ID, details: { ...listingDetails, price: 77_700 } }, metadata: metadata(2) },
    { type: 'ListingPublished', data: { listingId: LISTING_ID, auctionId: AUCTION_ID, nfcUid: '04:A2:B3:C4:D5:E6:F7' }, metadata: metadata(3) },
  ];
}

/** `events` with each of `inserted` put at the place its `at` picks (in order, so drafted before revised). */
function interleave(events: LoggedEvent[], inserted: ListingEvent[], at: number[]): LoggedEvent[] {
  const log = [...events];
  const places = at.map((pick) => pick % (events.length + 1)).sort((a, b) => a - b);
  inserted.forEach((event, index) => log.splice(places[index]! + index, 0, event));
  return log;
}

function streamOf(event: LoggedEvent): string {
  if (event.type === 'BidRejected') return auctionRejectionsStreamId(AUCTION_ID);
  return event.type.startsWith('Listing') ? listingStreamId(LISTING_ID) : auctionStreamId(AUCTION_ID);
}

/** An in-memory store whose subscriptions hand on each batch cut into pieces of the given sizes, in turn. */
class CuttingStore extends InMemoryEventStore {
  sizes: readonly number[] = [1];

  override subscribeToAll(options: SubscribeOptions, handler: BatchHandler): Subscription {
    return super.subscribeToAll(options, async (batch) => {
      for (let start = 0, turn = 0; start < batch.length; turn++) {
        const size = this.sizes[turn % this.sizes.length]!;
        await handler(batch.slice(start, start + size));
        start += size;
      }
    });
  }
}

describe('projections applied batch-wise', () => {
  let pglite: PGliteClient;
  let db: Kysely<ReadModels>;

  beforeAll(async () => {
    pglite = await PGliteClient.open();
    db = createKysely<ReadModels>(pglite);
    await migrateReadModels(db as Kysely<unknown>);
  });
  afterAll(async () => pglite.close());

  async function readModelsAfterApplying(store: CuttingStore, sizes: readonly number[]) {
    await sql`TRUNCATE listings, auctions, bids, bid_rejections, nfc_tags, projection_checkpoints RESTART IDENTITY`.execute(db);
    store.sizes = sizes;
    const runner = new ProjectionRunner(store, db, { batchSize: 10_000 });
    await runner.start();
    await runner.caughtUp();
    await runner.stop();
    return {
      listings: await db.selectFrom('listings').selectAll().orderBy('id').execute(),
      auctions: await db.selectFrom('auctions').selectAll().orderBy('id').execute(),
      bids: await db.selectFrom('bids').selectAll().orderBy('sequence').execute(),
      rejections: await db.selectFrom('bid_rejections').selectAll().orderBy('sequence').execute(),
      checkpoints: await db.selectFrom('projection_checkpoints').selectAll().orderBy('name').execute(),
    };
  }

  it('leaves the read models as applying the log one event at a time does, however the log is cut', async () => {
    await fc.assert(
      fc.asyncProperty(
        auctionScenarioArb,
        fc.array(fc.nat(), { minLength: 3, maxLength: 3 }),
        fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 8 }),
        async (scenario, listingPlaces, sizes) => {
          const store = new CuttingStore();
          for (const event of interleave(auctionLog(runAuction(scenario)), listingEvents(), listingPlaces)) {
            await store.appendToStream(streamOf(event), [{ id: randomUUID(), ...event }], { expectedRevision: 'any' });
          }
          const oneByOne = await readModelsAfterApplying(store, [1]);
          expect(await readModelsAfterApplying(store, sizes)).toEqual(oneByOne);
        },
      ),
      { numRuns: 40 },
    );
  }, 120_000);
});

import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handleAuctionCommand } from '../../engine/application/auction-commands';
import { CommandHandler } from '../../engine/application/command-handler';
import { handleTagBinding } from '../../engine/application/tag-binding';
import {
  auctionStreamId,
  EBAY_INCREMENTS,
  FLAT_ONE_DOLLAR,
  listingDecider,
  listingStreamId,
  nfcTagDecider,
  nfcTagStreamId,
  type Actor,
  type AuctionCommand,
  type AuctionRules,
  type CommandMetadata,
} from '../../engine/domain';
import type { EventStore } from '../../engine/eventstore/port';
import { createKysely } from '../../engine/postgres/kysely-dialect';
import { InMemoryEventStore } from '../../engine/eventstore/memory';
import { PostgresEventStore } from '../../engine/eventstore/postgres/postgres-event-store';
import { PGliteClient, type SqlClient } from '../../engine/postgres/sql-client';
import { migrateReadModels, ProjectionRunner, rebuildReadModels, type ReadModels } from '../../projections';
import { listingDetails } from '../engine/fixtures';
import { foreignEvent, logShapeFromEnv, shapedStore } from '../support/log-shapes';
import { createTestSchema, TEST_DATABASE_URL } from '../support/postgres';

const admin: Actor = { userId: 'admin-1', roles: ['ADMIN'] };
const system: Actor = { userId: 'scheduler', roles: ['SYSTEM'] };
const buyer = (id: string): Actor => ({ userId: id, roles: ['BUYER'] });
const meta = (actor: Actor, now: string): CommandMetadata => ({ actor, now, correlationId: randomUUID(), commandId: randomUUID() });

const T0 = '2026-12-01T12:00:00.000Z';
const at = (minutes: number) => new Date(Date.parse(T0) + minutes * 60_000).toISOString();

interface Backend {
  name: string;
  open(): Promise<{ sql: SqlClient; store: EventStore; close(): Promise<void> }>;
}
const backends: Backend[] = [
  {
    name: 'the memory store (read models on PGlite)',
    open: async () => {
      const sql = await PGliteClient.open();
      const store = shapedStore(new InMemoryEventStore(), logShapeFromEnv());
      return { sql, store, close: async () => { await store.close(); await sql.close(); } };
    },
  },
  {
    name: 'PGlite',
    open: async () => {
      const sql = await PGliteClient.open();
      const store = shapedStore(await PostgresEventStore.open(sql), logShapeFromEnv());
      return { sql, store, close: async () => { await store.close(); await sql.close(); } };
    },
  },
];
const databaseUrl = TEST_DATABASE_URL;
if (databaseUrl) {
  backends.push({
    name: 'PostgreSQL',
    open: async () => {
      const schema = await createTestSchema(databaseUrl);
      const sql = schema.client();
      const store = shapedStore(await PostgresEventStore.open(sql, { channel: `events_${schema.schema}` }), logShapeFromEnv());
      return { sql, store, close: async () => { await store.close(); await schema.drop(); } };
    },
  });
}

/** A marketplace's worth of history: listings, tags, auctions with proxies, a retraction, closes. */
async function writeHistory(handler: CommandHandler) {
  const listingId = randomUUID();
  const auctionId = randomUUID();
  const uid = '04A2B3C4D5E6F7';
  const listing = listingStreamId(listingId);
  await handler.handle(listingDecider, listing, { type: 'DraftListing', data: { listingId, slug: `brady-${listingId.slice(0, 6)}`, details: listingDetails, mediaIds: ['m-1', 'm-2'] }, metadata: meta(admin, at(-60)) });
  await handler.handle(listingDecider, listing, { type: 'SaveListing', data: { listingId }, metadata: meta(admin, at(-59)) });
  await handler.handle(nfcTagDecider, nfcTagStreamId(uid), { type: 'ProvisionNfcTag', data: { uid, claimCode: 'claim-42' }, metadata: meta(admin, at(-58)) });
  await handleTagBinding(handler, { type: 'BindTagToListing', data: { listingId, uid }, metadata: meta(admin, at(-57)) });
  const rules: AuctionRules = { currency: 'USD', startingPrice: 10_000, incrementTable: EBAY_INCREMENTS, softClose: { windowSeconds: 300, latestEndsAt: at(120) }, reservePrice: 15_000, buyNowPrice: null };
  await handleAuctionCommand(handler, { type: 'ScheduleAuction', data: { auctionId, listingId, sellerId: admin.userId, startsAt: at(0), endsAt: at(60), rules }, metadata: meta(admin, at(-56)) });
  await handler.handle(listingDecider, listing, { type: 'PublishListing', data: { listingId, auctionId }, metadata: meta(admin, at(-55)) });
  const bid = (bidder: string, amount: number, maximum: number | null, minute: number, bidId: string = randomUUID()): AuctionCommand => ({
    type: 'PlaceBid',
    data: { auctionId, bidId, amount, maximum },
    metadata: meta(buyer(bidder), at(minute)),
  });
  await handleAuctionCommand(handler, bid('alice', 10_250, 20_000, 1, 'alice-1'));
  await handleAuctionCommand(handler, bid('bob', 15_500, null, 2, 'bob-1'));
  await handleAuctionCommand(handler, bid('carol', 16_500, 25_000, 3, 'carol-1'));
  await expect(handleAuctionCommand(handler, bid('dave', 10_000, null, 4, 'dave-1'))).rejects.toThrow(/higher than current price/);
  await handleAuctionCommand(handler, { type: 'RetractBid', data: { auctionId, bidId: 'carol-1', reason: 'Bidder error' }, metadata: meta(admin, at(5)) });
  await handleAuctionCommand(handler, bid('bob', 21_000, null, 58, 'bob-2')); // inside the soft-close window
  await handleAuctionCommand(handler, { type: 'CloseAuction', data: { auctionId }, metadata: meta(system, at(64)) });
  return { listingId, auctionId, uid };
}

async function snapshot(db: Kysely<ReadModels>) {
  return {
    listings: await db.selectFrom('listings').selectAll().orderBy('id').execute(),
    auctions: await db.selectFrom('auctions').selectAll().orderBy('id').execute(),
    bids: await db.selectFrom('bids').selectAll().orderBy('sequence').execute(),
    rejections: await db.selectFrom('bid_rejections').select(['auction_id', 'bid_id', 'bidder_id', 'code', 'message', 'amount']).orderBy('sequence').execute(),
    tags: await db.selectFrom('nfc_tags').selectAll().orderBy('uid').execute(),
    checkpoints: await db.selectFrom('projection_checkpoints').select(['name', 'position']).orderBy('name').execute(),
  };
}

describe.each(backends)('read models on $name', (backend) => {
  let opened: Awaited<ReturnType<Backend['open']>>;
  let db: Kysely<ReadModels>;
  let handler: CommandHandler;
  let runner: ProjectionRunner;
  let history: Awaited<ReturnType<typeof writeHistory>>;

  beforeAll(async () => {
    opened = await backend.open();
    db = createKysely<ReadModels>(opened.sql);
    await migrateReadModels(db as Kysely<unknown>);
    handler = new CommandHandler(opened.store);
    runner = new ProjectionRunner(opened.store, db);
    await runner.start();
    history = await writeHistory(handler);
    await runner.caughtUp();
  });
  afterAll(async () => {
    await runner.stop();
    await opened.close();
  });

  it('shows the auction as a bidder needs it: price, leader, minimum next bid, end, reserve, result', async () => {
    const auction = await db.selectFrom('auctions').selectAll().where('id', '=', history.auctionId).executeTakeFirstOrThrow();
    // After carol's retraction alice leads again (at $157.50); bob's late $210 beats her $200 maximum.
    expect(auction).toMatchObject({ status: 'ENDED', leader_id: 'bob', result: 'SOLD', winner_id: 'bob', reserve_met: true, bid_count: 4 });
    expect(Number(auction.current_price)).toBe(21_000);
    expect(Number(auction.final_price)).toBe(21_000);
    expect(Number(auction.minimum_next_bid)).toBe(21_000 + 250);
    expect(new Date(auction.ends_at).toISOString()).toBe(at(63)); // extended by the soft close: 58 + 5 minutes
  });

  it('keeps the listing in step: status, tag, price and end of its auction', async () => {
    const listing = await db.selectFrom('listings').selectAll().where('id', '=', history.listingId).executeTakeFirstOrThrow();
    expect(listing).toMatchObject({ status: 'LIVE', nfc_uid: '04:A2:B3:C4:D5:E6:F7', auction_id: history.auctionId, title: listingDetails.title });
    expect(Number(listing.price)).toBe(21_000);
    expect(listing.media_ids).toEqual(['m-1', 'm-2']);
    expect(listing.search_text).toContain('tom brady');
  });

  it('records every bid in log order, proxies included, a retracted bid marked and kept', async () => {
    const bids = await db.selectFrom('bids').select(['id', 'bidder_id', 'kind', 'status']).select((eb) => eb.cast<number>('amount', 'integer').as('amount')).where('auction_id', '=', history.auctionId).orderBy('sequence').execute();
    expect(bids.map((b) => [b.bidder_id, b.kind, Number(b.amount), b.status])).toEqual([
      ['alice', 'BID', 10_250, 'ACCEPTED'],
      ['alice', 'AUTO', 15_000, 'ACCEPTED'], // her maximum meets the reserve: the price goes to it
      ['bob', 'BID', 15_500, 'ACCEPTED'],
      ['alice', 'AUTO', 15_750, 'ACCEPTED'],
      ['carol', 'BID', 16_500, 'RETRACTED'],
      ['alice', 'AUTO', 20_000, 'ACCEPTED'],
      ['carol', 'AUTO', 20_250, 'RETRACTED'],
      ['bob', 'BID', 21_000, 'ACCEPTED'],
    ]);
    const refused = await db.selectFrom('bid_rejections').selectAll().where('auction_id', '=', history.auctionId).execute();
    expect(refused).toMatchObject([{ bidder_id: 'dave', code: 'BID_NOT_ABOVE_CURRENT_PRICE' }]);
  });

  it('keeps the tag pool', async () => {
    expect(await db.selectFrom('nfc_tags').selectAll().execute()).toMatchObject([
      { uid: '04:A2:B3:C4:D5:E6:F7', claim_code: 'CLAIM-42', status: 'BOUND', listing_id: history.listingId },
    ]);
  });

  it('applies each event once even with a second runner (another process) on the same database', async () => {
    const before = await snapshot(db);
    const second = new ProjectionRunner(opened.store, db);
    await second.start();
    await handleAuctionCommand(handler, {
      type: 'ScheduleAuction',
      data: { auctionId: randomUUID(), listingId: randomUUID(), sellerId: 'admin-1', startsAt: at(100), endsAt: at(200), rules: { currency: 'USD', startingPrice: 100, incrementTable: FLAT_ONE_DOLLAR, softClose: null, reservePrice: null, buyNowPrice: null } },
      metadata: meta(admin, at(90)),
    });
    await Promise.all([runner.caughtUp(), second.caughtUp()]);
    await second.stop();
    const after = await snapshot(db);
    expect(after.auctions).toHaveLength(before.auctions.length + 1);
    expect(after.bids).toEqual(before.bids);
  });

  it("skips another writer's events in the middle of the log, live and in a rebuild, and still catches up", async () => {
    const before = await snapshot(db);
    await opened.store.appendToStream(`inventory-${randomUUID()}`, [foreignEvent(), foreignEvent()], { expectedRevision: 'any' });
    await opened.store.appendToStream(auctionStreamId(randomUUID()), [{ ...foreignEvent(), type: 'AuctionScheduled', metadata: null }], { expectedRevision: 'any' });
    const later = randomUUID();
    await handleAuctionCommand(handler, {
      type: 'ScheduleAuction',
      data: { auctionId: later, listingId: randomUUID(), sellerId: 'admin-1', startsAt: at(100), endsAt: at(200), rules: { currency: 'USD', startingPrice: 100, incrementTable: FLAT_ONE_DOLLAR, softClose: null, reservePrice: null, buyNowPrice: null } },
      metadata: meta(admin, at(90)),
    });
    await handleAuctionCommand(handler, { type: 'PlaceBid', data: { auctionId: later, bidId: randomUUID(), amount: 500, maximum: null }, metadata: meta(buyer('erin'), at(101)) });
    await runner.caughtUp();
    const live = await snapshot(db);
    expect(live.auctions).toHaveLength(before.auctions.length + 1);
    expect(live.bids).toHaveLength(before.bids.length + 1);
    expect(live.auctions.map((row) => row.id)).toContain(later);
    await runner.stop();
    await rebuildReadModels(opened.store, db);
    expect(await snapshot(db)).toEqual(live);
    await runner.start();
  });

  it('rebuilds identical rows from the log', async () => {
    await runner.stop();
    const live = await snapshot(db);
    await rebuildReadModels(opened.store, db);
    const rebuilt = await snapshot(db);
    expect(rebuilt).toEqual(live);
    await runner.start();
  });
});

import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handleAuctionCommand } from '../../engine/application/auction-commands';
import { CommandHandler } from '../../engine/application/command-handler';
import { asEngineEvent } from '../../engine/application/messages';
import { auctionStreamId, auctionSummaryView, EBAY_INCREMENTS, fold, type Actor, type AuctionCommand, type AuctionEvent, type AuctionRules } from '../../engine/domain';
import { createKysely } from '../../engine/postgres/kysely-dialect';
import { PostgresEventStore } from '../../engine/eventstore/postgres/postgres-event-store';
import { PGliteClient } from '../../engine/postgres/sql-client';
import { migrateReadModels, ProjectionRunner, type ReadModels } from '../../projections';
import { auctionSummaryOf } from '../../projections/auctions/auctions-projection';
import { admin, buyer, metadata, plusSeconds, scheduler, STARTS_AT } from '../engine/fixtures';

/**
 * The auctions read model stores the engine's auction summary: after every command, the row read
 * back is the summary folded from the auction's stream, and the listing shows its price and end.
 */

/** Each command its own id: the handler takes a repeated one for a retry. */
const meta = (actor: Actor, now: string) => metadata(actor, now, randomUUID());
const at = (minutes: number) => plusSeconds(STARTS_AT, minutes * 60);

describe('auctions read model on PGlite', () => {
  let close: () => Promise<void>;
  let db: Kysely<ReadModels>;
  let handler: CommandHandler;
  let store: PostgresEventStore;
  let runner: ProjectionRunner;

  beforeAll(async () => {
    const sql = await PGliteClient.open();
    store = await PostgresEventStore.open(sql);
    db = createKysely<ReadModels>(sql);
    await migrateReadModels(db as Kysely<unknown>);
    handler = new CommandHandler(store);
    runner = new ProjectionRunner(store, db);
    await runner.start();
    close = async () => {
      await runner.stop();
      await store.close();
      await sql.close();
    };
  });
  afterAll(async () => close());

  /** Runs `command`, waits for the read models, and checks the row and the listing against the stream. */
  async function step(command: AuctionCommand): Promise<void> {
    await handleAuctionCommand(handler, command);
    await runner.caughtUp();
    const { auctionId } = command.data;
    const stream = await store.readStream(auctionStreamId(auctionId));
    const events = stream.map((recorded) => asEngineEvent(recorded) as AuctionEvent);
    const expected = fold(auctionSummaryView, events);
    const row = await db.selectFrom('auctions').selectAll().where('id', '=', auctionId).executeTakeFirstOrThrow();
    const summary = auctionSummaryOf(row);
    expect(summary, command.type).toEqual(expected);
    expect(summary.version).toBe(events.length);
    expect(row.updated_at.toISOString()).toBe(events.at(-1)!.metadata.occurredAt);
    const listing = await db.selectFrom('listings').select(['auction_id', 'price', 'auction_ends_at']).where('id', '=', summary.listingId).executeTakeFirstOrThrow();
    expect([listing.auction_id, Number(listing.price), listing.auction_ends_at?.toISOString()]).toEqual([auctionId, summary.price, summary.endsAt]);
  }

  /** A listing row for the auction to mirror onto, as the listings projection would have written. */
  async function listingRow(): Promise<string> {
    const id = randomUUID();
    const now = new Date(STARTS_AT);
    await db
      .insertInto('listings')
      .values({
        id, slug: `lot-${id}`, owner_id: admin.userId, status: 'LIVE', title: 'Lot', description: '', category: 'CLOTHING', condition: 'GAME_WORN', sport_type: 'FOOTBALL',
        asking_price: 1, price: 1, tags: JSON.stringify([]), jersey: JSON.stringify(null), media_ids: JSON.stringify([]), nfc_uid: null, auction_id: null, auction_ends_at: null,
        player_name: null, team_or_club: null, league_or_event: null, date_or_season: null, size: null, search_text: '', created_at: now, updated_at: now,
      })
      .execute();
    return id;
  }

  const rules = (overrides: Partial<AuctionRules> = {}): AuctionRules => ({
    currency: 'USD',
    startingPrice: 10_000,
    incrementTable: EBAY_INCREMENTS,
    softClose: { windowSeconds: 300, latestEndsAt: at(120) },
    reservePrice: 15_000,
    buyNowPrice: 40_000,
    ...overrides,
  });
  const schedule = async (auctionId: string, overrides: Partial<AuctionRules> = {}) =>
    step({ type: 'ScheduleAuction', data: { auctionId, listingId: await listingRow(), sellerId: admin.userId, startsAt: at(0), endsAt: at(60), rules: rules(overrides) }, metadata: meta(admin, at(-10)) });
  const bid = (auctionId: string, bidder: string, amount: number, maximum: number | null, minute: number, bidId = `${bidder}-${amount}`): AuctionCommand => ({
    type: 'PlaceBid',
    data: { auctionId, bidId, amount, maximum },
    metadata: meta(buyer(bidder), at(minute)),
  });

  it('holds the summary through bids, a raise, a retraction, an extension and a close by time', async () => {
    const auctionId = randomUUID();
    await schedule(auctionId);
    await step({ type: 'OpenAuction', data: { auctionId }, metadata: meta(scheduler, at(0)) });
    await step(bid(auctionId, 'alice', 10_250, 20_000, 1)); // her maximum meets the reserve
    await step(bid(auctionId, 'alice', 15_250, 30_000, 2)); // a raise: private, the price stays
    await step(bid(auctionId, 'bob', 15_500, null, 3));
    await step(bid(auctionId, 'carol', 31_000, null, 4));
    await step({ type: 'RetractBid', data: { auctionId, bidId: 'carol-31000', reason: 'Bidder error' }, metadata: meta(admin, at(5)) });
    await step(bid(auctionId, 'bob', 35_000, null, 58)); // inside the soft-close window
    await step({ type: 'CloseAuction', data: { auctionId }, metadata: meta(scheduler, at(64)) });
    const row = await db.selectFrom('auctions').selectAll().where('id', '=', auctionId).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'ENDED', result: 'SOLD', winner_id: 'bob', closed_by: 'TIME', bid_count: 4, version: 10 });
  });

  it('holds it through a buy-now on a scheduled auction whose start has come', async () => {
    const auctionId = randomUUID();
    await schedule(auctionId, { reservePrice: null });
    await step({ type: 'BuyNow', data: { auctionId, bidId: 'dave-buys' }, metadata: meta(buyer('dave'), at(1)) });
    const row = await db.selectFrom('auctions').selectAll().where('id', '=', auctionId).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'ENDED', closed_by: 'BUY_NOW', winning_bid_id: 'dave-buys', buy_now_available: false, version: 3 });
    expect(Number(row.current_price)).toBe(40_000);
  });

  it('holds it through a cancellation', async () => {
    const auctionId = randomUUID();
    await schedule(auctionId);
    await step(bid(auctionId, 'erin', 11_000, null, 2));
    await step({ type: 'CancelAuction', data: { auctionId, reason: 'Provenance in doubt' }, metadata: meta(admin, at(3)) });
    const row = await db.selectFrom('auctions').selectAll().where('id', '=', auctionId).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'CANCELLED', cancellation_reason: 'Provenance in doubt', version: 4 });
  });
});

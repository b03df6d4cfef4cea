import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { handleAuctionCommand } from '../../engine/application/auction-commands';
import { CommandHandler, loadStream } from '../../engine/application/command-handler';
import { handleListingDraft } from '../../engine/application/listing-drafts';
import { handleListingPublication } from '../../engine/application/listing-publication';
import { handleTagBinding } from '../../engine/application/tag-binding';
import {
  auctionDecider,
  auctionRejectionsStreamId,
  auctionStreamId,
  DomainError,
  FLAT_ONE_DOLLAR,
  listingDecider,
  listingSlugStreamId,
  listingStreamId,
  nfcTagDecider,
  nfcTagStreamId,
  type Actor,
  type AuctionCommand,
  type CommandMetadata,
} from '../../engine/domain';
import { InMemoryEventStore } from '../../engine/eventstore/memory';
import type { EventStore } from '../../engine/eventstore/port';
import { PostgresEventStore } from '../../engine/eventstore/postgres/postgres-event-store';
import { PGliteClient } from '../../engine/postgres/sql-client';
import { createTestSchema, TEST_DATABASE_URL } from '../support/postgres';
import { listingDetails } from '../engine/fixtures';

const admin: Actor = { userId: 'admin-1', roles: ['ADMIN'] };
const buyer = (userId: string): Actor => ({ userId, roles: ['BUYER'] });
const NOW = '2026-12-03T12:00:00.000Z';
const meta = (actor: Actor, commandId = randomUUID()): CommandMetadata => ({ actor, now: NOW, correlationId: 'corr-1', commandId });

interface StoreUnderTest {
  name: string;
  open: () => Promise<{ store: EventStore; close: () => Promise<void> }>;
}

const stores: StoreUnderTest[] = [
  { name: 'in-memory', open: async () => { const store = new InMemoryEventStore(); return { store, close: () => store.close() }; } },
  {
    name: 'PGlite',
    open: async () => {
      const sql = await PGliteClient.open();
      const store = await PostgresEventStore.open(sql);
      return { store, close: async () => { await store.close(); await sql.close(); } };
    },
  },
];
const databaseUrl = TEST_DATABASE_URL;
if (databaseUrl) {
  stores.push({
    name: 'PostgreSQL',
    open: async () => {
      const schema = await createTestSchema(databaseUrl);
      const store = await PostgresEventStore.open(schema.client(), { channel: `events_${schema.schema}` });
      return { store, close: async () => { await store.close(); await schema.drop(); } };
    },
  });
}

describe.each(stores)('command handling on $name', ({ open }) => {
  let store: EventStore;
  let handler: CommandHandler;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ store, close } = await open());
    handler = new CommandHandler(store);
  });
  afterAll(async () => close());

  async function liveAuction(): Promise<string> {
    const auctionId = randomUUID();
    await handleAuctionCommand(handler, {
      type: 'ScheduleAuction',
      data: {
        auctionId,
        listingId: randomUUID(),
        sellerId: 'seller-1',
        startsAt: '2026-12-01T12:00:00.000Z',
        endsAt: '2026-12-08T12:00:00.000Z',
        rules: { currency: 'USD', startingPrice: 5_000, incrementTable: FLAT_ONE_DOLLAR, softClose: null, reservePrice: null, buyNowPrice: null },
      },
      metadata: meta(admin),
    });
    return auctionId;
  }

  const bid = (auctionId: string, bidderId: string, amount: number, commandId = randomUUID()): AuctionCommand => ({
    type: 'PlaceBid',
    data: { auctionId, bidId: randomUUID(), amount, maximum: null },
    metadata: meta(buyer(bidderId), commandId),
  });

  it('records the decided events with their metadata, durable in the stream', async () => {
    const auctionId = await liveAuction();
    const handled = await handleAuctionCommand(handler, bid(auctionId, 'buyer-1', 5_100));
    expect(handled.events.map((e) => e.type)).toEqual(['BidPlaced']);
    const stored = await store.readStream(auctionStreamId(auctionId));
    expect(stored.map((e) => e.type)).toEqual(['AuctionScheduled', 'AuctionOpened', 'BidPlaced']);
    expect(stored[2]!.metadata).toMatchObject({ actorId: 'buyer-1', actorRoles: ['BUYER'], correlationId: 'corr-1' });
    expect(handled.state.status === 'ACTIVE' && handled.state.standing.price).toBe(5_100);
  });

  it('answers a repeated command from the stream instead of deciding it again', async () => {
    const auctionId = await liveAuction();
    const command = bid(auctionId, 'buyer-1', 5_100);
    const first = await handleAuctionCommand(handler, command);
    const again = await handleAuctionCommand(handler, command);
    expect(again.repeated).toBe(true);
    expect(again.events).toEqual(first.events);
    expect((await store.readStream(auctionStreamId(auctionId))).filter((e) => e.type === 'BidPlaced')).toHaveLength(1);
  });

  it('records a refused bid, with its reason, beside the auction and not in it', async () => {
    const auctionId = await liveAuction();
    await handleAuctionCommand(handler, bid(auctionId, 'buyer-1', 6_000));
    await expect(handleAuctionCommand(handler, bid(auctionId, 'buyer-2', 5_500))).rejects.toMatchObject({
      code: 'BID_NOT_ABOVE_CURRENT_PRICE',
      message: 'Bid must be higher than current price of $60.00',
    });
    const rejections = await store.readStream(auctionRejectionsStreamId(auctionId));
    expect(rejections.map((e) => [e.type, e.data])).toEqual([
      [
        'BidRejected',
        expect.objectContaining({ bidderId: 'buyer-2', amount: 5_500, code: 'BID_NOT_ABOVE_CURRENT_PRICE', priceAtAttempt: 6_000 }),
      ],
    ]);
    expect((await store.readStream(auctionStreamId(auctionId))).map((e) => e.type)).not.toContain('BidRejected');
  });

  it.each([1, 2])('decides racing bids from %i process(es) one after another: each beat the price it saw, none is lost', async (processes) => {
    const auctionId = await liveAuction();
    // Separate handlers stand for separate API processes: they share only the store.
    const handlers = Array.from({ length: processes }, () => new CommandHandler(store));
    const attempts = Array.from({ length: 12 }, (_, i) => bid(auctionId, `buyer-${i % 4}`, 5_100 + (i + 1) * 100));
    const outcomes = await Promise.allSettled(attempts.map((command, i) => handleAuctionCommand(handlers[i % processes]!, command)));
    for (const outcome of outcomes) {
      if (outcome.status === 'rejected') expect(outcome.reason).toBeInstanceOf(DomainError);
    }
    const accepted = outcomes.filter((o) => o.status === 'fulfilled').length;
    const stored = await store.readStream(auctionStreamId(auctionId));
    const placed = stored.filter((e) => e.type === 'BidPlaced' || e.type === 'MaximumBidRaised');
    expect(placed).toHaveLength(accepted);
    let price = 5_000;
    for (const event of placed) {
      const data = event.data as { standing: { price: number } };
      expect(data.standing.price).toBeGreaterThanOrEqual(price);
      price = data.standing.price;
    }
    const { state } = await loadStream(store, auctionDecider, auctionStreamId(auctionId));
    expect(state.status === 'ACTIVE' && state.standing.price).toBe(price);
  });

  /** The store, counting reads and appends; each append's streams and event counts are kept. */
  function countingStore(options: { holdAppends?: Promise<void> } = {}) {
    const appends: Array<Array<[string, number]>> = [];
    let reads = 0;
    const counting: EventStore = {
      appendToStream: (streamId, events, appendOptions) => counting.appendToStreams([{ streamId, events, ...appendOptions }]).then(([result]) => result!),
      appendToStreams: async (requests) => {
        appends.push(requests.map((request) => [request.streamId, request.events.length]));
        await options.holdAppends;
        return store.appendToStreams(requests);
      },
      readStream: (streamId, readOptions) => {
        reads++;
        return store.readStream(streamId, readOptions);
      },
      readAll: (readOptions) => store.readAll(readOptions),
      queryLog: (query) => store.queryLog(query),
      subscribeToAll: (subscribeOptions, handler) => store.subscribeToAll(subscribeOptions, handler),
      headPosition: () => store.headPosition(),
      close: async () => undefined,
    };
    return { counting, appends, reads: () => reads };
  }

  it('writes the bids that queue while an append is in flight, and their refusals, in one append, each judged in order', async () => {
    const auctionId = await liveAuction();
    const { counting, appends } = countingStore();
    const batching = new CommandHandler(counting);
    const amounts = [5_100, 5_000, 5_300, 5_200, 5_400, 5_500, 5_500, 5_600];
    const outcomes = await Promise.allSettled(amounts.map((amount, i) => handleAuctionCommand(batching, bid(auctionId, `buyer-${i}`, amount))));
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'rejected', 'fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    // All eight arrived before the stream's turn came: decided together, the five accepted and the three refused in one append.
    expect(appends).toEqual([
      [
        [auctionStreamId(auctionId), 5],
        [auctionRejectionsStreamId(auctionId), 3],
      ],
    ]);
    const placed = (await store.readStream(auctionStreamId(auctionId))).filter((e) => e.type === 'BidPlaced');
    expect(placed.map((e) => (e.data as { amount: number }).amount)).toEqual([5_100, 5_300, 5_400, 5_500, 5_600]);
    const rejected = await store.readStream(auctionRejectionsStreamId(auctionId));
    expect(rejected.map((e) => (e.data as { amount: number }).amount)).toEqual([5_000, 5_200, 5_500]);
  });

  it('decides against its cached state without reading; refusals alone go with a check of the revision they were judged at', async () => {
    const auctionId = await liveAuction();
    const { counting, appends, reads } = countingStore();
    const batching = new CommandHandler(counting);
    const auction = auctionStreamId(auctionId);
    const rejections = auctionRejectionsStreamId(auctionId);
    await handleAuctionCommand(batching, bid(auctionId, 'buyer-1', 5_100));
    expect(reads()).toBe(1); // nothing cached yet: the stream is read once
    await handleAuctionCommand(batching, bid(auctionId, 'buyer-2', 5_200));
    expect(reads()).toBe(1); // the append's expected revision proves the cached state current
    // A refusal alone appends nothing to the auction: its record goes with a check that the
    // auction is still at the revision it was judged against, in one append, without a read.
    await expect(handleAuctionCommand(batching, bid(auctionId, 'buyer-4', 5_150))).rejects.toMatchObject({ code: 'BID_NOT_ABOVE_CURRENT_PRICE' });
    expect(reads()).toBe(1);
    expect(appends.at(-1)).toEqual([
      [auction, 0],
      [rejections, 1],
    ]);
    // Another process bids meanwhile: a bid refused against the cached 5,200 fails its check, the
    // stream is read, and the bid is judged again against 5,500 and refused with a check of the
    // new revision: the record says what the price really was.
    await handleAuctionCommand(new CommandHandler(store), bid(auctionId, 'buyer-3', 5_500));
    await expect(handleAuctionCommand(batching, bid(auctionId, 'buyer-1', 5_180))).rejects.toMatchObject({ code: 'BID_NOT_ABOVE_CURRENT_PRICE' });
    expect(reads()).toBe(2);
    expect(appends.slice(-2)).toEqual([
      [
        [auction, 0],
        [rejections, 1],
      ],
      [
        [auction, 0],
        [rejections, 1],
      ],
    ]);
    const recorded = await store.readStream(rejections);
    expect(recorded.map((rejection) => rejection.data)).toMatchObject([
      { amount: 5_150, priceAtAttempt: 5_200 },
      { amount: 5_180, priceAtAttempt: 5_500 },
    ]);
  });

  it('answers refused callers only once their refusals are durable', async () => {
    const auctionId = await liveAuction();
    await handleAuctionCommand(handler, bid(auctionId, 'buyer-1', 6_000));
    let release!: () => void;
    const { counting, appends } = countingStore({ holdAppends: new Promise<void>((resolve) => (release = resolve)) });
    const batching = new CommandHandler(counting);
    let answered = false;
    const refused = handleAuctionCommand(batching, bid(auctionId, 'buyer-2', 5_500)).then(
      () => expect.fail('the bid was accepted'),
      async (error: unknown) => {
        answered = true;
        return { error, recorded: await store.readStream(auctionRejectionsStreamId(auctionId)) };
      },
    );
    await vi.waitFor(() => expect(appends).toHaveLength(1));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(answered).toBe(false);
    release();
    const { error, recorded } = await refused;
    expect(error).toMatchObject({ code: 'BID_NOT_ABOVE_CURRENT_PRICE' });
    expect(recorded.map((e) => e.type)).toEqual(['BidRejected']);
  });

  it('sees what another process appended before deciding, and recognises a command it handled', async () => {
    const auctionId = await liveAuction();
    const processA = new CommandHandler(store);
    const processB = new CommandHandler(store);
    await handleAuctionCommand(processA, bid(auctionId, 'buyer-1', 5_100));
    const fromB = bid(auctionId, 'buyer-2', 5_500);
    await handleAuctionCommand(processB, fromB);
    // A's cached state is behind; it must catch up and refuse a bid that B's bid made too low.
    await expect(handleAuctionCommand(processA, bid(auctionId, 'buyer-3', 5_300))).rejects.toMatchObject({
      code: 'BID_NOT_ABOVE_CURRENT_PRICE',
    });
    // B's command retried through A (a client retrying on another instance) is not a second bid.
    const repeated = await handleAuctionCommand(processA, fromB);
    expect(repeated.repeated).toBe(true);
    const placed = (await store.readStream(auctionStreamId(auctionId))).filter((e) => e.type === 'BidPlaced');
    expect(placed).toHaveLength(2);
  });

  describe('binding tags', () => {
    async function savedListing(): Promise<string> {
      const listingId = randomUUID();
      const stream = listingStreamId(listingId);
      await handler.handle(listingDecider, stream, {
        type: 'DraftListing',
        data: { listingId, slug: `item-${listingId.slice(0, 8)}`, details: listingDetails, mediaIds: ['media-1'] },
        metadata: meta(admin),
      });
      await handler.handle(listingDecider, stream, { type: 'SaveListing', data: { listingId }, metadata: meta(admin) });
      return listingId;
    }

    async function provisionedTag(): Promise<string> {
      const uid = randomUUID().replace(/-/g, '').slice(0, 14);
      await handler.handle(nfcTagDecider, nfcTagStreamId(uid), {
        type: 'ProvisionNfcTag',
        data: { uid, claimCode: null },
        metadata: meta(admin),
      });
      return uid;
    }

    it('binds a tag to a listing on both streams at once', async () => {
      const [listingId, uid] = await Promise.all([savedListing(), provisionedTag()]);
      await handleTagBinding(handler, { type: 'BindTagToListing', data: { listingId, uid }, metadata: meta(admin) });
      const listing = await loadStream(store, listingDecider, listingStreamId(listingId));
      const tag = await loadStream(store, nfcTagDecider, nfcTagStreamId(uid));
      expect(listing.state).toMatchObject({ status: 'NFC_BOUND' });
      expect(tag.state).toMatchObject({ status: 'BOUND', listingId });
    });

    it('lets only one of two admins bind one tag to two listings at the same moment', async () => {
      const [first, second, uid] = await Promise.all([savedListing(), savedListing(), provisionedTag()]);
      const outcomes = await Promise.allSettled(
        [first, second].map((listingId) => handleTagBinding(handler, { type: 'BindTagToListing', data: { listingId, uid }, metadata: meta(admin) })),
      );
      expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
      const refused = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected')!;
      expect(refused.reason).toMatchObject({ code: 'NFC_TAG_ALREADY_BOUND' });
      const states = await Promise.all([first, second].map((id) => loadStream(store, listingDecider, listingStreamId(id))));
      expect(states.filter((s) => s.state.status === 'NFC_BOUND')).toHaveLength(1);
    });

    it('lets only one of two tags be bound to one listing at the same moment', async () => {
      const [listingId, tagA, tagB] = await Promise.all([savedListing(), provisionedTag(), provisionedTag()]);
      const outcomes = await Promise.allSettled(
        [tagA, tagB].map((uid) => handleTagBinding(handler, { type: 'BindTagToListing', data: { listingId, uid }, metadata: meta(admin) })),
      );
      expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
      const refused = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected')!;
      expect(refused.reason).toMatchObject({ code: 'LISTING_ALREADY_HAS_TAG' });
      const tags = await Promise.all([tagA, tagB].map((uid) => loadStream(store, nfcTagDecider, nfcTagStreamId(uid))));
      expect(tags.filter((t) => t.state.status === 'BOUND')).toHaveLength(1);
    });

    it('unbinds both sides, with the reason on record', async () => {
      const [listingId, uid] = await Promise.all([savedListing(), provisionedTag()]);
      await handleTagBinding(handler, { type: 'BindTagToListing', data: { listingId, uid }, metadata: meta(admin) });
      await handleTagBinding(handler, { type: 'UnbindTagFromListing', data: { listingId, reason: 'Tag damaged' }, metadata: meta(admin) });
      const tagEvents = await store.readStream(nfcTagStreamId(uid));
      expect(tagEvents.at(-1)).toMatchObject({ type: 'NfcTagUnbound', data: { listingId, reason: 'Tag damaged' } });
      const listing = await loadStream(store, listingDecider, listingStreamId(listingId));
      expect(listing.state).toMatchObject({ status: 'SAVED', nfcUid: null });
    });
  });

  describe('listing drafts and publication (multi-stream use cases)', () => {
    const draft = (listingId: string, slug: string, save = true) => ({
      type: 'DraftListing' as const,
      data: { listingId, slug, details: listingDetails, mediaIds: ['media-1'], save },
      metadata: meta(admin),
    });

    it('gives listings drafted at the same moment by two processes with one slug each a different slug', async () => {
      const otherProcess = new CommandHandler(store);
      const base = `jersey-${randomUUID().slice(0, 8)}`;
      const drafted = await Promise.all(
        Array.from({ length: 6 }, (_, n) => handleListingDraft(n % 2 === 0 ? handler : otherProcess, draft(randomUUID(), base))),
      );
      const slugs = drafted.map((outcome) => outcome.slug).sort();
      expect(slugs).toEqual([base, `${base}-2`, `${base}-3`, `${base}-4`, `${base}-5`, `${base}-6`]);
      for (const slug of slugs) expect(await store.readStream(listingSlugStreamId(slug))).toHaveLength(1);
    });

    it('leaves nothing behind when the tag bound in the same step is refused', async () => {
      const listingId = randomUUID();
      const slug = `refused-${listingId.slice(0, 8)}`;
      await expect(handleListingDraft(handler, draft(listingId, slug), { bindTag: '04:00:00:00:00:00:99' })).rejects.toMatchObject({ code: 'NFC_TAG_NOT_FOUND' });
      expect(await store.readStream(listingStreamId(listingId))).toEqual([]);
      expect(await store.readStream(listingSlugStreamId(slug))).toEqual([]);
    });

    async function boundListing(): Promise<string> {
      const listingId = randomUUID();
      const uid = randomUUID().replace(/-/g, '').slice(0, 14);
      await handler.handle(nfcTagDecider, nfcTagStreamId(uid), { type: 'ProvisionNfcTag', data: { uid, claimCode: null }, metadata: meta(admin) });
      await handleListingDraft(handler, draft(listingId, `bound-${listingId.slice(0, 8)}`), { bindTag: uid });
      return listingId;
    }
    const publish = (listingId: string, auctionId: string, commandId = randomUUID(), endsAt = '2026-12-10T12:00:00.000Z') => ({
      type: 'PublishListingAtAuction' as const,
      data: {
        listingId,
        auctionId,
        startsAt: NOW,
        endsAt,
        rules: { currency: 'USD' as const, startingPrice: 5_000, incrementTable: FLAT_ONE_DOLLAR, softClose: null, reservePrice: null, buyNowPrice: null },
      },
      metadata: meta(admin, commandId),
    });

    it('publishes the listing and schedules its auction together; the same command again is refused and writes nothing', async () => {
      const listingId = await boundListing();
      const auctionId = randomUUID();
      const commandId = randomUUID();
      await handleListingPublication(handler, publish(listingId, auctionId, commandId));
      await expect(handleListingPublication(new CommandHandler(store), publish(listingId, auctionId, commandId))).rejects.toMatchObject({ code: 'LISTING_ALREADY_PUBLISHED' });
      expect((await store.readStream(listingStreamId(listingId))).map((event) => event.type)).toEqual(['ListingDrafted', 'ListingSaved', 'ListingTagBound', 'ListingPublished']);
      expect((await store.readStream(auctionStreamId(auctionId))).map((event) => event.type)).toEqual(['AuctionScheduled', 'AuctionOpened']);
    });

    it('writes neither stream when the auction refuses its rules', async () => {
      const listingId = await boundListing();
      const auctionId = randomUUID();
      await expect(handleListingPublication(handler, publish(listingId, auctionId, randomUUID(), NOW))).rejects.toMatchObject({ code: 'INVALID_SCHEDULE' });
      expect((await store.readStream(listingStreamId(listingId))).at(-1)!.type).toBe('ListingTagBound');
      expect(await store.readStream(auctionStreamId(auctionId))).toEqual([]);
    });

    it('lets only one of two processes publish one listing at the same moment: one auction, not two', async () => {
      const listingId = await boundListing();
      const auctions = [randomUUID(), randomUUID()];
      const outcomes = await Promise.allSettled([
        handleListingPublication(handler, publish(listingId, auctions[0]!)),
        handleListingPublication(new CommandHandler(store), publish(listingId, auctions[1]!)),
      ]);
      expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
      expect(outcomes.find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected')!.reason).toMatchObject({ code: 'LISTING_ALREADY_PUBLISHED' });
      const scheduled = await Promise.all(auctions.map((auctionId) => store.readStream(auctionStreamId(auctionId))));
      expect(scheduled.filter((events) => events.length > 0)).toHaveLength(1);
    });

    it('withdraws a live listing and cancels its auction in one step', async () => {
      const listingId = await boundListing();
      const auctionId = randomUUID();
      await handleListingPublication(handler, publish(listingId, auctionId));
      const outcome = await handleListingPublication(handler, {
        type: 'WithdrawListingFromSale',
        data: { listingId, reason: 'Consignor withdrew the item' },
        metadata: meta(admin),
      });
      expect(outcome.auctionId).toBe(auctionId);
      expect((await store.readStream(auctionStreamId(auctionId))).at(-1)).toMatchObject({ type: 'AuctionCancelled', data: { reason: 'Consignor withdrew the item' } });
      expect((await store.readStream(listingStreamId(listingId))).at(-1)).toMatchObject({ type: 'ListingWithdrawn' });
    });
  });
});

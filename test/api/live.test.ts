import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { buildApp } from '../../api/app';
import type { AppDependencies } from '../../api/dependencies';
import { presentAuction } from '../../api/listings/presenters';
import { findAuction } from '../../api/listings/queries';
import { LiveHub, SOCKETS_PER_TURN, type LiveHubOptions } from '../../api/live/hub';
import { serverMessageSchema } from '../../api/contracts/live';
import { handleAuctionCommand } from '../../engine/application/auction-commands';
import { FLAT_ONE_DOLLAR, type Actor, type AuctionCommand, type AuctionRules, type CommandMetadata } from '../../engine/domain';
import { API_BACKENDS, startTestApi, type TestApi } from '../support/api';
import { foreignEvent } from '../support/log-shapes';

// ---- fixture: auctions and bids straight through the engine ------------------------------------

const ADMIN: Actor = { userId: 'admin-live', roles: ['ADMIN'] };
const HOUR = 3_600_000;

function metadata(actor: Actor, now: Date): CommandMetadata {
  return { actor, now: now.toISOString(), correlationId: randomUUID(), commandId: randomUUID() };
}

function buyer(userId: string): Actor {
  return { userId, roles: ['BUYER'] };
}

interface Scheduled {
  readonly auctionId: string;
  readonly startsAt: Date;
  readonly endsAt: Date;
}

/** An auction of $50.00 with $1 steps, running from an hour ago until tomorrow unless told otherwise. */
interface ScheduleOptions {
  readonly auctionId?: string;
  readonly rules?: Partial<AuctionRules>;
  readonly startsAt?: Date;
  readonly endsAt?: Date;
}

async function scheduleAuction(deps: AppDependencies, options: ScheduleOptions = {}): Promise<Scheduled> {
  const auctionId = options.auctionId ?? `auction-${randomUUID()}`;
  const now = new Date();
  const startsAt = options.startsAt ?? new Date(now.getTime() - HOUR);
  const endsAt = options.endsAt ?? new Date(now.getTime() + 24 * HOUR);
  const rules: AuctionRules = { currency: 'USD', startingPrice: 5_000, incrementTable: FLAT_ONE_DOLLAR, softClose: null, reservePrice: null, buyNowPrice: null, ...options.rules };
  await handleAuctionCommand(deps.commands, {
    type: 'ScheduleAuction',
    data: { auctionId, listingId: `listing-${auctionId}`, sellerId: ADMIN.userId, startsAt: startsAt.toISOString(), endsAt: endsAt.toISOString(), rules },
    metadata: metadata(ADMIN, now),
  });
  return { auctionId, startsAt, endsAt };
}

async function placeBid(deps: AppDependencies, auctionId: string, bidderId: string, amount: number, options: { maximum?: number; at?: Date } = {}) {
  const bidId = `bid-${randomUUID()}`;
  const command: AuctionCommand = {
    type: 'PlaceBid',
    data: { auctionId, bidId, amount, maximum: options.maximum ?? null },
    metadata: metadata(buyer(bidderId), options.at ?? new Date()),
  };
  await handleAuctionCommand(deps.commands, command);
  return { bidId, placedAt: command.metadata.now };
}

function command(deps: AppDependencies, type: 'OpenAuction' | 'CloseAuction', auctionId: string, at: Date) {
  return handleAuctionCommand(deps.commands, { type, data: { auctionId }, metadata: metadata({ userId: 'lifecycle', roles: ['SYSTEM'] }, at) });
}

// ---- a real WebSocket client --------------------------------------------------------------------

interface Closed {
  readonly code: number;
  readonly reason: string;
}

class LiveClient {
  readonly #queue: any[] = [];
  readonly #waiters: Array<(message: any) => void> = [];
  readonly closed: Promise<Closed>;

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data) => {
      const message = JSON.parse(data.toString());
      const waiter = this.#waiters.shift();
      if (waiter) waiter(message);
      else this.#queue.push(message);
    });
    this.closed = new Promise((resolve) => socket.on('close', (code, reason) => resolve({ code, reason: reason.toString() })));
  }

  static async open(baseUrl: string): Promise<LiveClient> {
    const socket = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}/ws/bidding`);
    const client = new LiveClient(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    return client;
  }

  send(message: unknown): void {
    this.socket.send(typeof message === 'string' ? message : JSON.stringify(message));
  }

  /** The next message the server sent, in order; each must match the published message schema. */
  async next(): Promise<any> {
    const queued = this.#queue.shift();
    const message = queued !== undefined ? queued : await new Promise((resolve) => this.#waiters.push(resolve));
    serverMessageSchema.parse(message);
    return message;
  }

  async subscribe(auctionId: string): Promise<void> {
    this.send({ action: 'subscribe', auctionId });
    expect(await this.next()).toEqual({ type: 'subscribed', auctionId });
  }

  /** Messages received so far and not yet read. */
  get pending(): number {
    return this.#queue.length;
  }

  close(): void {
    this.socket.close(1000);
  }
}

/**
 * Subscribes `clients` to an auction, then schedules it. Subscribing first makes what they receive
 * certain: the opening that scheduling an already-started auction decides, which is read here.
 * (Subscribing after scheduling would race the hub, which may or may not have announced it yet.)
 */
async function watchNewAuction(deps: AppDependencies, clients: LiveClient[], options: ScheduleOptions = {}): Promise<Scheduled> {
  const auctionId = `auction-${randomUUID()}`;
  for (const client of clients) await client.subscribe(auctionId);
  const scheduled = await scheduleAuction(deps, { ...options, auctionId });
  if (scheduled.startsAt.getTime() <= Date.now()) {
    for (const client of clients) {
      expect(await client.next()).toEqual({ type: 'auction_opened', auctionId, auction: expect.objectContaining({ auctionId, status: 'ACTIVE', version: 2 }) });
    }
  }
  return scheduled;
}

async function waitFor(condition: () => boolean | Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** An app of its own on the test API's storage, with a hub whose limits a test chooses. */
async function startAppWithHub(api: TestApi, options: LiveHubOptions) {
  const hub = new LiveHub(api.deps.eventStore, options);
  await hub.start();
  const app = await buildApp({ ...api.deps, live: hub, logLevel: 'silent' });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    hub,
    url,
    async close() {
      await app.close();
      await hub.stop();
    },
  };
}

describe.each(API_BACKENDS)('live bidding over /ws/bidding on %s', (backend) => {
  let api: TestApi;
  const clients: LiveClient[] = [];
  const connect = async (url = api.url) => {
    const client = await LiveClient.open(url);
    clients.push(client);
    return client;
  };

  beforeAll(async () => {
    api = await startTestApi(backend);
  });
  afterAll(async () => {
    for (const client of clients) client.close();
    await api.close();
  });

  it('sends a subscriber bid_placed with the spec fields, money in dollars', async () => {
    const client = await connect();
    const { auctionId, endsAt } = await watchNewAuction(api.deps, [client]);

    const { bidId, placedAt } = await placeBid(api.deps, auctionId, 'buyer-ann', 5_100);

    expect(await client.next()).toEqual({
      type: 'bid_placed',
      auctionId,
      auctionData: { currentPrice: 51, currentLeaderId: 'buyer-ann', status: 'ACTIVE', endsAt: endsAt.toISOString(), minimumBid: 52 },
      auction: expect.objectContaining({ currentPrice: 51, currentLeaderId: 'buyer-ann', minimumBid: 52, bidCount: 1, version: 3 }),
      bidData: { bidId, bidderId: 'buyer-ann', amount: 51, placedAt, status: 'ACCEPTED', kind: 'BID' },
    });
  });

  it('carries the auction as the read model presents it, its version rising with every event', async () => {
    const client = await connect();
    const { auctionId } = await watchNewAuction(api.deps, [client]);
    await placeBid(api.deps, auctionId, 'buyer-ann', 5_100);
    const first = await client.next();
    await placeBid(api.deps, auctionId, 'buyer-bob', 5_500);
    const second = await client.next();
    if (first.type !== 'bid_placed' || second.type !== 'bid_placed') throw new Error('expected two bid_placed');
    expect(second.auction.version).toBe(first.auction.version + 1);

    // The same presenter over the same fold: once the read model has the event, both answers agree.
    await waitFor(async () => (await findAuction(api.deps.db, auctionId))?.version === second.auction.version, 'the read model');
    const row = await findAuction(api.deps.db, auctionId);
    expect(presentAuction(row!, new Date())).toEqual(second.auction);
    expect(second.auction).toMatchObject({ currentPrice: 55, currentLeaderId: 'buyer-bob', minimumBid: 56, bidCount: 2 });
  });

  it('sends each automatic (proxy) bid as a bid_placed of its own, after the bid it answers', async () => {
    const client = await connect();
    const { auctionId } = await watchNewAuction(api.deps, [client]);

    const first = await placeBid(api.deps, auctionId, 'buyer-ann', 5_100, { maximum: 8_000 });
    expect((await client.next()).bidData).toMatchObject({ bidId: first.bidId, bidderId: 'buyer-ann', amount: 51, kind: 'BID' });

    // Bob bids $60; Ann's proxy answers at $61 and keeps the lead.
    const second = await placeBid(api.deps, auctionId, 'buyer-bob', 6_000);
    const bobs = await client.next();
    const answer = await client.next();
    expect(bobs).toMatchObject({
      type: 'bid_placed',
      auctionData: { currentPrice: 61, currentLeaderId: 'buyer-ann', minimumBid: 62 },
      bidData: { bidId: second.bidId, bidderId: 'buyer-bob', amount: 60, kind: 'BID', status: 'ACCEPTED' },
    });
    expect(answer).toMatchObject({
      type: 'bid_placed',
      auctionData: { currentPrice: 61, currentLeaderId: 'buyer-ann', minimumBid: 62 },
      bidData: { bidId: `${second.bidId}/auto/1`, bidderId: 'buyer-ann', amount: 61, kind: 'AUTO', placedAt: second.placedAt },
    });
  });

  it('keeps a raised maximum private, but announces the price a met reserve forces', async () => {
    const client = await connect();
    const { auctionId } = await watchNewAuction(api.deps, [client], { rules: { reservePrice: 10_000 } });

    await placeBid(api.deps, auctionId, 'buyer-ann', 5_100, { maximum: 6_000 });
    expect((await client.next()).auctionData.currentPrice).toBe(51);

    // Still under the reserve: only Ann knows her new maximum.
    await placeBid(api.deps, auctionId, 'buyer-ann', 5_200, { maximum: 9_000 });
    // Now over it: the price jumps to the reserve, which everyone sees.
    const raise = await placeBid(api.deps, auctionId, 'buyer-ann', 5_200, { maximum: 12_000 });

    expect(await client.next()).toMatchObject({
      type: 'bid_placed',
      auctionData: { currentPrice: 100, currentLeaderId: 'buyer-ann', minimumBid: 101 },
      bidData: { bidId: `${raise.bidId}/auto/1`, bidderId: 'buyer-ann', amount: 100, kind: 'AUTO' },
    });
  });

  it('sends every message to more watchers than it writes to in one turn, in order on each socket', async () => {
    const watchers = await Promise.all(Array.from({ length: SOCKETS_PER_TURN + 10 }, () => connect()));
    const { auctionId } = await watchNewAuction(api.deps, watchers);
    const first = await placeBid(api.deps, auctionId, 'buyer-ann', 5_100, { maximum: 8_000 });
    // One event, two messages: Bob's bid, then Ann's automatic answer.
    const second = await placeBid(api.deps, auctionId, 'buyer-bob', 6_000);
    const third = await placeBid(api.deps, auctionId, 'buyer-bob', 9_000);
    for (const watcher of watchers) {
      const received = [await watcher.next(), await watcher.next(), await watcher.next(), await watcher.next()];
      expect(received.map((message) => message.bidData.bidId)).toEqual([first.bidId, second.bidId, `${second.bidId}/auto/1`, third.bidId]);
    }
    for (const watcher of watchers) watcher.close();
  });

  it('sends nothing about auctions a socket has not subscribed to', async () => {
    const client = await connect();
    const watched = await watchNewAuction(api.deps, [client]);
    const other = await scheduleAuction(api.deps);

    await placeBid(api.deps, other.auctionId, 'buyer-ann', 5_100);
    const { bidId } = await placeBid(api.deps, watched.auctionId, 'buyer-bob', 5_100);

    // Messages arrive in log order: had the first bid been sent, it would come first.
    expect((await client.next()).bidData.bidId).toBe(bidId);
  });

  it("keeps announcing after another writer's events in the log: in a stream of its own, or of a foreign type in an auction's", async () => {
    const client = await connect();
    const { auctionId } = await watchNewAuction(api.deps, [client]);
    await api.deps.eventStore.appendToStream(`inventory-${randomUUID()}`, [foreignEvent()], { expectedRevision: 'any' });
    await api.deps.eventStore.appendToStream(`auction-${randomUUID()}`, [{ ...foreignEvent(), type: 'BidPlaced', metadata: null }], { expectedRevision: 'any' });
    const { bidId } = await placeBid(api.deps, auctionId, 'buyer-ann', 5_100);
    expect(await client.next()).toMatchObject({ type: 'bid_placed', auctionId, bidData: { bidId, amount: 51 } });
  });

  it('stops sending an auction after unsubscribe', async () => {
    const client = await connect();
    const left = await watchNewAuction(api.deps, [client]);
    const kept = await watchNewAuction(api.deps, [client]);
    client.send({ action: 'unsubscribe', auctionId: left.auctionId });
    expect(await client.next()).toEqual({ type: 'unsubscribed', auctionId: left.auctionId });

    await placeBid(api.deps, left.auctionId, 'buyer-ann', 5_100);
    const { bidId } = await placeBid(api.deps, kept.auctionId, 'buyer-ann', 5_100);

    expect((await client.next()).bidData.bidId).toBe(bidId);
  });

  it('announces the opening, a soft-close extension and the close', async () => {
    const startsAt = new Date(Date.now() + HOUR);
    const endsAt = new Date(Date.now() + 2 * HOUR);
    const client = await connect();
    const { auctionId } = await watchNewAuction(api.deps, [client], {
      startsAt,
      endsAt,
      rules: { softClose: { windowSeconds: 600, latestEndsAt: new Date(endsAt.getTime() + HOUR).toISOString() } },
    });

    await command(api.deps, 'OpenAuction', auctionId, startsAt);
    expect(await client.next()).toEqual({ type: 'auction_opened', auctionId, auction: expect.objectContaining({ status: 'ACTIVE', version: 2 }) });

    // A bid a minute before the end moves the end to ten minutes after the bid.
    const late = new Date(endsAt.getTime() - 60_000);
    const extendedTo = new Date(late.getTime() + 600_000).toISOString();
    const { bidId } = await placeBid(api.deps, auctionId, 'buyer-ann', 5_100, { at: late });
    expect(await client.next()).toMatchObject({ type: 'bid_placed', auctionData: { endsAt: extendedTo }, bidData: { bidId } });
    expect(await client.next()).toEqual({
      type: 'auction_extended',
      auctionId,
      endsAt: extendedTo,
      previousEndsAt: endsAt.toISOString(),
      auction: expect.objectContaining({ endsAt: extendedTo }),
    });

    const closedAt = new Date(Date.parse(extendedTo) + 1_000);
    await command(api.deps, 'CloseAuction', auctionId, closedAt);
    expect(await client.next()).toEqual({
      type: 'auction_closed',
      auctionId,
      result: 'SOLD',
      winnerId: 'buyer-ann',
      finalPrice: 51,
      closedAt: closedAt.toISOString(),
      auction: expect.objectContaining({ status: 'ENDED', result: 'SOLD', winnerId: 'buyer-ann', finalPrice: 51, isActive: false }),
    });
  });

  it('announces a close without a sale, a cancellation and a retracted bid', async () => {
    const client = await connect();
    const unsold = await watchNewAuction(api.deps, [client]);
    const cancelled = await watchNewAuction(api.deps, [client]);
    const retracted = await watchNewAuction(api.deps, [client]);

    await command(api.deps, 'CloseAuction', unsold.auctionId, new Date(unsold.endsAt.getTime() + 1));
    expect(await client.next()).toMatchObject({ type: 'auction_closed', auctionId: unsold.auctionId, result: 'NO_BIDS', winnerId: null, finalPrice: null });

    await handleAuctionCommand(api.deps.commands, {
      type: 'CancelAuction',
      data: { auctionId: cancelled.auctionId, reason: 'Item failed authentication' },
      metadata: metadata(ADMIN, new Date()),
    });
    expect(await client.next()).toEqual({
      type: 'auction_cancelled',
      auctionId: cancelled.auctionId,
      reason: 'Item failed authentication',
      auction: expect.objectContaining({ status: 'CANCELLED', isActive: false }),
    });

    await placeBid(api.deps, retracted.auctionId, 'buyer-ann', 5_100);
    const { bidId } = await placeBid(api.deps, retracted.auctionId, 'buyer-bob', 5_500);
    await client.next();
    await client.next();
    await handleAuctionCommand(api.deps.commands, {
      type: 'RetractBid',
      data: { auctionId: retracted.auctionId, bidId, reason: 'Bidder entered the wrong amount' },
      metadata: metadata(ADMIN, new Date()),
    });
    expect(await client.next()).toEqual({
      type: 'bid_retracted',
      auctionId: retracted.auctionId,
      bidId,
      auctionData: { currentPrice: 51, currentLeaderId: 'buyer-ann', status: 'ACTIVE', minimumBid: 52 },
      auction: expect.objectContaining({ currentPrice: 51, currentLeaderId: 'buyer-ann', bidCount: 2 }),
    });
  });

  it('answers a malformed message with an error and keeps the socket working', async () => {
    const client = await connect();
    client.send('this is not JSON');
    expect(await client.next()).toEqual({ type: 'error', message: 'Message is not valid JSON' });
    client.send({ action: 'dance', auctionId: 'a-1' });
    expect(await client.next()).toMatchObject({ type: 'error', message: expect.stringContaining('subscribe') });
    client.send({ action: 'subscribe', auctionId: '' });
    expect(await client.next()).toMatchObject({ type: 'error' });
    client.send({ action: 'subscribe', auctionId: 'x'.repeat(201) });
    expect(await client.next()).toMatchObject({ type: 'error' });
    client.send(Buffer.from('{"action":"subscribe","auctionId":"a-1"}'));
    expect(await client.next()).toMatchObject({ type: 'error' });

    const { auctionId } = await watchNewAuction(api.deps, [client]);
    const { bidId } = await placeBid(api.deps, auctionId, 'buyer-ann', 5_100);
    expect((await client.next()).bidData.bidId).toBe(bidId);
  });

  it('refuses a 51st subscription on one socket', async () => {
    const client = await connect();
    for (let index = 0; index < 50; index++) await client.subscribe(`auction-many-${index}`);
    client.send({ action: 'subscribe', auctionId: 'auction-many-50' });
    expect(await client.next()).toEqual({ type: 'error', message: 'Too many subscriptions' });
    // Subscribing again to one it has is no new subscription; unsubscribing frees a place.
    await client.subscribe('auction-many-0');
    client.send({ action: 'unsubscribe', auctionId: 'auction-many-1' });
    expect(await client.next()).toEqual({ type: 'unsubscribed', auctionId: 'auction-many-1' });
    await client.subscribe('auction-many-50');
  });

  it('closes a socket that sends an oversized message (1009) without disturbing the others', async () => {
    const bystander = await connect();
    const { auctionId } = await watchNewAuction(api.deps, [bystander]);
    const offender = await connect();

    offender.send({ action: 'subscribe', auctionId: 'x'.repeat(2_000) });
    expect((await offender.closed).code).toBe(1009);

    const { bidId } = await placeBid(api.deps, auctionId, 'buyer-ann', 5_100);
    expect((await bystander.next()).bidData.bidId).toBe(bidId);
  });

  it('delivers a bid decided by one API process to the sockets of another', async () => {
    const { auctionId } = await scheduleAuction(api.deps);
    const other = await startTestApi(backend, { sharing: api });
    try {
      const client = await connect(other.url);
      await client.subscribe(auctionId);

      const { bidId } = await placeBid(api.deps, auctionId, 'buyer-ann', 5_100);

      // The other process started after the auction was scheduled, so it normally reads the rules
      // from the auction's stream. (Had an open transaction held the scheduling back when its
      // subscription began, it may announce the opening first.)
      let message = await client.next();
      if (message.type === 'auction_opened') message = await client.next();
      expect(message).toMatchObject({
        type: 'bid_placed',
        auctionId,
        auctionData: { currentPrice: 51, currentLeaderId: 'buyer-ann', status: 'ACTIVE', minimumBid: 52 },
        bidData: { bidId, bidderId: 'buyer-ann', amount: 51, kind: 'BID' },
      });
    } finally {
      await other.close();
    }
  });

  it('turns away connections beyond its limit with 1013', async () => {
    const server = await startAppWithHub(api, { maxConnections: 1 });
    try {
      const first = await LiveClient.open(server.url);
      const second = await LiveClient.open(server.url);
      expect(await second.closed).toEqual({ code: 1013, reason: 'Too many connections' });
      await first.subscribe('auction-still-served');
      first.close();
    } finally {
      await server.close();
    }
  });

  it('terminates a socket that stops answering pings', async () => {
    const server = await startAppWithHub(api, { pingIntervalMs: 20 });
    try {
      const silent = await LiveClient.open(server.url);
      const lively = await LiveClient.open(server.url);
      await waitFor(() => server.hub.stats().connections === 2, 'both connections');
      // A client whose process hangs: it reads nothing, so it never answers a ping.
      (silent.socket as unknown as { _socket: { pause(): void } })._socket.pause();

      await waitFor(() => server.hub.stats().connections === 1, 'the silent socket to be terminated');
      await lively.subscribe('auction-still-served');
      lively.close();
      silent.socket.terminate();
    } finally {
      await server.close();
    }
  });

  it('closes a socket that does not read what it is sent (1013 "Too slow") before its backlog grows', async () => {
    const server = await startAppWithHub(api, { maxBufferedBytes: 64 * 1024 });
    try {
      const reader = await LiveClient.open(server.url);
      const stalled = await LiveClient.open(server.url);
      const socket = (stalled.socket as unknown as { _socket: { pause(): void; resume(): void } })._socket;
      socket.pause();
      // It keeps asking (each answer is ~250 bytes) but reads none of the answers.
      const auctionId = 'y'.repeat(200);
      for (let sent = 0; server.hub.stats().closedAsTooSlow === 0; sent += 1_000) {
        if (sent > 400_000) throw new Error('the stalled socket was never closed');
        for (let index = 0; index < 500; index++) {
          stalled.send({ action: 'subscribe', auctionId });
          stalled.send({ action: 'unsubscribe', auctionId });
        }
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      socket.resume();
      expect(await stalled.closed).toEqual({ code: 1013, reason: 'Too slow' });
      await reader.subscribe('auction-still-served');
      reader.close();
    } finally {
      await server.close();
    }
  });

  it('says 1001 (going away) to its sockets when the server shuts down', async () => {
    const server = await startAppWithHub(api, {});
    const client = await LiveClient.open(server.url);
    await client.subscribe('auction-at-shutdown');
    await server.close();
    expect(await client.closed).toEqual({ code: 1001, reason: 'Server shutting down' });
  });
});

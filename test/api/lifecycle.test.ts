import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppDependencies } from '../../api/dependencies';
import { handleAuctionCommand } from '../../engine/application/auction-commands';
import {
  auctionStreamId,
  listingStreamId,
  type Actor,
  type AuctionRules,
  type CommandMetadata,
} from '../../engine/domain';
import { API_BACKENDS, startTestApi, type TestApi } from '../support/api';
import { createMarketplaceListing } from '../support/marketplace';

// ---- a clock the tests move ---------------------------------------------------------------------

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
let now = new Date('2031-03-01T12:00:00.000Z');
const clock = () => now;
/** Time only moves forward: every API in this file shares the clock, and their workers with it. */
function moveClockTo(instant: Date): void {
  if (instant.getTime() > now.getTime()) now = instant;
}

// ---- fixture: a published listing and its auction, straight through the engine ------------------

const ADMIN: Actor = { userId: 'admin-lifecycle', roles: ['ADMIN'] };

function metadata(actor: Actor, at: Date = now): CommandMetadata {
  return { actor, now: at.toISOString(), correlationId: randomUUID(), commandId: randomUUID() };
}

interface Lot {
  readonly auctionId: string;
  readonly listingId: string;
  readonly startsAt: Date;
  readonly endsAt: Date;
}

/** A published listing with its auction, made by the shared fixture: from `startsAt` (default: now) for an hour. */
async function publishLot(api: TestApi, options: { startsAt?: Date; endsAt?: Date; rules?: Partial<AuctionRules> } = {}): Promise<Lot> {
  const startsAt = options.startsAt ?? now;
  const endsAt = options.endsAt ?? new Date(startsAt.getTime() + HOUR);
  const listing = await createMarketplaceListing(api, { seller: ADMIN, decidedAt: now, startsAt, endsAt, ...(options.rules ? { rules: options.rules } : {}) });
  return { auctionId: listing.auctionId!, listingId: listing.listingId, startsAt, endsAt };
}

function placeBid(deps: AppDependencies, auctionId: string, bidderId: string, amount: number, options: { maximum?: number } = {}) {
  return handleAuctionCommand(deps.commands, {
    type: 'PlaceBid',
    data: { auctionId, bidId: `bid-${randomUUID()}`, amount, maximum: options.maximum ?? null },
    metadata: metadata({ userId: bidderId, roles: ['BUYER'] }),
  });
}

async function eventsOf(api: TestApi, streamId: string) {
  return (await api.deps.eventStore.readStream(streamId)).map(({ type, data, metadata }) => ({ type, data: data as any, metadata: metadata as any }));
}

async function auctionRow(api: TestApi, auctionId: string) {
  return api.deps.db.selectFrom('auctions').selectAll().where('id', '=', auctionId).executeTakeFirstOrThrow();
}

async function listingStatus(api: TestApi, listingId: string) {
  return (await api.deps.db.selectFrom('listings').select('status').where('id', '=', listingId).executeTakeFirstOrThrow()).status;
}

/**
 * A full round of the worker that sees everything decided so far: the read models first catch up
 * with the log, then the round runs (after any round the worker's own loop has under way).
 */
async function round(api: TestApi) {
  await api.deps.projections.caughtUp();
  const report = await api.deps.lifecycle!.runOnce();
  await api.deps.projections.caughtUp();
  return report;
}

async function waitFor(condition: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe.each(API_BACKENDS)('the auction lifecycle worker on %s', (backend) => {
  let api: TestApi;

  beforeAll(async () => {
    api = await startTestApi(backend, { clock });
  });
  afterAll(async () => api.close());

  it('opens a pending auction once its start has come, not before', async () => {
    const lot = await publishLot(api, { startsAt: new Date(now.getTime() + 10 * MINUTE) });
    await round(api);
    expect((await auctionRow(api, lot.auctionId)).status).toBe('PENDING');

    moveClockTo(new Date(lot.startsAt.getTime() + 1_000));
    await round(api);

    expect((await auctionRow(api, lot.auctionId)).status).toBe('ACTIVE');
    const opened = (await eventsOf(api, auctionStreamId(lot.auctionId))).filter((event) => event.type === 'AuctionOpened');
    expect(opened).toHaveLength(1);
    expect(opened[0]!.metadata).toMatchObject({ actorId: 'lifecycle', actorRoles: ['SYSTEM'] });
  });

  it('closes auctions at their end with the right result, and their listings follow', async () => {
    const sold = await publishLot(api);
    const noBids = await publishLot(api);
    const reserveNotMet = await publishLot(api, { rules: { reservePrice: 20_000 } });
    await placeBid(api.deps, sold.auctionId, 'buyer-ann', 5_100);
    await placeBid(api.deps, sold.auctionId, 'buyer-bob', 7_500);
    await placeBid(api.deps, reserveNotMet.auctionId, 'buyer-ann', 6_000);

    await round(api);
    expect((await auctionRow(api, sold.auctionId)).status).toBe('ACTIVE');

    const end = sold.endsAt;
    moveClockTo(new Date(end.getTime() + 1_000));
    await round(api);

    const closing = async (lot: Lot) => (await eventsOf(api, auctionStreamId(lot.auctionId))).filter((event) => event.type === 'AuctionClosed').map((event) => event.data);
    expect(await closing(sold)).toEqual([
      expect.objectContaining({ closedBy: 'TIME', result: 'SOLD', winnerId: 'buyer-bob', finalPrice: 7_500, closedAt: now.toISOString() }),
    ]);
    expect(await closing(noBids)).toEqual([expect.objectContaining({ result: 'NO_BIDS', winnerId: null, finalPrice: null })]);
    expect(await closing(reserveNotMet)).toEqual([expect.objectContaining({ result: 'RESERVE_NOT_MET', winnerId: null, finalPrice: null })]);
    expect((await auctionRow(api, sold.auctionId)).status).toBe('ENDED');

    // The next round sees the auctions ended in the read model and settles their listings.
    await round(api);
    expect(await listingStatus(api, sold.listingId)).toBe('SOLD');
    expect(await listingStatus(api, noBids.listingId)).toBe('UNSOLD');
    expect(await listingStatus(api, reserveNotMet.listingId)).toBe('UNSOLD');
    const soldListing = await eventsOf(api, listingStreamId(sold.listingId));
    expect(soldListing.at(-1)).toMatchObject({
      type: 'ListingSold',
      data: { listingId: sold.listingId, auctionId: sold.auctionId, buyerId: 'buyer-bob', finalPrice: 7_500 },
      metadata: { actorId: 'lifecycle', actorRoles: ['SYSTEM'] },
    });
    expect((await eventsOf(api, listingStreamId(reserveNotMet.listingId))).at(-1)).toMatchObject({ type: 'ListingUnsold', data: { result: 'RESERVE_NOT_MET' } });
  });

  it('settles the listing of an auction cancelled by an admin', async () => {
    const lot = await publishLot(api);
    await handleAuctionCommand(api.deps.commands, {
      type: 'CancelAuction',
      data: { auctionId: lot.auctionId, reason: 'Item failed authentication' },
      metadata: metadata(ADMIN),
    });
    await round(api);
    expect((await eventsOf(api, listingStreamId(lot.listingId))).at(-1)).toMatchObject({ type: 'ListingUnsold', data: { result: 'CANCELLED' } });
  });

  it('does not close an extended auction at its original end', async () => {
    const start = now;
    const lot = await publishLot(api, {
      startsAt: start,
      endsAt: new Date(start.getTime() + HOUR),
      rules: { softClose: { windowSeconds: 600, latestEndsAt: new Date(start.getTime() + 2 * HOUR).toISOString() } },
    });
    // A bid five minutes before the end moves it to ten minutes after the bid.
    moveClockTo(new Date(lot.endsAt.getTime() - 5 * MINUTE));
    await placeBid(api.deps, lot.auctionId, 'buyer-ann', 5_100);
    const extendedTo = new Date(now.getTime() + 10 * MINUTE);

    moveClockTo(new Date(lot.endsAt.getTime() + MINUTE));
    await round(api);
    const stream = auctionStreamId(lot.auctionId);
    expect((await eventsOf(api, stream)).map((event) => event.type)).not.toContain('AuctionClosed');
    expect((await auctionRow(api, lot.auctionId)).status).toBe('ACTIVE');

    moveClockTo(new Date(extendedTo.getTime() + 1_000));
    await round(api);
    const closed = (await eventsOf(api, stream)).filter((event) => event.type === 'AuctionClosed');
    expect(closed).toEqual([expect.objectContaining({ data: expect.objectContaining({ result: 'SOLD', winnerId: 'buyer-ann', finalPrice: 5_100 }) })]);
  });

  it('closes each auction exactly once with two workers (two API processes) on one database', async () => {
    const other = await startTestApi(backend, { sharing: api, clock });
    try {
      const lots = await Promise.all(Array.from({ length: 6 }, () => publishLot(api)));
      await Promise.all(lots.slice(0, 3).map((lot, index) => placeBid(api.deps, lot.auctionId, `buyer-${index}`, 5_100 + index * 100)));
      moveClockTo(new Date(Math.max(...lots.map((lot) => lot.endsAt.getTime())) + 1_000));

      // Both workers' own loops run too; these rounds race them and each other.
      await Promise.all([api.deps.projections.caughtUp(), other.deps.projections.caughtUp()]);
      await Promise.all([api.deps.lifecycle!.runOnce(), other.deps.lifecycle!.runOnce(), api.deps.lifecycle!.runOnce(), other.deps.lifecycle!.runOnce()]);
      await Promise.all([round(api), round(other)]);
      await Promise.all([round(api), round(other)]);

      for (const [index, lot] of lots.entries()) {
        const auction = await eventsOf(api, auctionStreamId(lot.auctionId));
        expect(auction.filter((event) => event.type === 'AuctionClosed')).toHaveLength(1);
        const listing = await eventsOf(api, listingStreamId(lot.listingId));
        expect(listing.filter((event) => event.type === 'ListingSold' || event.type === 'ListingUnsold')).toHaveLength(1);
        expect(await listingStatus(api, lot.listingId)).toBe(index < 3 ? 'SOLD' : 'UNSOLD');
      }
    } finally {
      await other.close();
    }
  });

  it('catches up after a restart: a worker that starts after an end closes the auction', async () => {
    let restarted: TestApi | undefined;
    try {
      // The only worker on this database stops (its process goes down) before the auction ends.
      await api.deps.lifecycle!.stop();
      const lot = await publishLot(api, { endsAt: new Date(now.getTime() + 30 * MINUTE) });
      await placeBid(api.deps, lot.auctionId, 'buyer-ann', 6_000);
      moveClockTo(new Date(lot.endsAt.getTime() + HOUR));
      await api.deps.projections.caughtUp();
      expect((await auctionRow(api, lot.auctionId)).status).toBe('ACTIVE');

      // A process starts again; its worker finds the overdue close on its own, and then the listing.
      restarted = await startTestApi(backend, { sharing: api, clock });
      const stream = auctionStreamId(lot.auctionId);
      await waitFor(async () => (await eventsOf(api, stream)).some((event) => event.type === 'AuctionClosed'), 'the overdue close');
      await waitFor(async () => (await listingStatus(restarted!, lot.listingId)) === 'SOLD', 'the listing to be sold');
      expect((await eventsOf(api, stream)).filter((event) => event.type === 'AuctionClosed')).toEqual([
        expect.objectContaining({ data: expect.objectContaining({ result: 'SOLD', winnerId: 'buyer-ann', finalPrice: 6_000, closedAt: now.toISOString() }) }),
      ]);
    } finally {
      await restarted?.close();
      api.deps.lifecycle!.start();
    }
  });
});

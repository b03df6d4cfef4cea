import { randomUUID } from 'node:crypto';
import { DelegatingEventStore } from '../../engine/eventstore/delegating';
import type { AppendRequest, AppendResult, BatchHandler, EventStore, ExpectedRevision, NewEvent, RecordedEvent, SubscribeOptions, Subscription } from '../../engine/eventstore/port';

/**
 * How a store may hand the log over, beyond what one adapter happens to do (TEST_LOG_SHAPE):
 * - `one-event-per-batch`: every subscription batch split into batches of one event, as KurrentDB
 *   hands over an append whose events each have their own commit position;
 * - `random-batches`: split at random places (seeded by TEST_LOG_SEED, printed when chosen);
 * - `foreign-events`: after every append, two events of other writers on the shared log, as on
 *   KurrentDB's $all: one in a stream outside the product's, of an unknown type, without metadata;
 *   one under the product's names (an auction stream, BidPlaced, the engine's metadata) whose data
 *   is not the engine's.
 * The live hub's and the projections' suites pass unchanged under each.
 */
export const LOG_SHAPES = ['one-event-per-batch', 'random-batches', 'foreign-events'] as const;
export type LogShape = (typeof LOG_SHAPES)[number];

/** The shape TEST_LOG_SHAPE names; undefined when unset. */
export function logShapeFromEnv(): LogShape | undefined {
  const shape = process.env.TEST_LOG_SHAPE;
  if (shape === undefined || shape === '') return undefined;
  if (!(LOG_SHAPES as readonly string[]).includes(shape)) throw new Error(`TEST_LOG_SHAPE must be one of ${LOG_SHAPES.join(', ')}, not "${shape}"`);
  return shape as LogShape;
}

/** `store` handing the log over in `shape` (unchanged when undefined). */
export function shapedStore(store: EventStore, shape: LogShape | undefined): EventStore {
  return shape === undefined ? store : new ShapedEventStore(store, shape);
}

/** A foreign writer's event: not this product's stream, type or metadata. */
export function foreignEvent(): NewEvent {
  return { id: randomUUID(), type: 'InventoryCounted', data: { sku: 'X-1', count: 3 }, metadata: {} };
}

/** Another writer's bid under the product's names, with the engine's metadata, but data the engine never wrote. */
function impostorBid(): NewEvent {
  const auctionId = randomUUID();
  const now = new Date().toISOString();
  return {
    id: randomUUID(),
    type: 'BidPlaced',
    data: { auctionId, bidId: randomUUID(), bidderId: 'elsewhere', amount: 10_000, maximum: null, placedAt: now },
    metadata: { actorId: 'elsewhere', actorRoles: ['BUYER'], occurredAt: now, correlationId: randomUUID(), commandId: randomUUID() },
  };
}

/** Mulberry32: a small seeded generator, so that a failing random split can be replayed. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

class ShapedEventStore extends DelegatingEventStore {
  readonly #shape: LogShape;
  readonly #random: () => number;

  constructor(store: EventStore, shape: LogShape) {
    super(store);
    this.#shape = shape;
    const seed = Number(process.env.TEST_LOG_SEED ?? Math.floor(Math.random() * 2 ** 31));
    if (shape === 'random-batches') console.info(`random-batches: TEST_LOG_SEED=${seed}`);
    this.#random = seededRandom(seed);
  }

  override async appendToStream(streamId: string, events: readonly NewEvent[], options: { expectedRevision: ExpectedRevision }): Promise<AppendResult> {
    const result = await this.inner.appendToStream(streamId, events, options);
    await this.#afterAppend();
    return result;
  }

  override async appendToStreams(requests: readonly AppendRequest[]): Promise<AppendResult[]> {
    const results = await this.inner.appendToStreams(requests);
    await this.#afterAppend();
    return results;
  }

  override subscribeToAll(options: SubscribeOptions, handler: BatchHandler): Subscription {
    if (this.#shape === 'foreign-events') return this.inner.subscribeToAll(options, handler);
    return this.inner.subscribeToAll(options, async (batch) => {
      for (const part of this.#split(batch)) await handler(part);
    });
  }

  async #afterAppend(): Promise<void> {
    if (this.#shape !== 'foreign-events') return;
    await this.inner.appendToStream(`inventory-${randomUUID()}`, [foreignEvent()], { expectedRevision: 'any' });
    const impostor = impostorBid();
    await this.inner.appendToStream(`auction-${(impostor.data as { auctionId: string }).auctionId}`, [impostor], { expectedRevision: 'any' });
  }

  #split(batch: readonly RecordedEvent[]): RecordedEvent[][] {
    const parts: RecordedEvent[][] = [];
    for (let start = 0; start < batch.length; ) {
      const size = this.#shape === 'one-event-per-batch' ? 1 : 1 + Math.floor(this.#random() * Math.min(batch.length - start, 4));
      parts.push(batch.slice(start, start + size));
      start += size;
    }
    return parts;
  }
}

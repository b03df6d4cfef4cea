import type { Kysely } from 'kysely';
import { ForeignEventFilter } from '../engine/application/foreign-events';
import { consoleLogger, type Logger } from '../engine/application/logger';
import { comparePositions, parsePosition, positionToString, START, type EventStore, type LogPosition, type RecordedEvent, type Subscription } from '../engine/eventstore/port';
import { auctionLogsProjection } from './auction-logs/auction-logs-projection';
import { auctionsProjection } from './auctions/auctions-projection';
import { bidsProjection } from './bids/bids-projection';
import { isListingEvent, listingsProjection } from './listings/listings-projection';
import { nfcTagsProjection } from './nfc-tags/nfc-tags-projection';
import { ordersProjection } from './orders/orders-projection';
import { asProjectedEvent, type Projection } from './projection';
import type { ReadModels } from './schema';

/** Told what the runner does, for metrics; the runner itself knows nothing of them. */
export interface ProjectionObserver {
  /** After a batch is committed: how many of its events were new to at least one read model. */
  eventsApplied(count: number): void;
}

/** In the order they run within each run of a batch (see runsOf). */
export const READ_MODEL_PROJECTIONS: readonly Projection[] = [listingsProjection, auctionsProjection, bidsProjection, nfcTagsProjection, ordersProjection, auctionLogsProjection];

/**
 * Keeps the read models in step with the log: one catch-up subscription, each batch applied in one
 * transaction together with every projection's checkpoint. The checkpoints are read under a row
 * lock inside that transaction and only events past them are applied, so two processes running
 * projections on one database never apply an event twice, and a restart resumes where it stopped.
 */
export class ProjectionRunner {
  readonly #store: EventStore;
  readonly #db: Kysely<ReadModels>;
  readonly #projections: readonly Projection[];
  readonly #log: Logger;
  readonly #observer: ProjectionObserver | undefined;
  readonly #batchSize: number | undefined;
  readonly #foreign: ForeignEventFilter;
  /** Where the checkpoints live: every table of checkpoints has the columns of projection_checkpoints. */
  readonly #checkpoints: 'projection_checkpoints';
  readonly #startAtEnd: boolean;
  readonly #batchIntervalMs: number;
  #lastBatchAt = 0;
  #subscription: Subscription | undefined;
  #stopped = false;
  #position: LogPosition = START;
  readonly #waiters = new Set<{ position: LogPosition; resolve: () => void }>();

  /**
   * `batchSize`: most events applied in one transaction (the store's default unless given; a rebuild
   * takes more). `checkpointTable`: for a consumer of the log that is not a read model (the notifier),
   * whose checkpoints must outlive a rebuild of the read models. `startAtEnd`: a consumer seen for the
   * first time starts at the end of the log, not its beginning (notices of the past are not news).
   * `batchIntervalMs`: the least time between two batches' transactions; what comes meanwhile waits
   * for the next, so a consumer that need not be instant pays its fixed cost per batch less often.
   */
  constructor(
    store: EventStore,
    db: Kysely<ReadModels>,
    options: {
      projections?: readonly Projection[];
      log?: Logger;
      observer?: ProjectionObserver;
      batchSize?: number;
      checkpointTable?: string;
      startAtEnd?: boolean;
      batchIntervalMs?: number;
    } = {},
  ) {
    this.#store = store;
    this.#db = db;
    this.#projections = options.projections ?? READ_MODEL_PROJECTIONS;
    this.#log = options.log ?? consoleLogger;
    this.#observer = options.observer;
    this.#batchSize = options.batchSize;
    this.#foreign = new ForeignEventFilter('the projections', this.#log, store);
    this.#checkpoints = (options.checkpointTable ?? 'projection_checkpoints') as 'projection_checkpoints';
    this.#startAtEnd = options.startAtEnd ?? false;
    this.#batchIntervalMs = options.batchIntervalMs ?? 0;
  }

  async start(): Promise<void> {
    const first = this.#startAtEnd ? ((await this.#store.headPosition()) ?? START) : START;
    await this.#db
      .insertInto(this.#checkpoints)
      .values(this.#projections.map((p) => ({ name: p.name, position: positionToString(first), updated_at: new Date(0) })))
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
    this.#stopped = false;
    await this.#subscribe();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    await this.#subscription?.stop();
  }

  /** Resolves once every projection has applied the log up to `position`. */
  caughtUpTo(position: LogPosition): Promise<void> {
    if (comparePositions(this.#position, position) >= 0) return Promise.resolve();
    return new Promise((resolve) => this.#waiters.add({ position, resolve }));
  }

  /** Resolves once the read models hold everything committed to the log by now. */
  async caughtUp(): Promise<void> {
    const head = await this.#store.headPosition();
    if (head) await this.caughtUpTo(head);
  }

  /**
   * How far every read model has got, as stored: the lowest checkpoint. Read from the database, so
   * that it counts the work of any process running projections on it, this one stopped or not.
   */
  async storedCheckpoint(): Promise<LogPosition> {
    const checkpoints = await this.#db.selectFrom(this.#checkpoints).select(['name', 'position']).where('name', 'in', this.#projections.map((p) => p.name)).execute();
    return checkpoints.map((row) => parsePosition(row.position)).sort(comparePositions)[0] ?? START;
  }

  async #subscribe(): Promise<void> {
    const lowest = await this.storedCheckpoint();
    this.#reached(lowest);
    const after = comparePositions(lowest, START) === 0 ? 'start' : lowest;
    const subscription = this.#store.subscribeToAll({ after, maxBatchSize: this.#batchSize }, (batch) => this.#apply(batch));
    this.#subscription = subscription;
    subscription.done.catch((error: unknown) => {
      if (this.#stopped) return;
      this.#log.error({ err: error }, 'projection failed; resuming from the stored checkpoints in 1 s');
      setTimeout(() => void this.#subscribe().catch((again: unknown) => this.#log.error({ err: again }, 'projection restart failed')), 1000).unref();
    });
  }

  async #apply(batch: readonly RecordedEvent[]): Promise<void> {
    const wait = this.#lastBatchAt + this.#batchIntervalMs - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    this.#lastBatchAt = performance.now();
    const last = batch.at(-1)!.position;
    // Foreign events are not applied, but the checkpoints still move past them.
    const ours = this.#foreign.keep(batch);
    const applied = await this.#db.transaction().execute(async (trx) => {
      const rows = await trx
        .selectFrom(this.#checkpoints)
        .select(['name', 'position'])
        .where('name', 'in', this.#projections.map((p) => p.name))
        .forUpdate()
        .execute();
      const checkpoints = new Map(rows.map((row) => [row.name, parsePosition(row.position)]));
      const checkpointOf = (projection: Projection) => checkpoints.get(projection.name) ?? START;
      for (const run of runsOf(ours)) {
        for (const projection of this.#projections) {
          const behind = run.filter((recorded) => comparePositions(recorded.position, checkpointOf(projection)) > 0);
          if (behind.length > 0) await projection.applyBatch(trx, behind.map(asProjectedEvent));
        }
      }
      const lowest = this.#projections.map(checkpointOf).sort(comparePositions)[0] ?? START;
      const newEvents = ours.filter((recorded) => comparePositions(recorded.position, lowest) > 0).length;
      const advanced = this.#projections.filter((p) => comparePositions(last, checkpointOf(p)) > 0).map((p) => p.name);
      if (advanced.length > 0) {
        await trx
          .updateTable(this.#checkpoints)
          .set({ position: positionToString(last), updated_at: batch.at(-1)!.recordedAt })
          .where('name', 'in', advanced)
          .execute();
      }
      return newEvents;
    });
    this.#observer?.eventsApplied(applied);
    this.#reached(last);
  }

  #reached(position: LogPosition): void {
    if (comparePositions(position, this.#position) > 0) this.#position = position;
    for (const waiter of this.#waiters) {
      if (comparePositions(this.#position, waiter.position) >= 0) {
        this.#waiters.delete(waiter);
        waiter.resolve();
      }
    }
  }
}

/**
 * The batch in runs, each applied by every projection in turn. The listings projection and the
 * auctions one (an auction's price and end) both write listing rows: a run ends wherever listing
 * events begin or end, so that those rows take both projections' writes in log order. Listing
 * events are few: a hot auction's bids stay one run.
 */
function runsOf(batch: readonly RecordedEvent[]): RecordedEvent[][] {
  const runs: RecordedEvent[][] = [];
  let previous: boolean | undefined;
  for (const recorded of batch) {
    const listing = isListingEvent(recorded);
    if (listing !== previous) runs.push([]);
    runs.at(-1)!.push(recorded);
    previous = listing;
  }
  return runs;
}

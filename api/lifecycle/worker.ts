import { handleAuctionCommand } from '../../engine/application/auction-commands';
import { consoleLogger, type Logger } from '../../engine/application/logger';
import { recordAuctionOutcome, type FinishedAuction } from '../../engine/application/listing-follows-auction';
import type { AuctionCommand } from '../../engine/domain';
import { AfterSaleSteps } from './after-sale';
import { runSystemCommand, systemMetadata, type LifecycleDependencies, type Outcome } from './system';

export interface LifecycleOptions {
  /** The longest the worker sleeps between two looks at the read models. */
  readonly pollMs?: number;
  /** Commands of each kind issued per round; a full round is followed at once by another. */
  readonly batchSize?: number;
}

export interface LifecycleRound {
  readonly opened: number;
  readonly closed: number;
  readonly listingsSettled: number;
  /** Orders placed, gone overdue or delivered, offers expired (AfterSaleSteps). */
  readonly afterSaleSteps: number;
  /** When the next auction is due to open or close, as the read models see it; null when none is. */
  readonly nextDueAt: Date | null;
  /** A full batch got somewhere: there may be more to do right now. */
  readonly more: boolean;
}

/** After a round that wrote events, look again soon: the read models show the result, and the listing follows. */
const FOLLOW_UP_MS = 50;

/**
 * Opens auctions when they start and closes them when they end, then lets each listing follow its
 * auction. It polls the auctions read model for due work and sleeps until the next due time (at
 * most `pollMs`), so it catches up after a restart and needs no timers per auction. Any number of
 * workers may run at once (one per API process): their commands carry ids derived from what they
 * do, and the engine refuses to close an auction twice, so each auction closes exactly once.
 */
export class LifecycleWorker {
  readonly #deps: LifecycleDependencies;
  readonly #log: Logger;
  readonly #pollMs: number;
  readonly #batchSize: number;
  /** Failures already logged, by command, so a stuck command is not logged every round. */
  readonly #reported = new Set<string>();
  /** Rounds run one at a time, in the order asked for. */
  #rounds: Promise<unknown> = Promise.resolve();
  #loop: Promise<void> | undefined;
  /** Which loop may run: a stopped loop sees it changed and ends, even if another has started since. */
  #generation = 0;
  #running = false;
  #wake: (() => void) | undefined;
  readonly #afterSale: AfterSaleSteps;

  constructor(deps: LifecycleDependencies, options: LifecycleOptions = {}, log: Logger = consoleLogger) {
    this.#deps = deps;
    this.#log = log;
    this.#afterSale = new AfterSaleSteps(deps, log, this.#reported);
    this.#pollMs = options.pollMs ?? 1000;
    this.#batchSize = options.batchSize ?? 100;
  }

  /** Starts the loop; after `stop()` it may start again (another process taking over, in tests). */
  start(): void {
    if (this.#running) return;
    this.#running = true;
    this.#loop = this.#run(++this.#generation);
  }

  /** Stops after the round in progress, if any. */
  async stop(): Promise<void> {
    const loop = this.#loop;
    this.#running = false;
    this.#generation++;
    this.#loop = undefined;
    this.#wake?.();
    await loop;
  }

  /** Runs one full round now (after any round in progress) and reports it. */
  runOnce(): Promise<LifecycleRound> {
    const round = this.#rounds.then(() => this.#round());
    this.#rounds = round.catch(() => undefined);
    return round;
  }

  async #run(generation: number): Promise<void> {
    const current = () => this.#generation === generation;
    while (current()) {
      let sleepMs = this.#pollMs;
      try {
        const round = await this.runOnce();
        sleepMs = this.#sleepAfter(round);
      } catch (error) {
        this.#log.error({ err: error }, 'lifecycle: round failed; trying again');
      }
      if (!current()) break;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, sleepMs);
        this.#wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.#wake = undefined;
    }
  }

  #sleepAfter(round: LifecycleRound): number {
    if (round.more) return 0;
    if (round.opened + round.closed + round.listingsSettled + round.afterSaleSteps > 0) return Math.min(this.#pollMs, FOLLOW_UP_MS);
    if (round.nextDueAt === null) return this.#pollMs;
    const untilDue = round.nextDueAt.getTime() - this.#deps.clock().getTime();
    return Math.max(0, Math.min(this.#pollMs, untilDue));
  }

  async #round(): Promise<LifecycleRound> {
    const { db } = this.#deps;
    const now = this.#deps.clock();
    const limit = this.#batchSize;
    const [toOpen, toClose] = await Promise.all([
      db
        .selectFrom('auctions')
        .select('id')
        .where('status', '=', 'PENDING')
        .where('starts_at', '<=', now)
        .where('ends_at', '>', now) // one that has already ended is closed instead
        .orderBy('starts_at')
        .limit(limit)
        .execute(),
      db
        .selectFrom('auctions')
        .select(['id', 'ends_at'])
        .where('status', 'in', ['PENDING', 'ACTIVE'])
        .where('ends_at', '<=', now)
        .orderBy('ends_at')
        .limit(limit)
        .execute(),
    ]);

    const [opened, closed] = await Promise.all([
      Promise.all(toOpen.map(({ id }) => this.#open(id, now))),
      Promise.all(toClose.map(({ id, ends_at }) => this.#close(id, new Date(ends_at), now))),
    ]);
    const settled = await this.#settleListings(now, limit);
    const afterSale = await this.#afterSale.run(now, limit);
    const all = [...opened, ...closed, ...settled.outcomes, ...afterSale.outcomes];
    const wrote = all.includes('wrote');
    const due = [await this.#nextDueAfter(now), await this.#afterSale.nextDueAfter(now)].filter((at) => at !== null);
    return {
      opened: count(opened, 'wrote'),
      closed: count(closed, 'wrote'),
      listingsSettled: count(settled.outcomes, 'wrote'),
      afterSaleSteps: count(afterSale.outcomes, 'wrote'),
      nextDueAt: due.length === 0 ? null : new Date(Math.min(...due.map((at) => at.getTime()))),
      // A full batch that got somewhere: there may be more right now. (A full batch of refusals is not
      // looked at again at once, so rows the read model has not caught up with cannot spin the loop.)
      more: wrote && (toOpen.length === limit || toClose.length === limit || settled.more || afterSale.more),
    };
  }

  #open(auctionId: string, now: Date): Promise<Outcome> {
    const command: AuctionCommand = { type: 'OpenAuction', data: { auctionId }, metadata: systemMetadata(now, auctionId, `lifecycle:open:${auctionId}`) };
    return runSystemCommand(
      `open ${auctionId}`,
      () => handleAuctionCommand(this.#deps.commands, command),
      // Closed or cancelled before it opened: nothing to open. Not started: our clock is behind the read model's.
      { done: ['AUCTION_ALREADY_CLOSED', 'AUCTION_CANCELLED', 'AUCTION_NOT_FOUND'], retry: ['AUCTION_NOT_STARTED'] },
      this.#log,
      this.#reported,
    );
  }

  /** The command id names the end being closed: an extension makes a new end and so a new command. */
  #close(auctionId: string, endsAt: Date, now: Date): Promise<Outcome> {
    const command: AuctionCommand = {
      type: 'CloseAuction',
      data: { auctionId },
      metadata: systemMetadata(now, auctionId, `lifecycle:close:${auctionId}:${endsAt.toISOString()}`),
    };
    return runSystemCommand(
      `close ${auctionId}`,
      () => handleAuctionCommand(this.#deps.commands, command),
      // AUCTION_NOT_OVER: the end moved (soft close) after the read model last looked; next round sees it.
      { done: ['AUCTION_ALREADY_CLOSED', 'AUCTION_CANCELLED', 'AUCTION_NOT_FOUND'], retry: ['AUCTION_NOT_OVER'] },
      this.#log,
      this.#reported,
    );
  }

  /**
   * Each live listing follows its finished auction. Driven by the read models rather than by a
   * subscription of its own, so that a restart (or a second process) simply finds what is left to do.
   */
  async #settleListings(now: Date, limit: number): Promise<{ outcomes: Outcome[]; more: boolean }> {
    const finished = await this.#deps.db
      .selectFrom('auctions as a')
      .innerJoin('listings as l', 'l.auction_id', 'a.id')
      .select(['a.id as auctionId', 'l.id as listingId', 'a.status', 'a.result', 'a.winner_id as winnerId', 'a.final_price as finalPrice'])
      .where('a.status', 'in', ['ENDED', 'CANCELLED'])
      .where('l.status', '=', 'LIVE')
      .orderBy('a.id')
      .limit(limit)
      .$narrowType<{ status: FinishedAuction['status'] }>()
      .execute();
    const outcomes = await Promise.all(
      finished.map((row) => {
        const auction: FinishedAuction = { ...row, finalPrice: row.finalPrice === null ? null : Number(row.finalPrice) };
        const metadata = systemMetadata(now, row.auctionId, `lifecycle:outcome:${row.listingId}:${row.auctionId}`);
        return runSystemCommand(
          `outcome ${row.listingId}`,
          () => recordAuctionOutcome(this.#deps.commands, auction, metadata),
          // The listing moved on already (recorded by another worker, or withdrawn): nothing to do.
          { done: ['LISTING_NOT_LIVE', 'LISTING_NOT_FOUND'], retry: [] },
          this.#log,
          this.#reported,
        );
      }),
    );
    return { outcomes, more: finished.length === limit };
  }

  /**
   * The next start or end after `now`. Work already due but not done (refused for now, or failing)
   * is not counted: it is looked at again after `pollMs`, not in a tight loop.
   */
  async #nextDueAfter(now: Date): Promise<Date | null> {
    const { db } = this.#deps;
    const [start, end] = await Promise.all([
      db.selectFrom('auctions').select('starts_at').where('status', '=', 'PENDING').where('starts_at', '>', now).orderBy('starts_at').limit(1).executeTakeFirst(),
      db
        .selectFrom('auctions')
        .select('ends_at')
        .where('status', 'in', ['PENDING', 'ACTIVE'])
        .where('ends_at', '>', now)
        .orderBy('ends_at')
        .limit(1)
        .executeTakeFirst(),
    ]);
    const times = [start?.starts_at, end?.ends_at].filter((time) => time !== undefined).map((time) => new Date(time).getTime());
    return times.length === 0 ? null : new Date(Math.min(...times));
  }
}

function count(outcomes: readonly Outcome[], outcome: Outcome): number {
  return outcomes.filter((each) => each === outcome).length;
}

import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Logger } from '../../engine/application/logger';
import type { Database } from '../database';

/** How long a lease holds without renewal: how long a dead owner's auctions wait before another process takes them. */
export const OWNER_LEASE_MS = 10_000;
/** How often an owner renews the leases of the auctions it decided for lately. */
const RENEW_EVERY_MS = 3_000;
/** An auction nobody bid on for this long goes back to whoever comes first. */
const IDLE_RELEASE_MS = 60_000;
/** How long another process's lease is believed before it is asked about again. */
const OTHER_OWNER_TRUST_MS = 3_000;

export type Owner = { readonly self: true } | { readonly self: false; readonly url: string };
const SELF: Owner = { self: true };

/**
 * Who decides each hot auction's commands when several API processes share one database: the
 * first process that needs to decide for it takes a lease (a row in auction_owners, timed by the
 * database's clock), renews it while bids keep coming, and gives it up once the auction goes quiet;
 * the others forward their commands to it (AuctionCommandRouter). All of one auction's bids are
 * then batched in one queue, in one process, as on a single process. A lease that lapses (its
 * process died or stalled) is taken by the next process that asks.
 *
 * Correctness never depends on it: each append is still checked against the stream's revision, so
 * two processes that both believe they own an auction (a lease lapsing while its owner still works)
 * only lose the batching for a moment.
 */
export class AuctionOwners {
  readonly instanceId = randomUUID();
  readonly #db: Kysely<Database>;
  readonly #url: string;
  readonly #log: Logger | undefined;
  /** Auctions this process holds a lease on, with when it last decided for each. */
  readonly #owned = new Map<string, number>();
  readonly #others = new Map<string, { readonly url: string; readonly until: number }>();
  readonly #asking = new Map<string, Promise<Owner>>();
  #renewal: NodeJS.Timeout | undefined;
  #renewing: Promise<void> | undefined;

  constructor(db: Kysely<Database>, options: { readonly instanceUrl: string; readonly log?: Logger }) {
    this.#db = db;
    this.#url = options.instanceUrl;
    this.#log = options.log;
  }

  get instanceUrl(): string {
    return this.#url;
  }

  start(): void {
    this.#renewal = setInterval(() => void (this.#renewing ??= this.#renew().finally(() => (this.#renewing = undefined))), RENEW_EVERY_MS);
    this.#renewal.unref();
  }

  /** Gives every lease back, so that the other processes take over at once instead of after OWNER_LEASE_MS. */
  async stop(): Promise<void> {
    clearInterval(this.#renewal);
    await this.#renewing;
    this.#owned.clear();
    await this.#db.deleteFrom('auction_owners').where('instance_id', '=', this.instanceId).execute();
  }

  /** Who decides this auction's commands now: this process (having taken the lease if it was free), or another. */
  ownerOf(auctionId: string): Promise<Owner> {
    if (this.#owned.has(auctionId)) {
      this.#owned.set(auctionId, performance.now());
      return Promise.resolve(SELF);
    }
    const other = this.#others.get(auctionId);
    if (other && other.until > performance.now()) return Promise.resolve({ self: false, url: other.url });
    let asking = this.#asking.get(auctionId);
    if (!asking) {
      asking = this.#claim(auctionId).finally(() => this.#asking.delete(auctionId));
      this.#asking.set(auctionId, asking);
    }
    return asking;
  }

  /** The owner did not answer: ask the database again next time (its lease may have lapsed). */
  forget(auctionId: string): void {
    this.#others.delete(auctionId);
  }

  async #claim(auctionId: string): Promise<Owner> {
    const { rows } = await sql<{ instance_id: string; instance_url: string }>`
      INSERT INTO auction_owners AS owner (auction_id, instance_id, instance_url, lease_until)
      VALUES (${auctionId}, ${this.instanceId}, ${this.#url}, now() + ${`${OWNER_LEASE_MS} milliseconds`}::interval)
      ON CONFLICT (auction_id) DO UPDATE SET instance_id = excluded.instance_id, instance_url = excluded.instance_url,
        lease_until = excluded.lease_until, since = CASE WHEN owner.instance_id = excluded.instance_id THEN owner.since ELSE now() END
      WHERE owner.lease_until < now() OR owner.instance_id = excluded.instance_id
      RETURNING instance_id, instance_url`.execute(this.#db);
    if (rows.length > 0) {
      this.#owned.set(auctionId, performance.now());
      this.#others.delete(auctionId);
      return SELF;
    }
    const holder = await this.#db.selectFrom('auction_owners').select(['instance_id', 'instance_url']).where('auction_id', '=', auctionId).executeTakeFirst();
    // Released between the two statements: nobody owns it; decide here and let the next command claim it.
    if (!holder) return SELF;
    this.#others.set(auctionId, { url: holder.instance_url, until: performance.now() + OTHER_OWNER_TRUST_MS });
    return { self: false, url: holder.instance_url };
  }

  /** Renews the leases of auctions decided for lately; gives back the quiet ones; forgets any lost meanwhile. */
  async #renew(): Promise<void> {
    const now = performance.now();
    const active = [...this.#owned].filter(([, lastUsed]) => now - lastUsed < IDLE_RELEASE_MS).map(([auctionId]) => auctionId);
    const quiet = [...this.#owned.keys()].filter((auctionId) => !active.includes(auctionId));
    try {
      for (const auctionId of quiet) this.#owned.delete(auctionId);
      if (quiet.length > 0) await this.#db.deleteFrom('auction_owners').where('instance_id', '=', this.instanceId).where('auction_id', 'in', quiet).execute();
      if (active.length === 0) return;
      const renewed = await this.#db
        .updateTable('auction_owners')
        .set({ lease_until: sql`now() + ${`${OWNER_LEASE_MS} milliseconds`}::interval` })
        .where('instance_id', '=', this.instanceId)
        .where('auction_id', 'in', active)
        .returning('auction_id')
        .execute();
      const kept = new Set(renewed.map((row) => row.auction_id));
      for (const auctionId of active) if (!kept.has(auctionId)) this.#owned.delete(auctionId);
    } catch (error) {
      // Leases not renewed lapse, and whoever asks next takes them: nothing is lost but batching.
      this.#log?.error({ err: error }, 'auction owner leases not renewed');
    }
  }
}

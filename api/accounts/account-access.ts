import type { Kysely } from 'kysely';
import type { SqlClient } from '../../engine/postgres/sql-client';
import type { Database } from '../database';
import { oneBatchAtATime } from '../statement-batches';
import type { User } from './schema';

/** Where the users table announces a change of status, roles or session version (its trigger: api/migrations). */
export const ACCOUNT_ACCESS_CHANNEL = 'provenance_account_access';

/**
 * The longest an account's access is trusted after it was read: how late another process may
 * apply a change whose notification it missed (its listening connection lost, or never opened).
 */
export const ACCOUNT_ACCESS_TTL_MS = 1000;

/** What authenticating a request checks of the account, besides the token. */
export type AccountAccess = Pick<User, 'id' | 'roles' | 'status' | 'session_version'>;

export function readAccountAccess(db: Kysely<Database>, userId: string): Promise<AccountAccess | undefined> {
  return db.selectFrom('users').select(['id', 'roles', 'status', 'session_version']).where('id', '=', userId).executeTakeFirst();
}

/** readAccountAccess for many requests at once: the accounts wanted meanwhile are read in one statement. */
export function batchedAccountAccess(db: Kysely<Database>): (userId: string) => Promise<AccountAccess | undefined> {
  const loader = oneBatchAtATime<string, AccountAccess | undefined>(async (userIds) => {
    const rows = await db.selectFrom('users').select(['id', 'roles', 'status', 'session_version']).where('id', 'in', [...new Set(userIds)]).execute();
    const byId = new Map(rows.map((row) => [row.id, row]));
    return userIds.map((userId) => byId.get(userId));
  });
  return (userId) => loader.load(userId);
}

interface Entry {
  readonly access: Promise<AccountAccess | undefined>;
  /** When the read was sent: the entry is at least as new as the database was then. */
  readonly readAt: number;
  refreshing: boolean;
}

/**
 * Each account's access (status, roles, session version), kept so that authenticating a request
 * costs no query. A change applies at once in this process: the account functions call `forget`
 * once it is committed. Other processes on the database apply it when the users table's NOTIFY
 * reaches them (milliseconds), and in any case within ACCOUNT_ACCESS_TTL_MS. An entry past half
 * its life is still served while a fresh read replaces it, so that an active user never waits; every
 * entry past half its life is read again with it (one statement when the reads are batched), so
 * that a crowd of active bidders costs about two reads a second, not two per bidder.
 */
export class AccountAccessCache {
  /** Oldest read first, so that expired entries are dropped from the front. */
  readonly #entries = new Map<string, Entry>();
  readonly #read: (userId: string) => Promise<AccountAccess | undefined>;
  readonly #now: () => number;
  #unlisten: (() => Promise<void>) | undefined;

  constructor(read: (userId: string) => Promise<AccountAccess | undefined>, now: () => number = () => performance.now()) {
    this.#read = read;
    this.#now = now;
  }

  static reading(db: Kysely<Database>): AccountAccessCache {
    return new AccountAccessCache(batchedAccountAccess(db));
  }

  /** Forgets every account whenever another process (or anyone with SQL) changes one. */
  async listen(sql: SqlClient): Promise<void> {
    this.#unlisten = await sql.listen(ACCOUNT_ACCESS_CHANNEL, () => this.forgetAll());
  }

  async close(): Promise<void> {
    await this.#unlisten?.();
  }

  /** The account's access; undefined for no such account. */
  lookup(userId: string): Promise<AccountAccess | undefined> {
    const now = this.#now();
    const entry = this.#entries.get(userId);
    if (!entry || now - entry.readAt >= ACCOUNT_ACCESS_TTL_MS) return this.#load(userId, now).access;
    if (!entry.refreshing && now - entry.readAt >= ACCOUNT_ACCESS_TTL_MS / 2) this.#refreshDue(now);
    return entry.access;
  }

  /**
   * After a change to the account is committed. A read still in flight is dropped with its entry,
   * so no later request is answered from the state before the change.
   */
  forget(userId: string): void {
    this.#entries.delete(userId);
  }

  forgetAll(): void {
    this.#entries.clear();
  }

  #load(userId: string, now: number): Entry {
    const entry: Entry = { access: this.#read(userId), readAt: now, refreshing: false };
    this.#store(userId, entry);
    // A failed read is not kept: the next request reads again.
    entry.access.catch(() => {
      if (this.#entries.get(userId) === entry) this.#entries.delete(userId);
    });
    return entry;
  }

  /** Refreshes every entry past half its life; they are in read order, oldest first. */
  #refreshDue(now: number): void {
    // #refresh changes the map only once its read answers: iterating it here is safe.
    for (const [userId, entry] of this.#entries) {
      if (now - entry.readAt < ACCOUNT_ACCESS_TTL_MS / 2) break;
      if (!entry.refreshing) this.#refresh(userId, entry, now);
    }
  }

  #refresh(userId: string, current: Entry, now: number): void {
    current.refreshing = true;
    const access = this.#read(userId);
    access.then(
      () => {
        // Forgotten meanwhile: the read may predate the change, and a newer read may be under way.
        if (this.#entries.get(userId) === current) this.#store(userId, { access, readAt: now, refreshing: false });
      },
      () => {
        current.refreshing = false;
      },
    );
  }

  #store(userId: string, entry: Entry): void {
    this.#entries.delete(userId);
    this.#entries.set(userId, entry);
    for (const [id, oldest] of this.#entries) {
      if (entry.readAt - oldest.readAt < ACCOUNT_ACCESS_TTL_MS) break;
      this.#entries.delete(id);
    }
  }
}

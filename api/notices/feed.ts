import type { Kysely } from 'kysely';
import type { Logger } from '../../engine/application/logger';
import type { SqlClient } from '../../engine/postgres/sql-client';
import type { ServerMessage } from '../contracts/live';
import type { Database } from '../database';
import { presentNotification } from './presenters';
import { NOTICES_CHANNEL } from './record';
import { unreadCounts } from './unread';

/** The sockets of signed-in users, as the live hub keeps them. */
export interface UserSockets {
  /** Users with at least one authenticated socket on this process. */
  signedInUsers(): string[];
  isSignedIn(userId: string): boolean;
  sendToUser(userId: string, message: ServerMessage): void;
}

/** Most users one query asks about. */
const USERS_PER_QUERY = 1000;

/**
 * Sequence numbers are taken when a notice is written and become visible when its transaction
 * commits, not always in order: each look reaches this far back, and skips what it already sent.
 */
const LOOK_BACK = 1000;

/**
 * Brings each user's new notices and unread count to their sockets on this process. Told by a
 * NOTIFY on the notices channel (sent by whichever process made a notice or marked some read), it
 * reads what is new past the last notice it saw, so nothing depends on which process did it.
 */
export class NoticeFeed {
  readonly #db: Kysely<Database>;
  readonly #sql: SqlClient;
  readonly #log: Logger;
  #sockets: UserSockets | undefined;
  #lastSequence = 0;
  /**
   * Notices already sent, or already there when their user's socket signed in (not news to it), by
   * id, with their sequence: those within LOOK_BACK of the last.
   */
  readonly #sent = new Map<string, number>();
  readonly #sentCounts = new Map<string, number>();
  #unlisten: (() => Promise<void>) | undefined;
  #running: Promise<void> | undefined;
  #again = false;

  constructor(deps: { db: Kysely<Database>; sql: SqlClient; log: Logger }) {
    this.#db = deps.db;
    this.#sql = deps.sql;
    this.#log = deps.log;
  }

  async start(sockets: UserSockets): Promise<void> {
    this.#sockets = sockets;
    this.#lastSequence = await this.#maxSequence();
    this.#unlisten = await this.#sql.listen(NOTICES_CHANNEL, () => this.refresh()).catch((error: unknown) => {
      this.#log.warn({ err: error }, 'notices: not told of new notices; the bell updates on page loads only');
      return undefined;
    });
  }

  async stop(): Promise<void> {
    await this.#unlisten?.();
    await this.#running;
  }

  /** The unread count of a user, as a socket is told when it signs in. */
  async unreadCount(userId: string): Promise<number> {
    const [counts, known] = await Promise.all([
      unreadCounts(this.#db, [userId]),
      this.#db.selectFrom('notifications').select(['id', 'sequence']).where('recipient_id', '=', userId).where('sequence', '>', this.#lastSequence - LOOK_BACK).execute(),
    ]);
    const count = counts.get(userId) ?? 0;
    // Gone meanwhile: nothing to remember for it.
    if (!this.#sockets?.isSignedIn(userId)) return count;
    for (const notice of known) this.#sent.set(notice.id, Number(notice.sequence));
    this.#sentCounts.set(userId, count);
    return count;
  }

  /** A user's last socket here has gone: their count is not followed any more. */
  forget(userId: string): void {
    this.#sentCounts.delete(userId);
  }

  async #maxSequence(): Promise<number> {
    const last = await this.#db.selectFrom('notifications').select((eb) => eb.fn.max('sequence').as('sequence')).executeTakeFirst();
    return Number(last?.sequence ?? 0);
  }

  /** Looks for news now; calls made while a look is under way are answered by one more look after it. */
  refresh(): void {
    if (this.#running) {
      this.#again = true;
      return;
    }
    this.#running = this.#deliver()
      .catch((error: unknown) => this.#log.error({ err: error }, 'notices: could not bring news to the sockets'))
      .finally(() => {
        this.#running = undefined;
        if (this.#again) {
          this.#again = false;
          this.refresh();
        }
      });
  }

  async #deliver(): Promise<void> {
    const sockets = this.#sockets;
    if (!sockets) return;
    // A socket still signing in is left out until its user's notices so far are known (unreadCount).
    const users = sockets.signedInUsers().filter((user) => this.#sentCounts.has(user));
    // Nobody to tell here: no query. (The next look reaches back past what it skips; what was sent is skipped by id.)
    if (users.length === 0) return;
    const since = this.#lastSequence - LOOK_BACK;
    this.#lastSequence = Math.max(this.#lastSequence, await this.#maxSequence());
    for (let start = 0; start < users.length; start += USERS_PER_QUERY) {
      const slice = users.slice(start, start + USERS_PER_QUERY);
      const [fresh, counts] = await Promise.all([
        this.#db.selectFrom('notifications').selectAll().where('sequence', '>', since).where('recipient_id', 'in', slice).orderBy('sequence').execute(),
        unreadCounts(this.#db, slice),
      ]);
      const told = new Set<string>();
      for (const row of fresh) {
        if (this.#sent.has(row.id)) continue;
        this.#sent.set(row.id, Number(row.sequence));
        const unreadCount = counts.get(row.recipient_id) ?? 0;
        sockets.sendToUser(row.recipient_id, { type: 'notification', notification: presentNotification(row), unreadCount });
        this.#sentCounts.set(row.recipient_id, unreadCount);
        told.add(row.recipient_id);
      }
      for (const user of slice) {
        const count = counts.get(user) ?? 0;
        if (told.has(user) || this.#sentCounts.get(user) === count) continue;
        this.#sentCounts.set(user, count);
        sockets.sendToUser(user, { type: 'unread_count', unreadCount: count });
      }
    }
    for (const [id, sequence] of this.#sent) if (sequence <= this.#lastSequence - LOOK_BACK) this.#sent.delete(id);
  }
}

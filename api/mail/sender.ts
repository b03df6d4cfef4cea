import { sql, type Kysely, type Selectable } from 'kysely';
import type { Logger } from '../../engine/application/logger';
import type { SqlClient } from '../../engine/postgres/sql-client';
import type { Database } from '../database';
import { MAIL_OUTBOX_CHANNEL } from './outbox';
import type { MailOutboxTable } from './schema';
import type { MailTransport } from './transport';

export interface MailSenderOptions {
  /** The longest a queued mail waits when no notification wakes the sender. */
  readonly pollMs?: number;
  /** Attempts before a mail is given up (failed_at set, shown to admins). */
  readonly maxAttempts?: number;
  /** The wait after the first failure; it doubles with each further one, up to `maxBackoffMs`. */
  readonly firstBackoffMs?: number;
  readonly maxBackoffMs?: number;
}

export interface MailObserver {
  mailSent(): void;
  mailFailed(outcome: 'retry' | 'gave_up'): void;
}

/** Mails one round takes; a full round is followed at once by another. */
const BATCH = 20;
/**
 * How long a sender holds a mail: past it (a process that died mid-send), another may take it. Each
 * mail's hold is renewed right before it is sent, so it always outlasts one send (at most 40 s with
 * the transport's timeouts), however long the round before it took.
 */
const CLAIM_MS = 2 * 60_000;
/** Sent and given-up mail is kept this long (GET /api/admin/mail shows it), then deleted. */
const KEEP_MS = 30 * 24 * 60 * 60_000;
const PRUNE_EVERY_MS = 60 * 60_000;

/**
 * Sends what the outbox holds, in every API process: each round claims due mails (SKIP LOCKED, then
 * a claim that outlives the transaction), so two processes never take the same mail at once. A
 * failure is retried with exponential backoff and, after the last attempt, kept as failed for an
 * admin to see. Sending happens outside any transaction and apart from the requests and the log
 * consumers: a slow or broken mail server slows nothing else.
 */
export class MailSender {
  readonly #db: Kysely<Database>;
  readonly #sql: SqlClient;
  readonly #transport: MailTransport;
  readonly #clock: () => Date;
  readonly #log: Logger;
  readonly #observer: MailObserver | undefined;
  readonly #pollMs: number;
  readonly #maxAttempts: number;
  readonly #firstBackoffMs: number;
  readonly #maxBackoffMs: number;
  #running = false;
  #loop: Promise<void> | undefined;
  #wake: (() => void) | undefined;
  #woken = false;
  #unlisten: (() => Promise<void>) | undefined;
  #prunedAt = 0;

  constructor(deps: { db: Kysely<Database>; sql: SqlClient; transport: MailTransport; clock: () => Date; log: Logger; observer?: MailObserver }, options: MailSenderOptions = {}) {
    this.#db = deps.db;
    this.#sql = deps.sql;
    this.#transport = deps.transport;
    this.#clock = deps.clock;
    this.#log = deps.log;
    this.#observer = deps.observer;
    this.#pollMs = options.pollMs ?? 5000;
    this.#maxAttempts = options.maxAttempts ?? 12;
    this.#firstBackoffMs = options.firstBackoffMs ?? 5000;
    this.#maxBackoffMs = options.maxBackoffMs ?? 60 * 60_000;
  }

  get transport(): MailTransport {
    return this.#transport;
  }

  async start(): Promise<void> {
    if (this.#running) return;
    this.#running = true;
    this.#unlisten = await this.#sql.listen(MAIL_OUTBOX_CHANNEL, () => this.#nudge()).catch((error: unknown) => {
      this.#log.warn({ err: error }, 'mail: not told of queued mail; polling only');
      return undefined;
    });
    this.#loop = this.#run();
  }

  async stop(): Promise<void> {
    this.#running = false;
    this.#nudge();
    await this.#loop;
    await this.#unlisten?.();
    this.#transport.close();
  }

  /** Sends what is due now; resolves to how many mails were taken. */
  async runOnce(): Promise<number> {
    const now = this.#clock();
    if (now.getTime() - this.#prunedAt >= PRUNE_EVERY_MS) await this.#prune(now);
    const claimed = await this.#claim(now);
    for (const mail of claimed) {
      const held = await this.#renewClaim(mail);
      if (held) await this.#send(held);
    }
    return claimed.length;
  }

  #nudge(): void {
    this.#woken = true;
    this.#wake?.();
  }

  async #run(): Promise<void> {
    while (this.#running) {
      this.#woken = false;
      let taken = 0;
      try {
        taken = await this.runOnce();
      } catch (error) {
        this.#log.error({ err: error }, 'mail: a round failed; trying again');
      }
      if (!this.#running) break;
      if (taken === BATCH || this.#woken) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, this.#pollMs);
        this.#wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.#wake = undefined;
    }
  }

  async #claim(now: Date): Promise<Selectable<MailOutboxTable>[]> {
    return this.#db.transaction().execute(async (trx) => {
      const due = await trx
        .selectFrom('mail_outbox')
        .select('id')
        .where('sent_at', 'is', null)
        .where('failed_at', 'is', null)
        .where('next_attempt_at', '<=', now)
        .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<=', now)]))
        .orderBy('next_attempt_at')
        .limit(BATCH)
        .forUpdate()
        .skipLocked()
        .execute();
      if (due.length === 0) return [];
      return trx
        .updateTable('mail_outbox')
        .set({ claimed_until: new Date(now.getTime() + CLAIM_MS), attempts: sql`attempts + 1` })
        .where('id', 'in', due.map((row) => row.id))
        .returningAll()
        .execute();
    });
  }

  /** The mail again, held anew from now, or null when another sender has taken it since this one's hold ran out. */
  async #renewClaim(mail: Selectable<MailOutboxTable>): Promise<Selectable<MailOutboxTable> | null> {
    const renewed = await this.#db
      .updateTable('mail_outbox')
      .set({ claimed_until: new Date(this.#clock().getTime() + CLAIM_MS) })
      .where('id', '=', mail.id)
      .where('claimed_until', '=', mail.claimed_until!)
      .where('sent_at', 'is', null)
      .returningAll()
      .executeTakeFirst();
    return renewed ?? null;
  }

  /** Deletes mail sent or given up long ago, and the account links long expired. */
  async #prune(now: Date): Promise<void> {
    this.#prunedAt = now.getTime();
    const before = new Date(now.getTime() - KEEP_MS);
    await this.#db
      .deleteFrom('mail_outbox')
      .where((eb) => eb.or([eb('sent_at', '<', before), eb('failed_at', '<', before)]))
      .execute();
    await this.#db.deleteFrom('account_tokens').where('expires_at', '<', before).execute();
  }

  async #send(mail: Selectable<MailOutboxTable>): Promise<void> {
    try {
      await this.#transport.send({ to: mail.recipient, subject: mail.subject, text: mail.text_body, html: mail.html_body });
    } catch (error) {
      const now = this.#clock();
      const gaveUp = mail.attempts >= this.#maxAttempts;
      const backoff = Math.min(this.#maxBackoffMs, this.#firstBackoffMs * 2 ** (mail.attempts - 1));
      await this.#db
        .updateTable('mail_outbox')
        .set({ claimed_until: null, last_error: describe(error), ...(gaveUp ? { failed_at: now, ...NO_BODY } : { next_attempt_at: new Date(now.getTime() + backoff) }) })
        .where('id', '=', mail.id)
        .execute();
      this.#observer?.mailFailed(gaveUp ? 'gave_up' : 'retry');
      const details = { err: error, mailId: mail.id, subject: mail.subject, attempts: mail.attempts };
      if (gaveUp) this.#log.error(details, 'mail: given up after its last attempt');
      else this.#log.warn({ ...details, retryInMs: backoff }, 'mail: not sent; will retry');
      return;
    }
    await this.#db.updateTable('mail_outbox').set({ sent_at: this.#clock(), claimed_until: null, last_error: null, ...NO_BODY }).where('id', '=', mail.id).execute();
    this.#observer?.mailSent();
  }
}

/** A mail's words are not kept once it has gone (or never will): an account link in them works until it expires. */
const NO_BODY = { text_body: '', html_body: '' };

function describe(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).slice(0, 1000);
}

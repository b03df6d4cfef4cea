import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../database';
import type { OutgoingMail } from './transport';

/** Senders listen here: a mail queued by any process is sent without waiting for the next poll. */
export const MAIL_OUTBOX_CHANNEL = 'mail_outbox';

/**
 * Queues a mail in the caller's transaction, so that it is sent if and only if what it tells of is
 * committed. `cause` names what the mail is for; a second mail for the same cause is not queued.
 * True when queued.
 */
export async function enqueueMail(db: Kysely<Database>, entry: MailEntry, now: Date): Promise<boolean> {
  return (await enqueueMails(db, [entry], now)) > 0;
}

export interface MailEntry {
  readonly cause: string;
  readonly mail: OutgoingMail;
}

/** enqueueMail for many, in one statement; resolves to how many were queued. */
export async function enqueueMails(db: Kysely<Database>, entries: readonly MailEntry[], now: Date): Promise<number> {
  if (entries.length === 0) return 0;
  const queued = await db
    .insertInto('mail_outbox')
    .values(
      entries.map((entry) => ({
        id: randomUUID(),
        cause: entry.cause,
        recipient: entry.mail.to,
        subject: entry.mail.subject,
        text_body: entry.mail.text,
        html_body: entry.mail.html,
        created_at: now,
        next_attempt_at: now,
      })),
    )
    .onConflict((oc) => oc.column('cause').doNothing())
    .returning('id')
    .execute();
  if (queued.length > 0) await sql`select pg_notify(${MAIL_OUTBOX_CHANNEL}, '')`.execute(db);
  return queued.length;
}

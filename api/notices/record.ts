import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { NoticeKind } from '../contracts/notifications';
import type { Database } from '../database';
import { enqueueMails, type MailEntry } from '../mail/outbox';
import type { AppLinks } from '../mail/links';
import { lotNoticeMail } from './wording';

/** Every process's live feed listens here: a notice made by any process reaches its recipient's sockets. */
export const NOTICES_CHANNEL = 'notices';

export interface NewNotice {
  readonly recipientId: string;
  readonly kind: NoticeKind;
  readonly listingId: string | null;
  readonly auctionId: string | null;
  readonly title: string;
  readonly body: string;
  readonly link: string | null;
  /** What made it: a second notice with the same cause is not made. */
  readonly cause: string;
  /** The mail about it, if any, is queued under this cause (several notices may share one mail's cause). */
  readonly mailCause?: string;
}

/**
 * Records notices in the caller's transaction; those already made (same cause) are left out.
 * Resolves to the ones made now, and tells every live feed.
 */
export async function recordNotices(db: Kysely<Database>, notices: readonly NewNotice[], now: Date): Promise<NewNotice[]> {
  if (notices.length === 0) return [];
  const made = await db
    .insertInto('notifications')
    .values(
      notices.map((notice) => ({
        id: randomUUID(),
        recipient_id: notice.recipientId,
        kind: notice.kind,
        listing_id: notice.listingId,
        auction_id: notice.auctionId,
        title: notice.title,
        body: notice.body,
        link: notice.link,
        cause: notice.cause,
        created_at: now,
      })),
    )
    .onConflict((oc) => oc.column('cause').doNothing())
    .returning('cause')
    .execute();
  if (made.length === 0) return [];
  await sql`select pg_notify(${NOTICES_CHANNEL}, '')`.execute(db);
  const causes = new Set(made.map((row) => row.cause));
  return notices.filter((notice) => causes.has(notice.cause));
}

/** Kinds whose mail the user may turn off ("transactional opt-out"); the notice in the app stays. */
const OPTIONAL_MAIL: ReadonlySet<NoticeKind> = new Set(['OUTBID', 'ENDING_SOON']);

/** Queues the mail of each notice about a lot, in the caller's transaction, to recipients whose account is active and who want it. */
export async function mailLotNotices(db: Kysely<Database>, links: AppLinks, notices: readonly NewNotice[], now: Date): Promise<void> {
  if (notices.length === 0) return;
  const recipients = await db
    .selectFrom('users')
    .select(['id', 'email', 'first_name', 'status', 'transactional_opt_out'])
    .where('id', 'in', [...new Set(notices.map((notice) => notice.recipientId))])
    .execute();
  const byId = new Map(recipients.map((user) => [user.id, user]));
  const entries = new Map<string, MailEntry>();
  for (const notice of notices) {
    const user = byId.get(notice.recipientId);
    if (!user || user.status !== 'ACTIVE') continue;
    if (OPTIONAL_MAIL.has(notice.kind) && user.transactional_opt_out) continue;
    const cause = notice.mailCause ?? `mail:${notice.cause}`;
    // Notices sharing a mail's cause (outbids within its interval) make one mail: the first.
    if (!entries.has(cause)) entries.set(cause, { cause, mail: lotNoticeMail(links, { email: user.email, firstName: user.first_name }, notice) });
  }
  await enqueueMails(db, [...entries.values()], now);
}

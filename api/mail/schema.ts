import type { ColumnType } from 'kysely';

type Timestamp = ColumnType<Date, Date | string, Date | string>;

/** Mail waiting to be sent, being retried, sent or given up on: written in the transaction that decides to send it. */
export interface MailOutboxTable {
  id: string;
  /** What the mail is for, unique: a mail is queued once however often its cause is seen. */
  cause: string;
  recipient: string;
  subject: string;
  text_body: string;
  html_body: string;
  created_at: Timestamp;
  attempts: ColumnType<number, number | undefined, number>;
  next_attempt_at: Timestamp;
  /** A sender is at it until then; past it, another may take the mail. */
  claimed_until: Timestamp | null;
  sent_at: Timestamp | null;
  /** Given up after the last attempt: shown at GET /api/admin/mail. */
  failed_at: Timestamp | null;
  last_error: string | null;
}

export interface MailTables {
  mail_outbox: MailOutboxTable;
}

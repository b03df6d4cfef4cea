import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../database';
import type { AccountTokenPurpose } from './schema';
import { digest } from './digest';

/** How long each kind of mailed link works. */
export const ACCOUNT_TOKEN_LIFETIME_MS: Readonly<Record<AccountTokenPurpose, number>> = {
  PASSWORD_RESET: 30 * 60_000,
  EMAIL_VERIFICATION: 48 * 60 * 60_000,
  EMAIL_CHANGE: 24 * 60 * 60_000,
};

/** Why a presented token does nothing. STALE: mailed to an address the account no longer uses. */
export type RefusedToken = 'UNKNOWN' | 'USED' | 'EXPIRED' | 'STALE';

export class AccountTokenRefusedError extends Error {
  override readonly name = 'AccountTokenRefusedError';
  constructor(readonly reason: RefusedToken) {
    super(`account token ${reason.toLowerCase()}`);
  }
}

/**
 * A new one-time link token (256 random bits, base64url) for `purpose`, mailed to `email`. Only
 * its hash is stored. The user's earlier unused tokens of the same purpose stop working: the
 * newest link is the one that counts.
 */
export async function issueAccountToken(db: Kysely<Database>, grant: { userId: string; purpose: AccountTokenPurpose; email: string }, now: Date): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db.updateTable('account_tokens').set({ used_at: now }).where('user_id', '=', grant.userId).where('purpose', '=', grant.purpose).where('used_at', 'is', null).execute();
  await db
    .insertInto('account_tokens')
    .values({
      token_hash: digest(token),
      user_id: grant.userId,
      purpose: grant.purpose,
      email: grant.email,
      created_at: now,
      expires_at: new Date(now.getTime() + ACCOUNT_TOKEN_LIFETIME_MS[grant.purpose]),
      used_at: null,
    })
    .execute();
  return token;
}

/**
 * Uses a token up, inside the caller's transaction (the row stays locked until it commits, so a
 * token works once even when presented twice at the same moment). Throws AccountTokenRefusedError.
 */
export async function consumeAccountToken(
  trx: Kysely<Database>,
  token: string,
  purposes: readonly AccountTokenPurpose[],
  now: Date,
): Promise<{ userId: string; purpose: AccountTokenPurpose; email: string }> {
  const row = await trx.selectFrom('account_tokens').selectAll().where('token_hash', '=', digest(token)).forUpdate().executeTakeFirst();
  if (!row || !purposes.includes(row.purpose)) throw new AccountTokenRefusedError('UNKNOWN');
  if (row.used_at !== null) throw new AccountTokenRefusedError('USED');
  if (new Date(row.expires_at).getTime() <= now.getTime()) throw new AccountTokenRefusedError('EXPIRED');
  await trx.updateTable('account_tokens').set({ used_at: now }).where('token_hash', '=', row.token_hash).execute();
  return { userId: row.user_id, purpose: row.purpose, email: row.email };
}

/**
 * Every link of the account not used yet stops working: when its sessions end (a new password) or
 * its address changes, a link asked for before (by whoever held a session or the old mailbox) must
 * not outlive that.
 */
export async function voidAccountTokens(db: Kysely<Database>, userId: string, now: Date): Promise<void> {
  await db.updateTable('account_tokens').set({ used_at: now }).where('user_id', '=', userId).where('used_at', 'is', null).execute();
}

/** The new address of an email change asked for and not confirmed yet, if any. */
export async function pendingEmailOf(db: Kysely<Database>, userId: string, now: Date): Promise<string | null> {
  const row = await db
    .selectFrom('account_tokens')
    .select('email')
    .where('user_id', '=', userId)
    .where('purpose', '=', 'EMAIL_CHANGE')
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.email ?? null;
}

import { randomBytes, randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../database';
import type { SessionTokens } from '../contracts/accounts';
import type { AccountAccessCache } from './account-access';
import { voidAccountTokens } from './account-tokens';
import { digest } from './digest';
import type { Role, User } from './schema';

/** Seconds an access token lives; the client refreshes 300 s before it ends. */
export const ACCESS_TOKEN_SECONDS = 3600;
const REFRESH_TOKEN_DAYS = 30;

export interface AccessClaims {
  sub: string;
  roles: Role[];
  /** The account's session version when issued: ending all sessions raises it. */
  sv: number;
}

export type SignAccessToken = (claims: AccessClaims, expiresInSeconds: number) => string;

export class InvalidRefreshTokenError extends Error {
  override readonly name = 'InvalidRefreshTokenError';
}


/** Starts a session: a new refresh-token family. */
export async function startSession(db: Kysely<Database>, sign: SignAccessToken, user: User, now = new Date()): Promise<SessionTokens> {
  const refreshToken = await storeRefreshToken(db, user.id, randomUUID(), now);
  return { accessToken: sign({ sub: user.id, roles: user.roles, sv: user.session_version }, ACCESS_TOKEN_SECONDS), refreshToken, expiresIn: ACCESS_TOKEN_SECONDS };
}

/**
 * Trades a refresh token for a new pair. Each token works once: presenting one that was already
 * rotated means it leaked, so the whole family (every session descended from that sign-in) ends.
 */
export async function rotateSession(db: Kysely<Database>, sign: SignAccessToken, refreshToken: string, now = new Date()): Promise<SessionTokens> {
  const outcome = await db.transaction().execute(async (trx) => {
    const stored = await trx.selectFrom('refresh_tokens').selectAll().where('token_hash', '=', digest(refreshToken)).forUpdate().executeTakeFirst();
    if (!stored || stored.revoked_at !== null || new Date(stored.expires_at) <= now) return { kind: 'invalid' as const };
    if (stored.rotated_at !== null) {
      await trx.updateTable('refresh_tokens').set({ revoked_at: now }).where('family_id', '=', stored.family_id).where('revoked_at', 'is', null).execute();
      return { kind: 'reused' as const, userId: stored.user_id, familyId: stored.family_id };
    }
    const user = await trx.selectFrom('users').selectAll().where('id', '=', stored.user_id).executeTakeFirst();
    if (!user || user.status !== 'ACTIVE') return { kind: 'invalid' as const };
    await trx.updateTable('refresh_tokens').set({ rotated_at: now }).where('id', '=', stored.id).execute();
    const next = await storeRefreshToken(trx, user.id, stored.family_id, now);
    return { kind: 'rotated' as const, user, refreshToken: next };
  });
  if (outcome.kind === 'reused') {
    await db
      .insertInto('security_log')
      .values({ user_id: outcome.userId, actor_id: null, kind: 'REFRESH_TOKEN_REUSED', details: JSON.stringify({ familyId: outcome.familyId }), at: now })
      .execute();
  }
  if (outcome.kind !== 'rotated') throw new InvalidRefreshTokenError('Invalid refresh token');
  return {
    accessToken: sign({ sub: outcome.user.id, roles: outcome.user.roles, sv: outcome.user.session_version }, ACCESS_TOKEN_SECONDS),
    refreshToken: outcome.refreshToken,
    expiresIn: ACCESS_TOKEN_SECONDS,
  };
}

/**
 * Logout: ends the session the refresh token belongs to. Unknown tokens are ignored, and so are
 * another user's when `ownerId` says whose session it must be.
 */
export async function endSession(db: Kysely<Database>, refreshToken: string, now = new Date(), ownerId?: string): Promise<void> {
  const stored = await db.selectFrom('refresh_tokens').select(['family_id', 'user_id']).where('token_hash', '=', digest(refreshToken)).executeTakeFirst();
  if (!stored || (ownerId !== undefined && stored.user_id !== ownerId)) return;
  await db.updateTable('refresh_tokens').set({ revoked_at: now }).where('family_id', '=', stored.family_id).where('revoked_at', 'is', null).execute();
}

/** Ends every session of a user: refresh tokens revoked, access tokens refused from now on. */
export async function endAllSessions(db: Kysely<Database>, accountAccess: Pick<AccountAccessCache, 'forget'>, userId: string, now = new Date()): Promise<void> {
  await db.transaction().execute((trx) => revokeAllSessions(trx, userId, now));
  accountAccess.forget(userId);
}

/**
 * What `endAllSessions` does, inside a transaction the caller already holds, so that ending the
 * sessions commits together with the change that calls for it (a new password); the account's
 * unused mailed links stop working too. The caller tells the account access cache once that
 * transaction has committed.
 */
export async function revokeAllSessions(trx: Transaction<Database>, userId: string, now: Date): Promise<void> {
  await trx.updateTable('refresh_tokens').set({ revoked_at: now }).where('user_id', '=', userId).where('revoked_at', 'is', null).execute();
  // A link asked for through a session that has now ended (an email change) ends with it.
  await voidAccountTokens(trx, userId, now);
  await trx
    .updateTable('users')
    .set((eb) => ({ session_version: eb('session_version', '+', 1), updated_at: now }))
    .where('id', '=', userId)
    .execute();
}

async function storeRefreshToken(db: Kysely<Database>, userId: string, familyId: string, now: Date): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db
    .insertInto('refresh_tokens')
    .values({
      id: randomUUID(),
      user_id: userId,
      family_id: familyId,
      token_hash: digest(token),
      expires_at: new Date(now.getTime() + REFRESH_TOKEN_DAYS * 86_400_000),
      rotated_at: null,
      revoked_at: null,
      created_at: now,
    })
    .execute();
  return token;
}

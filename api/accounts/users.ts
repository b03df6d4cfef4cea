import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../database';
import type { AccountAccessCache } from './account-access';
import { hashPassword } from './passwords';
import { revokeAllSessions } from './sessions';
import type { Role, User } from './schema';

export type { User };

export class EmailTakenError extends Error {
  override readonly name = 'EmailTakenError';
  constructor() {
    super('An account with this email already exists');
  }
}

/** Far above any real password; keeps absurd inputs away from argon2. Sign-in refuses longer ones. */

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export async function findUserByEmail(db: Kysely<Database>, email: string): Promise<User | undefined> {
  return db.selectFrom('users').selectAll().where((eb) => eb(eb.fn('lower', ['email']), '=', normalizeEmail(email))).executeTakeFirst();
}

export async function findUserById(db: Kysely<Database>, id: string): Promise<User | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

export interface NewUser {
  readonly email: string;
  readonly password: string;
  readonly firstName: string;
  readonly lastName: string;
  readonly roles: readonly Role[];
  readonly phone?: string | null;
  /** Set up by an operator (demo accounts, the seeded admin, npm run user:create): no link to follow. */
  readonly emailVerified?: boolean;
}

/** Creates an account; the password is checked against the rules by the caller. */
export async function createUser(db: Kysely<Database>, input: NewUser, now = new Date()): Promise<User> {
  const passwordHash = await hashPassword(input.password);
  try {
    return await db
      .insertInto('users')
      .values({
        id: randomUUID(),
        email: normalizeEmail(input.email),
        first_name: input.firstName.trim(),
        last_name: input.lastName.trim(),
        phone: input.phone ?? null,
        password_hash: passwordHash,
        roles: JSON.stringify(input.roles),
        status: 'ACTIVE',
        email_verified_at: input.emailVerified ? now : null,
        created_at: now,
        updated_at: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  } catch (error) {
    if (isUniqueViolation(error)) throw new EmailTakenError();
    throw error;
  }
}

/** The fields a user edits on their profile; a null phone clears it. */
export interface ProfileChange {
  readonly firstName: string;
  readonly lastName: string;
  readonly phone: string | null;
  /** Mail preferences; undefined leaves each as it is. */
  readonly marketingOptIn?: boolean | undefined;
  readonly transactionalOptOut?: boolean | undefined;
}

/** undefined when there is no such account. */
export async function updateProfile(db: Kysely<Database>, userId: string, change: ProfileChange, now = new Date()): Promise<User | undefined> {
  return db
    .updateTable('users')
    .set({
      first_name: change.firstName,
      last_name: change.lastName,
      phone: change.phone,
      ...(change.marketingOptIn === undefined ? {} : { marketing_opt_in: change.marketingOptIn }),
      ...(change.transactionalOptOut === undefined ? {} : { transactional_opt_out: change.transactionalOptOut }),
      updated_at: now,
    })
    .where('id', '=', userId)
    .returningAll()
    .executeTakeFirst();
}

/**
 * Sets a new password (checked against the rules by the caller) and, in the same transaction,
 * ends every session of the account and logs the change with who made it.
 */
export async function changePassword(
  db: Kysely<Database>,
  accountAccess: Pick<AccountAccessCache, 'forget'>,
  change: { userId: string; newPassword: string; actorId: string },
  now = new Date(),
  /** More to commit with the change (telling the owner of it). */
  alsoInTransaction?: (trx: Kysely<Database>) => Promise<void>,
): Promise<void> {
  const passwordHash = await hashPassword(change.newPassword);
  await db.transaction().execute(async (trx) => {
    await trx.updateTable('users').set({ password_hash: passwordHash, updated_at: now }).where('id', '=', change.userId).execute();
    await revokeAllSessions(trx, change.userId, now);
    await logSecurityEvent(trx, { userId: change.userId, actorId: change.actorId, kind: 'PASSWORD_CHANGED' }, now);
    await alsoInTransaction?.(trx);
  });
  accountAccess.forget(change.userId);
}

export function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: string } | null)?.code === '23505';
}

/** Security-relevant changes to accounts are logged even though accounts are not event-sourced. */
export async function logSecurityEvent(
  db: Kysely<Database>,
  entry: { userId: string; actorId: string | null; kind: string; details?: Record<string, unknown> },
  now = new Date(),
): Promise<void> {
  await db
    .insertInto('security_log')
    .values({ user_id: entry.userId, actor_id: entry.actorId, kind: entry.kind, details: JSON.stringify(entry.details ?? {}), at: now })
    .execute();
}

/**
 * Sets a user's whole set of roles and, in the same transaction, logs the change with who made it
 * (nothing is logged when the set is unchanged). The roles apply to the next request, even with
 * an access token issued before: authentication takes roles from the account. Undefined for an
 * unknown user.
 */
export async function changeRoles(
  db: Kysely<Database>,
  accountAccess: Pick<AccountAccessCache, 'forget'>,
  change: { userId: string; roles: readonly Role[]; actorId: string },
  now = new Date(),
): Promise<User | undefined> {
  const user = await db.transaction().execute(async (trx) => {
    const user = await trx.selectFrom('users').selectAll().where('id', '=', change.userId).forUpdate().executeTakeFirst();
    if (!user) return undefined;
    const roles = [...new Set(change.roles)].sort();
    const previous = [...user.roles].sort();
    if (roles.join() === previous.join()) return user;
    const updated = await trx.updateTable('users').set({ roles: JSON.stringify(roles), updated_at: now }).where('id', '=', change.userId).returningAll().executeTakeFirstOrThrow();
    await logSecurityEvent(trx, { userId: change.userId, actorId: change.actorId, kind: 'ROLES_CHANGED', details: { from: previous, to: roles } }, now);
    return updated;
  });
  accountAccess.forget(change.userId);
  return user;
}

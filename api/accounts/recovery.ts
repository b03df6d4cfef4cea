import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../database';
import type { AppLinks } from '../mail/links';
import { enqueueMail } from '../mail/outbox';
import type { OutgoingMail } from '../mail/transport';
import { recordNotices } from '../notices/record';
import type { AccountAccessCache } from './account-access';
import { emailChangedMail, emailChangeMail, emailChangeRequestedMail, passwordChangedMail, passwordResetMail, verificationMail } from './account-mail';
import { AccountTokenRefusedError, consumeAccountToken, issueAccountToken, voidAccountTokens } from './account-tokens';
import { hashPassword } from './passwords';
import { revokeAllSessions } from './sessions';
import { EmailTakenError, findUserByEmail, isUniqueViolation, logSecurityEvent, normalizeEmail, type User } from './users';

/**
 * Accounts people can recover: password resets and verified addresses, each through a one-time
 * link mailed to the address (account-tokens.ts). Every change commits together with its mail in
 * the outbox and its entry in the security log.
 */

/** Account mail has no event behind it: each is its own cause. */
function queueAccountMail(db: Kysely<Database>, mail: OutgoingMail, now: Date): Promise<boolean> {
  return enqueueMail(db, { cause: `account:${randomUUID()}`, mail }, now);
}

/** Mails a reset link when an active account uses `email`; does nothing otherwise (the caller answers the same either way). */
export async function requestPasswordReset(db: Kysely<Database>, links: AppLinks, email: string, now: Date): Promise<void> {
  const user = await findUserByEmail(db, email);
  if (!user || user.status !== 'ACTIVE') return;
  await db.transaction().execute(async (trx) => {
    const token = await issueAccountToken(trx, { userId: user.id, purpose: 'PASSWORD_RESET', email: user.email }, now);
    await queueAccountMail(trx, passwordResetMail(links, { email: user.email, firstName: user.first_name }, token), now);
    await logSecurityEvent(trx, { userId: user.id, actorId: null, kind: 'PASSWORD_RESET_REQUESTED' }, now);
  });
}

/**
 * Sets a new password (checked against the rules by the caller) from a reset link: the token is
 * used up, every session of the account ends, and the owner is told. Following the link also
 * proves the address is theirs. Throws AccountTokenRefusedError.
 */
export async function resetPassword(db: Kysely<Database>, accountAccess: Pick<AccountAccessCache, 'forget'>, links: AppLinks, token: string, newPassword: string, now: Date): Promise<void> {
  const passwordHash = await hashPassword(newPassword);
  const userId = await db.transaction().execute(async (trx) => {
    const grant = await consumeAccountToken(trx, token, ['PASSWORD_RESET'], now);
    const user = await trx.selectFrom('users').selectAll().where('id', '=', grant.userId).forUpdate().executeTakeFirst();
    if (!user || user.status !== 'ACTIVE') throw new AccountTokenRefusedError('UNKNOWN');
    // Whoever holds a mailbox the account has left holds no power over it.
    if (normalizeEmail(grant.email) !== normalizeEmail(user.email)) throw new AccountTokenRefusedError('STALE');
    await trx
      .updateTable('users')
      .set({ password_hash: passwordHash, updated_at: now, ...(user.email_verified_at === null ? { email_verified_at: now } : {}) })
      .where('id', '=', user.id)
      .execute();
    await revokeAllSessions(trx, user.id, now);
    await logSecurityEvent(trx, { userId: user.id, actorId: user.id, kind: 'PASSWORD_RESET' }, now);
    await tellOfPasswordChange(trx, links, user, now);
    return user.id;
  });
  accountAccess.forget(userId);
}

/** The owner hears of a new password in the app and by mail, whoever changed it and however. */
export async function tellOfPasswordChange(db: Kysely<Database>, links: AppLinks, user: Pick<User, 'id' | 'email' | 'first_name'>, now: Date): Promise<void> {
  await recordNotices(
    db,
    [
      {
        recipientId: user.id,
        kind: 'PASSWORD_CHANGED',
        listingId: null,
        auctionId: null,
        title: 'Your password was changed',
        body: 'Every device was signed out. If this was not you, reset your password at once.',
        link: null,
        cause: `PASSWORD_CHANGED:${randomUUID()}`,
      },
    ],
    now,
  );
  await queueAccountMail(db, passwordChangedMail(links, { email: user.email, firstName: user.first_name }), now);
}

/** Mails a link that confirms the account's current address. */
export async function sendVerificationMail(db: Kysely<Database>, links: AppLinks, user: Pick<User, 'id' | 'email' | 'first_name'>, now: Date): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const token = await issueAccountToken(trx, { userId: user.id, purpose: 'EMAIL_VERIFICATION', email: user.email }, now);
    await queueAccountMail(trx, verificationMail(links, { email: user.email, firstName: user.first_name }, token), now);
  });
}

/**
 * Asks to move an account to another address: a link goes to the new address, and nothing changes
 * until it is followed. The current address hears of it at once: someone using a stolen session
 * cannot move the account quietly, and a new password (which ends every session) voids the link.
 * Throws EmailTakenError when another account uses the address.
 */
export async function requestEmailChange(db: Kysely<Database>, links: AppLinks, change: { user: User; newEmail: string; actorId: string }, now: Date): Promise<void> {
  const newEmail = normalizeEmail(change.newEmail);
  const holder = await findUserByEmail(db, newEmail);
  if (holder && holder.id !== change.user.id) throw new EmailTakenError();
  await db.transaction().execute(async (trx) => {
    const token = await issueAccountToken(trx, { userId: change.user.id, purpose: 'EMAIL_CHANGE', email: newEmail }, now);
    await queueAccountMail(trx, emailChangeMail(links, { email: change.user.email, firstName: change.user.first_name, newEmail }, token), now);
    await queueAccountMail(trx, emailChangeRequestedMail(links, { email: change.user.email, firstName: change.user.first_name, newEmail }), now);
    await logSecurityEvent(trx, { userId: change.user.id, actorId: change.actorId, kind: 'EMAIL_CHANGE_REQUESTED', details: { newEmail } }, now);
  });
}

/**
 * Follows a mailed email link: a verification marks the address verified; a change moves the
 * account to the new (now verified) address and tells the old one. A verification link for an
 * address the account no longer uses does nothing. Throws AccountTokenRefusedError, EmailTakenError.
 */
export async function confirmEmail(db: Kysely<Database>, accountAccess: Pick<AccountAccessCache, 'forget'>, links: AppLinks, token: string, now: Date): Promise<void> {
  try {
    const userId = await db.transaction().execute(async (trx) => {
      const grant = await consumeAccountToken(trx, token, ['EMAIL_VERIFICATION', 'EMAIL_CHANGE'], now);
      const user = await trx.selectFrom('users').selectAll().where('id', '=', grant.userId).forUpdate().executeTakeFirst();
      if (!user || user.status !== 'ACTIVE') throw new AccountTokenRefusedError('UNKNOWN');
      if (grant.purpose === 'EMAIL_VERIFICATION') {
        if (normalizeEmail(grant.email) !== normalizeEmail(user.email)) throw new AccountTokenRefusedError('STALE');
        await trx.updateTable('users').set({ email_verified_at: user.email_verified_at ?? now }).where('id', '=', user.id).execute();
        return user.id;
      }
      const newEmail = normalizeEmail(grant.email);
      await trx.updateTable('users').set({ email: newEmail, email_verified_at: now, updated_at: now }).where('id', '=', user.id).execute();
      // Links mailed to the old address (a reset) stop working with it.
      await voidAccountTokens(trx, user.id, now);
      await logSecurityEvent(trx, { userId: user.id, actorId: user.id, kind: 'EMAIL_CHANGED', details: { previousEmail: user.email, newEmail } }, now);
      await queueAccountMail(trx, emailChangedMail(links, { email: newEmail, firstName: user.first_name, newEmail, previousEmail: user.email }), now);
      await recordNotices(
        trx,
        [
          {
            recipientId: user.id,
            kind: 'EMAIL_CHANGED',
            listingId: null,
            auctionId: null,
            title: 'Your email address was changed',
            body: `You now sign in with ${newEmail}. ${user.email} was told of the change.`,
            link: null,
            cause: `EMAIL_CHANGED:${randomUUID()}`,
          },
        ],
        now,
      );
      return user.id;
    });
    accountAccess.forget(userId);
  } catch (error) {
    // The unique index on lower(email) decides a race with another account taking the address.
    if (isUniqueViolation(error)) throw new EmailTakenError();
    throw error;
  }
}

import type { Kysely } from 'kysely';
import type { Database } from '../database';
import { MAX_PASSWORD_LENGTH, passwordProblem } from '../contracts/account-rules';
import { createUser, EmailTakenError, findUserByEmail, logSecurityEvent } from './users';

export type EnsureAdminOutcome =
  | { readonly created: true; readonly userId: string }
  /** `hasAdminRole` false: the email belongs to an account without ADMIN, left as it is. */
  | { readonly created: false; readonly userId: string; readonly hasAdminRole: boolean };

/**
 * The first administrator (SEED_ADMIN_EMAIL / SEED_ADMIN_PASSWORD): created when no account has
 * that email. An existing account is never changed: neither its password nor its roles, so a
 * configured email cannot silently turn someone's buyer account into an admin; the caller logs it.
 * Safe to call from several processes at once: the unique email index lets one of them create it.
 */
export async function ensureAdmin(db: Kysely<Database>, admin: { email: string; password: string }, now = new Date()): Promise<EnsureAdminOutcome> {
  const existing = await findUserByEmail(db, admin.email);
  if (existing) return { created: false, userId: existing.id, hasAdminRole: existing.roles.includes('ADMIN') };
  const problem = passwordProblem(admin.password);
  if (problem) throw new Error(`The seed admin's password is too weak. ${problem}`);
  if (admin.password.length > MAX_PASSWORD_LENGTH) throw new Error(`The seed admin's password is longer than ${MAX_PASSWORD_LENGTH} characters, which sign-in refuses`);
  try {
    const user = await createUser(db, { email: admin.email, password: admin.password, firstName: 'Provenance', lastName: 'Admin', roles: ['ADMIN', 'BUYER'], emailVerified: true }, now);
    await logSecurityEvent(db, { userId: user.id, actorId: null, kind: 'ACCOUNT_CREATED', details: { roles: user.roles, via: 'seed-admin' } }, now);
    return { created: true, userId: user.id };
  } catch (error) {
    if (!(error instanceof EmailTakenError)) throw error;
    const winner = await findUserByEmail(db, admin.email);
    if (!winner) throw error;
    return { created: false, userId: winner.id, hasAdminRole: winner.roles.includes('ADMIN') };
  }
}

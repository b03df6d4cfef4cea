import { randomUUID } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../database';
import { hashPassword } from './passwords';
import type { Role, UsersTable } from './schema';

export type User = Selectable<UsersTable>;

export class EmailTakenError extends Error {
  override readonly name = 'EmailTakenError';
  constructor() {
    super('An account with this email already exists');
  }
}

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
        created_at: now,
        updated_at: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  } catch (error) {
    if ((error as { code?: string }).code === '23505') throw new EmailTakenError();
    throw error;
  }
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

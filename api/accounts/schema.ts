import type { ColumnType, Generated, JSONColumnType, Selectable } from 'kysely';
import type { Role } from '../contracts/accounts';

type Timestamp = ColumnType<Date, Date | string, Date | string>;

export type { Role };

export interface UsersTable {
  id: string;
  email: string;
  first_name: string;
  last_name: string;
  phone: string | null;
  password_hash: string;
  roles: JSONColumnType<Role[]>;
  status: 'ACTIVE' | 'DISABLED';
  marketing_opt_in: ColumnType<boolean, boolean | undefined, boolean>;
  transactional_opt_out: ColumnType<boolean, boolean | undefined, boolean>;
  session_version: ColumnType<number, number | undefined, number>;
  /** When the owner followed the link mailed to `email`; null until then (and again after a change). */
  email_verified_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** A user as read from the users table. */
export type User = Selectable<UsersTable>;

export interface RefreshTokensTable {
  id: string;
  user_id: string;
  family_id: string;
  token_hash: string;
  expires_at: Timestamp;
  rotated_at: Timestamp | null;
  revoked_at: Timestamp | null;
  created_at: Timestamp;
}

export interface SecurityLogTable {
  id: Generated<string | number>;
  user_id: string;
  actor_id: string | null;
  kind: string;
  details: JSONColumnType<Record<string, unknown>>;
  at: Timestamp;
}

export interface IdempotencyKeysTable {
  user_id: string;
  key: string;
  request_hash: string;
  status_code: number;
  body: JSONColumnType<object>;
  created_at: Timestamp;
}

/** What a mailed one-time link is for. */
export type AccountTokenPurpose = 'PASSWORD_RESET' | 'EMAIL_VERIFICATION' | 'EMAIL_CHANGE';

/** One-time links mailed to a user: only the token's SHA-256 is kept. */
export interface AccountTokensTable {
  token_hash: string;
  user_id: string;
  purpose: AccountTokenPurpose;
  /** The address the link was mailed to: the one to verify, or the new one of an email change. */
  email: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: Timestamp | null;
}

export interface AccountTables {
  account_tokens: AccountTokensTable;
  users: UsersTable;
  refresh_tokens: RefreshTokensTable;
  security_log: SecurityLogTable;
  idempotency_keys: IdempotencyKeysTable;
}

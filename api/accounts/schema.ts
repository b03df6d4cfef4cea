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

export interface AccountTables {
  users: UsersTable;
  refresh_tokens: RefreshTokensTable;
  security_log: SecurityLogTable;
  idempotency_keys: IdempotencyKeysTable;
}

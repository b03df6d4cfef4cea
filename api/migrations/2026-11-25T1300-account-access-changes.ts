import { sql, type Kysely } from 'kysely';

/**
 * Every API process keeps each account's status, roles and session version in memory
 * (api/accounts/account-access.ts); this trigger tells them all when one changes, by whatever
 * writes it: the API, a script, or an operator disabling an account by hand.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE FUNCTION announce_account_access_change() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify('provenance_account_access', '');
      RETURN NULL;
    END
    $$`.execute(db);
  await sql`
    CREATE TRIGGER users_account_access_changed
    AFTER UPDATE OF status, roles, session_version OR DELETE ON users
    FOR EACH STATEMENT EXECUTE FUNCTION announce_account_access_change()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TRIGGER IF EXISTS users_account_access_changed ON users`.execute(db);
  await sql`DROP FUNCTION IF EXISTS announce_account_access_change()`.execute(db);
}

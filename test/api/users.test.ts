import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureAdmin } from '../../api/accounts/seed-admin';
import { verifyPassword } from '../../api/accounts/passwords';
import { findUserByEmail } from '../../api/accounts/users';
import { PGliteClient } from '../../engine/postgres/sql-client';
import { API_BACKENDS, startTestApi, type TestApi } from '../support/api';

const NEW_PASSWORD = 'N3w!Passw0rd';

function uniqueEmail(prefix = 'user'): string {
  return `${prefix}-${randomUUID().slice(0, 8)}@example.com`;
}

describe.each(API_BACKENDS)('user profiles on %s', (backend) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startTestApi(backend);
  });
  afterAll(async () => api.close());

  async function securityLog(userId: string) {
    return api.deps.db.selectFrom('security_log').select(['kind', 'actor_id', 'details']).where('user_id', '=', userId).orderBy('id').execute();
  }

  describe('who may use the routes', () => {
    it('answers 401 to anonymous callers on every route, whatever the body', async () => {
      const { user } = await api.signUp('BUYER');
      const calls: Array<[string, string, unknown]> = [
        ['GET', `/api/v1/users/${user.id}/profile`, undefined],
        ['PUT', `/api/v1/users/${user.id}/profile`, { firstName: 'A', lastName: 'B' }],
        ['PUT', `/api/v1/users/${user.id}/profile`, '{not json'],
        ['PUT', `/api/v1/users/${user.id}/email`, { newEmail: uniqueEmail() }],
        ['PUT', `/api/v1/users/${user.id}/password`, { currentPassword: 'x', newPassword: NEW_PASSWORD }],
      ];
      for (const [method, path, body] of calls) {
        const response = await api.call(method, path, { body });
        expect({ method, path, status: response.status, body: response.body }).toEqual({
          method,
          path,
          status: 401,
          body: { statusCode: 401, error: 'Unauthorized', message: 'Authentication required', code: 'UNAUTHENTICATED' },
        });
        const badToken = await api.call(method, path, { body, token: 'not.a.token' });
        expect(badToken.status).toBe(401);
      }
    });

    it("answers 403 \"Access denied\" to a buyer on another user's routes, whether or not the id exists", async () => {
      const buyer = await api.signUp('BUYER');
      const other = await api.signUp('BUYER');
      for (const userId of [other.user.id, randomUUID()]) {
        const calls: Array<[string, string, unknown]> = [
          ['GET', `/api/v1/users/${userId}/profile`, undefined],
          ['PUT', `/api/v1/users/${userId}/profile`, { firstName: 'Mallory', lastName: 'X' }],
          ['PUT', `/api/v1/users/${userId}/profile`, { unknownField: true }],
          ['PUT', `/api/v1/users/${userId}/email`, { newEmail: uniqueEmail('stolen') }],
          ['PUT', `/api/v1/users/${userId}/password`, { currentPassword: other.password, newPassword: NEW_PASSWORD }],
        ];
        for (const [method, path, body] of calls) {
          const response = await api.call(method, path, { body, token: buyer.tokens.accessToken });
          expect({ method, path, status: response.status, body: response.body }).toEqual({
            method,
            path,
            status: 403,
            body: { statusCode: 403, error: 'Forbidden', message: 'Access denied', code: 'FORBIDDEN' },
          });
        }
      }
      const untouched = await api.call('GET', `/api/v1/users/${other.user.id}/profile`, { token: other.tokens.accessToken });
      expect(untouched.body).toMatchObject({ firstName: 'Test', email: other.user.email });
    });

    it('lets an admin read any profile, and answers 404 "User not found" for an unknown id', async () => {
      const admin = await api.signUp('ADMIN');
      const buyer = await api.signUp('BUYER');
      const found = await api.call('GET', `/api/v1/users/${buyer.user.id}/profile`, { token: admin.tokens.accessToken });
      expect(found.status).toBe(200);
      expect(found.body.id).toBe(buyer.user.id);
      const missing = await api.call('GET', `/api/v1/users/${randomUUID()}/profile`, { token: admin.tokens.accessToken });
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual({ statusCode: 404, error: 'Not Found', message: 'User not found', code: 'USER_NOT_FOUND' });
    });
  });

  describe('GET /api/v1/users/{userId}/profile', () => {
    it('answers the profile (id, email, names, phone, status, roles, createdAt, opt-ins) and nothing about credentials', async () => {
      const { user, tokens } = await api.signUp('BUYER', { firstName: 'Grace', lastName: 'Hopper' });
      const response = await api.call('GET', `/api/v1/users/${user.id}/profile`, { token: tokens.accessToken });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        id: user.id,
        email: user.email,
        firstName: 'Grace',
        lastName: 'Hopper',
        phone: null,
        status: 'ACTIVE',
        roles: ['BUYER'],
        createdAt: new Date(user.created_at).toISOString(),
        marketingOptIn: false,
        transactionalOptOut: false,
        emailVerified: false,
        pendingEmail: null,
      });
    });

    it("answers an admin's own profile with both roles", async () => {
      const { user, tokens } = await api.signUp('ADMIN');
      const response = await api.call('GET', `/api/v1/users/${user.id}/profile`, { token: tokens.accessToken });
      expect(response.body.roles).toEqual(['ADMIN', 'BUYER']);
    });
  });

  describe('PUT /api/v1/users/{userId}/profile', () => {
    it('changes names (trimmed) and phone, and answers the updated profile', async () => {
      const { user, tokens } = await api.signUp('BUYER');
      const response = await api.call('PUT', `/api/v1/users/${user.id}/profile`, {
        token: tokens.accessToken,
        body: { firstName: '  Katherine ', lastName: ' Johnson ', phone: ' +1 (555) 010-2030 ' },
      });
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ id: user.id, email: user.email, firstName: 'Katherine', lastName: 'Johnson', phone: '+1 (555) 010-2030' });
      const read = await api.call('GET', `/api/v1/users/${user.id}/profile`, { token: tokens.accessToken });
      expect(read.body).toEqual(response.body);

      const cleared = await api.call('PUT', `/api/v1/users/${user.id}/profile`, { token: tokens.accessToken, body: { firstName: 'Katherine', lastName: 'Johnson', phone: null } });
      expect(cleared.body.phone).toBeNull();
      const blank = await api.call('PUT', `/api/v1/users/${user.id}/profile`, { token: tokens.accessToken, body: { firstName: 'Katherine', lastName: 'Johnson', phone: '  ' } });
      expect(blank.body.phone).toBeNull();
    });

    it('lets an admin change another user\'s profile', async () => {
      const admin = await api.signUp('ADMIN');
      const buyer = await api.signUp('BUYER');
      const response = await api.call('PUT', `/api/v1/users/${buyer.user.id}/profile`, { token: admin.tokens.accessToken, body: { firstName: 'Fixed', lastName: 'Typo' } });
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ id: buyer.user.id, firstName: 'Fixed', lastName: 'Typo' });
      const missing = await api.call('PUT', `/api/v1/users/${randomUUID()}/profile`, { token: admin.tokens.accessToken, body: { firstName: 'A', lastName: 'B' } });
      expect(missing.status).toBe(404);
      expect(missing.body.message).toBe('User not found');
    });

    it('validates names and phone with clear messages', async () => {
      const { user, tokens } = await api.signUp('BUYER');
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ lastName: 'B' }, 'First name is required'],
        [{ firstName: '  ', lastName: 'B' }, 'First name is required'],
        [{ firstName: 'A' }, 'Last name is required'],
        [{ firstName: 'A', lastName: 'B'.repeat(101) }, 'Last name must be at most 100 characters'],
        [{ firstName: 'A', lastName: 'B', phone: 'call me' }, 'Please enter a valid phone number'],
        [{ firstName: 'A', lastName: 'B', phone: '12' }, 'Please enter a valid phone number'],
      ];
      for (const [body, message] of cases) {
        const response = await api.call('PUT', `/api/v1/users/${user.id}/profile`, { token: tokens.accessToken, body });
        expect({ body, status: response.status, message: response.body.message }).toEqual({ body, status: 400, message });
      }
    });

    it('refuses unknown fields, wrong types and malformed JSON with 400 naming the problem', async () => {
      const { user, tokens } = await api.signUp('BUYER');
      const path = `/api/v1/users/${user.id}/profile`;
      const unknown = await api.call('PUT', path, { token: tokens.accessToken, body: { firstName: 'A', lastName: 'B', roles: ['ADMIN'] } });
      expect(unknown.status).toBe(400);
      expect(unknown.body.message).toContain('roles');
      const wrongType = await api.call('PUT', path, { token: tokens.accessToken, body: { firstName: 'A', lastName: 'B', phone: 5550102030 } });
      expect(wrongType.status).toBe(400);
      expect(wrongType.body.message).toContain('phone');
      const malformed = await api.call('PUT', path, { token: tokens.accessToken, body: '{"firstName": ' });
      expect(malformed.status).toBe(400);
      expect(malformed.body).toMatchObject({ statusCode: 400, error: 'Bad Request' });
      const profile = await api.call('GET', path, { token: tokens.accessToken });
      expect(profile.body.roles).toEqual(['BUYER']);
    });
  });

  describe('PUT /api/v1/users/{userId}/email', () => {
    it('takes the new email from the JSON body, logs the request, and changes nothing until the mailed link is followed', async () => {
      const { user, tokens, password } = await api.signUp('BUYER');
      const newEmail = uniqueEmail('Moved');
      const response = await api.call('PUT', `/api/v1/users/${user.id}/email`, { token: tokens.accessToken, body: { newEmail } });
      expect(response.status).toBe(202);
      expect(response.body).toMatchObject({ id: user.id, email: user.email, pendingEmail: newEmail.toLowerCase() });
      // The link's side: test/api/account-recovery.test.ts.
      expect((await api.call('POST', '/api/auth/login', { body: { email: newEmail, password } })).status).toBe(401);
      expect((await api.call('POST', '/api/auth/login', { body: { email: user.email, password } })).status).toBe(200);
      expect(await securityLog(user.id)).toContainEqual({ kind: 'EMAIL_CHANGE_REQUESTED', actor_id: user.id, details: { newEmail: newEmail.toLowerCase() } });
    });

    it('refuses the current email, whatever its case', async () => {
      const { user, tokens } = await api.signUp('BUYER');
      const response = await api.call('PUT', `/api/v1/users/${user.id}/email`, { token: tokens.accessToken, body: { newEmail: ` ${user.email.toUpperCase()} ` } });
      expect(response.status).toBe(400);
      expect(response.body.message).toBe('New email must be different from current email');
    });

    it('refuses an email another account has, with 409', async () => {
      const { user, tokens } = await api.signUp('BUYER');
      const other = await api.signUp('BUYER');
      const response = await api.call('PUT', `/api/v1/users/${user.id}/email`, { token: tokens.accessToken, body: { newEmail: other.user.email.toUpperCase() } });
      expect(response.status).toBe(409);
      expect(response.body).toEqual({ statusCode: 409, error: 'Conflict', message: 'An account with this email already exists', code: 'EMAIL_TAKEN' });
      expect((await securityLog(user.id)).map((entry) => entry.kind)).not.toContain('EMAIL_CHANGE_REQUESTED');
    });

    it('refuses a missing or malformed email', async () => {
      const { user, tokens } = await api.signUp('BUYER');
      const missing = await api.call('PUT', `/api/v1/users/${user.id}/email`, { token: tokens.accessToken, body: {} });
      expect(missing.status).toBe(400);
      expect(missing.body.message).toBe('New email is required');
      const malformed = await api.call('PUT', `/api/v1/users/${user.id}/email`, { token: tokens.accessToken, body: { newEmail: 'nobody-at-example.com' } });
      expect(malformed.status).toBe(400);
      expect(malformed.body.message).toBe('Please enter a valid email address');
    });

    it('does not take the new email from the query string', async () => {
      const { user, tokens } = await api.signUp('BUYER');
      const newEmail = uniqueEmail('query');
      const queryOnly = await api.call('PUT', `/api/v1/users/${user.id}/email?newEmail=${encodeURIComponent(newEmail)}`, { token: tokens.accessToken });
      expect(queryOnly.status).toBe(400);
      const queryAndBody = await api.call('PUT', `/api/v1/users/${user.id}/email?newEmail=${encodeURIComponent(newEmail)}`, { token: tokens.accessToken, body: {} });
      expect(queryAndBody.status).toBe(400);
      expect(queryAndBody.body.message).toContain('newEmail');
      const profile = await api.call('GET', `/api/v1/users/${user.id}/profile`, { token: tokens.accessToken });
      expect(profile.body.email).toBe(user.email);
    });

    it("lets an admin ask to change another user's email, logged with the admin as actor", async () => {
      const admin = await api.signUp('ADMIN');
      const buyer = await api.signUp('BUYER');
      const newEmail = uniqueEmail('by-admin');
      const response = await api.call('PUT', `/api/v1/users/${buyer.user.id}/email`, { token: admin.tokens.accessToken, body: { newEmail } });
      expect(response.status).toBe(202);
      expect((await securityLog(buyer.user.id)).find((entry) => entry.kind === 'EMAIL_CHANGE_REQUESTED')?.actor_id).toBe(admin.user.id);
    });
  });

  describe('PUT /api/v1/users/{userId}/password', () => {
    it('changes the password, ends every session and logs it', async () => {
      const { user, tokens, password } = await api.signUp('BUYER');
      const otherSession = await api.call('POST', '/api/auth/login', { body: { email: user.email, password } });
      const response = await api.call('PUT', `/api/v1/users/${user.id}/password`, { token: tokens.accessToken, body: { currentPassword: password, newPassword: NEW_PASSWORD } });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ message: 'Password updated successfully. You will be logged out shortly.' });

      // Every session ended: access tokens refused, refresh tokens revoked.
      for (const accessToken of [tokens.accessToken, otherSession.body.accessToken]) {
        const refused = await api.call('GET', `/api/v1/users/${user.id}/profile`, { token: accessToken });
        expect(refused.status).toBe(401);
        expect(refused.body.message).toBe('Invalid access token');
      }
      for (const refreshToken of [tokens.refreshToken, otherSession.body.refreshToken]) {
        expect((await api.call('POST', '/api/auth/refresh', { body: { refreshToken } })).status).toBe(401);
      }

      expect((await api.call('POST', '/api/auth/login', { body: { email: user.email, password } })).status).toBe(401);
      const fresh = await api.call('POST', '/api/auth/login', { body: { email: user.email, password: NEW_PASSWORD } });
      expect(fresh.status).toBe(200);
      expect((await api.call('GET', `/api/v1/users/${user.id}/profile`, { token: fresh.body.accessToken })).status).toBe(200);
      expect(await securityLog(user.id)).toContainEqual({ kind: 'PASSWORD_CHANGED', actor_id: user.id, details: {} });
    });

    it('refuses a wrong current password and changes nothing', async () => {
      const { user, tokens, password } = await api.signUp('BUYER');
      const response = await api.call('PUT', `/api/v1/users/${user.id}/password`, { token: tokens.accessToken, body: { currentPassword: 'Wr0ng!Password', newPassword: NEW_PASSWORD } });
      expect(response.status).toBe(403);
      expect(response.body).toEqual({ statusCode: 403, error: 'Forbidden', message: 'Current password is incorrect', code: 'CURRENT_PASSWORD_INCORRECT' });
      expect((await api.call('GET', `/api/v1/users/${user.id}/profile`, { token: tokens.accessToken })).status).toBe(200);
      const stored = await findUserByEmail(api.deps.db, user.email);
      expect(await verifyPassword(stored!.password_hash, password)).toBe(true);
    });

    it('validates: current password required, then the length in the spec\'s words, then the full rules', async () => {
      const { user, tokens, password } = await api.signUp('BUYER');
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ newPassword: NEW_PASSWORD }, 'Current password is required'],
        [{ currentPassword: '', newPassword: NEW_PASSWORD }, 'Current password is required'],
        [{ currentPassword: password }, 'Password must be at least 8 characters long'],
        [{ currentPassword: password, newPassword: 'Sh0rt!' }, 'Password must be at least 8 characters long'],
        [{ currentPassword: password, newPassword: 'alllowercase1!' }, 'Password must contain: one uppercase letter'],
      ];
      for (const [body, message] of cases) {
        const response = await api.call('PUT', `/api/v1/users/${user.id}/password`, { token: tokens.accessToken, body });
        expect({ body, status: response.status, message: response.body.message }).toEqual({ body, status: 400, message });
      }
      const wrongType = await api.call('PUT', `/api/v1/users/${user.id}/password`, { token: tokens.accessToken, body: { currentPassword: password, newPassword: 12345678 } });
      expect(wrongType.status).toBe(400);
      expect(wrongType.body.message).toContain('newPassword');
    });

    it('does not take passwords from the query string', async () => {
      const { user, tokens, password } = await api.signUp('BUYER');
      const response = await api.call('PUT', `/api/v1/users/${user.id}/password?newPassword=${encodeURIComponent(NEW_PASSWORD)}`, {
        token: tokens.accessToken,
        body: { currentPassword: password, newPassword: NEW_PASSWORD },
      });
      expect(response.status).toBe(400);
      expect(response.body.message).toContain('newPassword');
      expect((await api.call('GET', `/api/v1/users/${user.id}/profile`, { token: tokens.accessToken })).status).toBe(200);
    });

    it("needs the user's own current password when an admin changes it", async () => {
      const admin = await api.signUp('ADMIN', { password: 'Adm1n!Passw0rd' });
      const buyer = await api.signUp('BUYER');
      const withAdminPassword = await api.call('PUT', `/api/v1/users/${buyer.user.id}/password`, {
        token: admin.tokens.accessToken,
        body: { currentPassword: admin.password, newPassword: NEW_PASSWORD },
      });
      expect(withAdminPassword.status).toBe(403);
      expect(withAdminPassword.body.message).toBe('Current password is incorrect');
      const withTheirs = await api.call('PUT', `/api/v1/users/${buyer.user.id}/password`, {
        token: admin.tokens.accessToken,
        body: { currentPassword: buyer.password, newPassword: NEW_PASSWORD },
      });
      expect(withTheirs.status).toBe(200);
      expect(await securityLog(buyer.user.id)).toContainEqual({ kind: 'PASSWORD_CHANGED', actor_id: admin.user.id, details: {} });
      // The buyer's sessions ended; the admin's did not.
      expect((await api.call('GET', `/api/v1/users/${buyer.user.id}/profile`, { token: buyer.tokens.accessToken })).status).toBe(401);
      expect((await api.call('GET', `/api/v1/users/${admin.user.id}/profile`, { token: admin.tokens.accessToken })).status).toBe(200);
    });

    it('answers 429 after repeated wrong current passwords', async () => {
      const { user, tokens, password } = await api.signUp('BUYER');
      for (let attempt = 1; attempt <= 5; attempt++) {
        const wrong = await api.call('PUT', `/api/v1/users/${user.id}/password`, { token: tokens.accessToken, body: { currentPassword: `Guess${attempt}!x`, newPassword: NEW_PASSWORD } });
        expect(wrong.status).toBe(403);
      }
      const blocked = await api.call('PUT', `/api/v1/users/${user.id}/password`, { token: tokens.accessToken, body: { currentPassword: password, newPassword: NEW_PASSWORD } });
      expect(blocked.status).toBe(429);
      expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    });
  });

  it('documents the user routes in /docs with their bearer security', async () => {
    const spec = await api.call('GET', '/docs/json');
    const paths = spec.body.paths;
    expect(paths['/api/v1/users/{userId}/profile'].get.tags).toEqual(['users']);
    expect(paths['/api/v1/users/{userId}/profile'].put.security).toEqual([{ bearer: [] }]);
    expect(paths['/api/v1/users/{userId}/email'].put.requestBody).toBeDefined();
    expect(paths['/api/v1/users/{userId}/password'].put.requestBody).toBeDefined();
  });

  describe('ensureAdmin', () => {
    it('creates the admin once, and never raises an existing account to ADMIN', async () => {
      const email = uniqueEmail('seed');
      const first = await ensureAdmin(api.deps.db, { email, password: 'Seed!Passw0rd' });
      expect(first).toMatchObject({ created: true });
      const again = await ensureAdmin(api.deps.db, { email: email.toUpperCase(), password: 'Other!Passw0rd' });
      expect(again).toMatchObject({ created: false, hasAdminRole: true });
      const admin = await api.call('POST', '/api/auth/login', { body: { email, password: 'Seed!Passw0rd' } });
      expect(admin.status).toBe(200);
      const profile = await api.call('GET', `/api/v1/users/${first.userId}/profile`, { token: admin.body.accessToken });
      expect(profile.body.roles).toEqual(['ADMIN', 'BUYER']);

      const buyer = await api.signUp('BUYER');
      expect(await ensureAdmin(api.deps.db, { email: buyer.user.email, password: 'Seed!Passw0rd' })).toEqual({ created: false, userId: buyer.user.id, hasAdminRole: false });
      expect((await findUserByEmail(api.deps.db, buyer.user.email))!.roles).toEqual(['BUYER']);
    });

    it('refuses a weak seed password', async () => {
      await expect(ensureAdmin(api.deps.db, { email: uniqueEmail('seed'), password: 'password' })).rejects.toThrow(/Password must contain/);
    });
  });
});

describe('npm run user:create (scripts/user-create.ts)', () => {
  const run = promisify(execFile);
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'provenance-user-create-'));
  });
  afterAll(async () => rm(dataDir, { recursive: true, force: true }));

  async function userCreate(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    const env = { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', EVENTSTORE_URL: '', EVENTSTORE_NAMESPACE: '', LOG_LEVEL: 'silent' };
    try {
      const { stdout, stderr } = await run('npx', ['tsx', 'scripts/user-create.ts', ...args], { env });
      return { code: 0, stdout, stderr };
    } catch (error) {
      const failed = error as { code: number; stdout: string; stderr: string };
      return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
    }
  }

  it('creates an ADMIN on the embedded PGlite under DATA_DIR and prints its id; a taken email or a bad argument exits 1', async () => {
    const created = await userCreate('--email', 'Root@Example.com', '--password', 'R00t!Passw0rd', '--role', 'ADMIN', '--first-name', 'Root', '--last-name', 'Operator');
    expect(created.code).toBe(0);
    const id = created.stdout.match(/Created ADMIN account root@example\.com with id ([0-9a-f-]{36})/)?.[1];
    expect(id).toBeDefined();

    const taken = await userCreate('--email', 'root@example.com', '--password', 'R00t!Passw0rd', '--role', 'BUYER');
    expect(taken.code).toBe(1);
    expect(taken.stderr).toContain('An account with this email already exists');

    const weak = await userCreate('--email', 'weak@example.com', '--password', 'weak', '--role', 'ADMIN');
    expect(weak.code).toBe(1);
    expect(weak.stderr).toContain('--password: Password must contain: at least 8 characters');
    const badRole = await userCreate('--email', 'role@example.com', '--password', 'R00t!Passw0rd', '--role', 'OWNER');
    expect(badRole.code).toBe(1);
    expect(badRole.stderr).toContain('--role must be ADMIN, BUYER or AUDITOR');
    const auditor = await userCreate('--email', 'audit@example.com', '--password', 'Aud1t!Passw0rd', '--role', 'auditor');
    expect(auditor.code).toBe(0);
    expect(auditor.stdout).toMatch(/Created AUDITOR account audit@example\.com/);

    // The account is really there, with both roles and a password that verifies.
    const database = await PGliteClient.open(join(dataDir, 'pglite'));
    try {
      const { rows } = await database.query<{ id: string; roles: string[]; first_name: string; password_hash: string }>(
        'SELECT id, roles, first_name, password_hash FROM users WHERE email = $1',
        ['root@example.com'],
      );
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ id, roles: ['ADMIN', 'BUYER'], first_name: 'Root' });
      expect(await verifyPassword(rows[0]!.password_hash, 'R00t!Passw0rd')).toBe(true);
      // An auditor reads the log and nothing else: not a buyer.
      const audit = await database.query<{ roles: string[] }>('SELECT roles FROM users WHERE email = $1', ['audit@example.com']);
      expect(audit.rows[0]!.roles).toEqual(['AUDITOR']);
    } finally {
      await database.close();
    }
  }, 120_000);
});

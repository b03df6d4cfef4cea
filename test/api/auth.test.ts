import { createHmac, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_ACCESS_TTL_MS } from '../../api/accounts/account-access';
import { LoginThrottle } from '../../api/accounts/login-throttle';
import { ACCESS_TOKEN_SECONDS, type AccessClaims } from '../../api/accounts/sessions';
import { buildApp } from '../../api/app';
import { API_BACKENDS, startTestApi, type TestApi } from '../support/api';

const PASSWORD = 'Str0ng!Passw0rd';

function uniqueEmail(prefix = 'user'): string {
  return `${prefix}-${randomUUID().slice(0, 8)}@example.com`;
}

/** The user id an access token was issued to (its subject claim). */
function subjectOf(accessToken: string): string {
  return JSON.parse(Buffer.from(accessToken.split('.')[1]!, 'base64url').toString('utf8')).sub;
}

function registration(overrides: Record<string, unknown> = {}) {
  return { firstName: 'Ada', lastName: 'Lovelace', email: uniqueEmail(), password: PASSWORD, role: 'BUYER', ...overrides };
}

describe.each(API_BACKENDS)('authentication on %s', (backend) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startTestApi(backend);
  });
  afterAll(async () => api.close());

  describe('POST /api/auth/register', () => {
    it('creates a BUYER account even when ADMIN is asked for, and answers 201 with a working session', async () => {
      const email = uniqueEmail('Mixed.Case');
      const response = await api.call('POST', '/api/auth/register', { body: registration({ email, role: 'ADMIN', firstName: '  Ada ', lastName: ' Lovelace  ' }) });
      expect(response.status).toBe(201);
      expect(response.body).toEqual({ accessToken: expect.any(String), refreshToken: expect.any(String), expiresIn: ACCESS_TOKEN_SECONDS });

      const userId = subjectOf(response.body.accessToken);
      const profile = await api.call('GET', `/api/v1/users/${userId}/profile`, { token: response.body.accessToken });
      expect(profile.status).toBe(200);
      expect(profile.body).toMatchObject({ id: userId, email: email.toLowerCase(), firstName: 'Ada', lastName: 'Lovelace', roles: ['BUYER'], status: 'ACTIVE' });

      const stranger = await api.signUp('BUYER');
      const notTheirs = await api.call('GET', `/api/v1/users/${stranger.user.id}/profile`, { token: response.body.accessToken });
      expect(notTheirs.status).toBe(403);
    });

    it('accepts a registration without a role, as BUYER', async () => {
      const { role: _role, ...withoutRole } = registration();
      const response = await api.call('POST', '/api/auth/register', { body: withoutRole });
      expect(response.status).toBe(201);
    });

    it("checks the fields in the spec's order and answers the first problem in the spec's words", async () => {
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ firstName: undefined, lastName: undefined, email: undefined, password: 'weak' }, 'First name is required'],
        [{ firstName: '   ', lastName: '' }, 'First name is required'],
        [{ lastName: undefined, email: 'nope' }, 'Last name is required'],
        [{ lastName: ' ', email: undefined }, 'Last name is required'],
        [{ email: undefined, password: 'weak' }, 'Email is required'],
        [{ email: '  ' }, 'Email is required'],
        [{ email: 'not-an-email', password: 'weak' }, 'Please enter a valid email address'],
        [{ password: undefined }, 'Password must contain: at least 8 characters, one lowercase letter, one uppercase letter, one number, one special character (@$!%*?&)'],
        [{ password: 'short' }, 'Password must contain: at least 8 characters, one uppercase letter, one number, one special character (@$!%*?&)'],
        [{ password: 'longenough1!' }, 'Password must contain: one uppercase letter'],
        [{ password: 'Longenough1' }, 'Password must contain: one special character (@$!%*?&)'],
        [{ firstName: 'x'.repeat(101) }, 'First name must be at most 100 characters'],
      ];
      for (const [overrides, message] of cases) {
        const body = JSON.parse(JSON.stringify(registration(overrides)));
        const response = await api.call('POST', '/api/auth/register', { body });
        expect({ overrides, status: response.status, body: response.body }).toEqual({
          overrides,
          status: 400,
          body: { statusCode: 400, error: 'Bad Request', message, code: 'VALIDATION_FAILED' },
        });
      }
    });

    it('refuses an email already taken, whatever its case, with 409', async () => {
      const email = uniqueEmail('taken');
      expect((await api.call('POST', '/api/auth/register', { body: registration({ email }) })).status).toBe(201);
      const again = await api.call('POST', '/api/auth/register', { body: registration({ email: email.toUpperCase() }) });
      expect(again.status).toBe(409);
      expect(again.body).toEqual({ statusCode: 409, error: 'Conflict', message: 'An account with this email already exists', code: 'EMAIL_TAKEN' });
    });

    it('refuses unknown fields, wrong types and malformed JSON with 400 naming the problem', async () => {
      const unknown = await api.call('POST', '/api/auth/register', { body: registration({ isAdmin: true }) });
      expect(unknown.status).toBe(400);
      expect(unknown.body.message).toContain('isAdmin');

      const wrongType = await api.call('POST', '/api/auth/register', { body: registration({ firstName: 42 }) });
      expect(wrongType.status).toBe(400);
      expect(wrongType.body.message).toContain('firstName');

      const malformed = await api.call('POST', '/api/auth/register', { body: '{"firstName": "Ada",' });
      expect(malformed.status).toBe(400);
      expect(malformed.body).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    });
  });

  describe('POST /api/auth/login', () => {
    it('answers a session for the right password, whatever the case of the email', async () => {
      const { user, password } = await api.signUp('BUYER');
      const response = await api.call('POST', '/api/auth/login', { body: { email: `  ${user.email.toUpperCase()} `, password } });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ accessToken: expect.any(String), refreshToken: expect.any(String), expiresIn: ACCESS_TOKEN_SECONDS });
      expect(subjectOf(response.body.accessToken)).toBe(user.id);
      const profile = await api.call('GET', `/api/v1/users/${user.id}/profile`, { token: response.body.accessToken });
      expect(profile.status).toBe(200);
    });

    it('answers a wrong password, an unknown email and a disabled account identically', async () => {
      const { user, password } = await api.signUp('BUYER');
      const disabled = await api.signUp('BUYER');
      await api.deps.db.updateTable('users').set({ status: 'DISABLED' }).where('id', '=', disabled.user.id).execute();

      const wrongPassword = await api.call('POST', '/api/auth/login', { body: { email: user.email, password: `${password}x` } });
      const unknownEmail = await api.call('POST', '/api/auth/login', { body: { email: uniqueEmail('nobody'), password } });
      const disabledAccount = await api.call('POST', '/api/auth/login', { body: { email: disabled.user.email, password: disabled.password } });
      const expected = { statusCode: 401, error: 'Unauthorized', message: 'Invalid email or password', code: 'INVALID_CREDENTIALS' };
      for (const response of [wrongPassword, unknownEmail, disabledAccount]) {
        expect(response.status).toBe(401);
        expect(response.body).toEqual(expected);
      }
    });

    it('requires both fields', async () => {
      const noPassword = await api.call('POST', '/api/auth/login', { body: { email: uniqueEmail() } });
      expect(noPassword.status).toBe(400);
      expect(noPassword.body.message).toContain('password');
      const blank = await api.call('POST', '/api/auth/login', { body: { email: ' ', password: PASSWORD } });
      expect(blank.status).toBe(400);
      expect(blank.body.message).toBe('Email is required');
    });

    it('answers 429 with Retry-After after 5 failures for one account from one address, even for the right password', async () => {
      const { user, password } = await api.signUp('BUYER');
      for (let attempt = 1; attempt <= 5; attempt++) {
        const failure = await api.call('POST', '/api/auth/login', { body: { email: user.email, password: 'Wrong!Passw0rd' } });
        expect(failure.status).toBe(401);
      }
      for (const attemptPassword of ['Wrong!Passw0rd', password]) {
        const blocked = await api.call('POST', '/api/auth/login', { body: { email: user.email, password: attemptPassword } });
        expect(blocked.status).toBe(429);
        expect(blocked.body).toEqual({ statusCode: 429, error: 'Too Many Requests', message: 'Too many sign-in attempts. Please try again later.', code: 'TOO_MANY_ATTEMPTS' });
        const retryAfter = Number(blocked.headers.get('retry-after'));
        expect(retryAfter).toBeGreaterThan(0);
        expect(retryAfter).toBeLessThanOrEqual(15 * 60);
      }
      // Other accounts from the same address are still served.
      const other = await api.signUp('BUYER');
      expect((await api.call('POST', '/api/auth/login', { body: { email: other.user.email, password: other.password } })).status).toBe(200);
    });
  });

  describe('POST /api/auth/refresh', () => {
    it('rotates: each refresh token works once and answers a new pair', async () => {
      const { tokens } = await api.signUp('BUYER');
      const first = await api.call('POST', '/api/auth/refresh', { body: { refreshToken: tokens.refreshToken } });
      expect(first.status).toBe(200);
      expect(first.body).toEqual({ accessToken: expect.any(String), refreshToken: expect.any(String), expiresIn: ACCESS_TOKEN_SECONDS });
      expect(first.body.refreshToken).not.toBe(tokens.refreshToken);
      const second = await api.call('POST', '/api/auth/refresh', { body: { refreshToken: first.body.refreshToken } });
      expect(second.status).toBe(200);
      const profile = await api.call('GET', `/api/v1/users/${subjectOf(second.body.accessToken)}/profile`, { token: second.body.accessToken });
      expect(profile.status).toBe(200);
    });

    it('treats reuse of a rotated token as theft: 401, and the whole family ends, newest token included', async () => {
      const { user, tokens, password } = await api.signUp('BUYER');
      const elsewhere = await api.call('POST', '/api/auth/login', { body: { email: user.email, password } });
      const rotated = await api.call('POST', '/api/auth/refresh', { body: { refreshToken: tokens.refreshToken } });
      expect(rotated.status).toBe(200);

      const reuse = await api.call('POST', '/api/auth/refresh', { body: { refreshToken: tokens.refreshToken } });
      expect(reuse.status).toBe(401);
      expect(reuse.body).toEqual({ statusCode: 401, error: 'Unauthorized', message: 'Invalid refresh token', code: 'INVALID_REFRESH_TOKEN' });
      const newest = await api.call('POST', '/api/auth/refresh', { body: { refreshToken: rotated.body.refreshToken } });
      expect(newest.status).toBe(401);
      expect(newest.body.message).toBe('Invalid refresh token');

      // Another sign-in is another family, untouched.
      expect((await api.call('POST', '/api/auth/refresh', { body: { refreshToken: elsewhere.body.refreshToken } })).status).toBe(200);
      const logged = await api.deps.db.selectFrom('security_log').select('kind').where('user_id', '=', user.id).execute();
      expect(logged.map((entry) => entry.kind)).toContain('REFRESH_TOKEN_REUSED');
    });

    it('refuses unknown tokens with 401 and a missing one with 400', async () => {
      const unknown = await api.call('POST', '/api/auth/refresh', { body: { refreshToken: 'not-a-token' } });
      expect(unknown.status).toBe(401);
      expect(unknown.body.message).toBe('Invalid refresh token');
      const missing = await api.call('POST', '/api/auth/refresh', { body: {} });
      expect(missing.status).toBe(400);
      expect(missing.body.message).toContain('refreshToken');
    });

    it('rotates on a second API process what the first issued, and detects reuse across them', async () => {
      const other = await startTestApi(backend, { sharing: api });
      try {
        const { tokens } = await api.signUp('BUYER');
        const rotated = await other.call('POST', '/api/auth/refresh', { body: { refreshToken: tokens.refreshToken } });
        expect(rotated.status).toBe(200);
        expect((await api.call('POST', '/api/auth/refresh', { body: { refreshToken: tokens.refreshToken } })).status).toBe(401);
        expect((await other.call('POST', '/api/auth/refresh', { body: { refreshToken: rotated.body.refreshToken } })).status).toBe(401);
      } finally {
        await other.close();
      }
    });
  });

  describe('POST /api/auth/logout', () => {
    it('ends the session: 204, and its refresh token stops working', async () => {
      const { tokens } = await api.signUp('BUYER');
      const response = await api.call('POST', '/api/auth/logout', { body: { refreshToken: tokens.refreshToken } });
      expect(response.status).toBe(204);
      expect(response.body).toBeUndefined();
      expect((await api.call('POST', '/api/auth/refresh', { body: { refreshToken: tokens.refreshToken } })).status).toBe(401);
    });

    it('always succeeds for the client: unknown and already ended tokens answer 204 too', async () => {
      expect((await api.call('POST', '/api/auth/logout', { body: { refreshToken: 'never-issued' } })).status).toBe(204);
      const { tokens } = await api.signUp('BUYER');
      expect((await api.call('POST', '/api/auth/logout', { body: { refreshToken: tokens.refreshToken } })).status).toBe(204);
      expect((await api.call('POST', '/api/auth/logout', { body: { refreshToken: tokens.refreshToken } })).status).toBe(204);
    });
  });

  describe('POST /api/auth/google', () => {
    it('answers 501 "not configured" without a Google client id, never a session', async () => {
      const response = await api.call('POST', '/api/auth/google', { body: { credential: 'header.payload.signature' } });
      expect(response.status).toBe(501);
      expect(response.body).toEqual({ statusCode: 501, error: 'Not Implemented', message: 'Google sign-in is not configured', code: 'GOOGLE_SIGN_IN_UNAVAILABLE' });
    });

    it('answers 501 "not available yet" with one, still never a session', async () => {
      const app = await buildApp({ ...api.deps, googleClientId: 'client-id.apps.googleusercontent.com', logLevel: 'silent' });
      const url = await app.listen({ port: 0, host: '127.0.0.1' });
      try {
        const response = await fetch(`${url}/api/auth/google`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ credential: 'x.y.z' }) });
        expect(response.status).toBe(501);
        expect(await response.json()).toEqual({ statusCode: 501, error: 'Not Implemented', message: 'Google sign-in is not available yet', code: 'GOOGLE_SIGN_IN_UNAVAILABLE' });
      } finally {
        await app.close();
      }
    });
  });

  describe('verified tokens, kept to skip checking them again', () => {
    const profileWith = (token: string, userId: string, scheme = 'Bearer') =>
      api.call('GET', `/api/v1/users/${userId}/profile`, { headers: { authorization: `${scheme} ${token}` } });
    const claimsOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as AccessClaims & { exp: number };
    /** A token of our own making: these claims, signed with HMAC under `secret` as `alg` says. */
    const forge = (alg: 'HS256' | 'HS512', claims: object, secret: string) => {
      const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
      const signed = `${part({ alg, typ: 'JWT' })}.${part(claims)}`;
      return `${signed}.${createHmac(alg === 'HS256' ? 'sha256' : 'sha512', secret).update(signed).digest('base64url')}`;
    };

    it('are refused once they expire, though they passed before', async () => {
      const { user, tokens } = await api.signUp('BUYER');
      const { sub, roles, sv } = claimsOf(tokens.accessToken);
      // Signed just after a second begins: JWT expiry counts whole seconds, so the token lives a whole one.
      await new Promise((resolve) => setTimeout(resolve, 1_020 - (Date.now() % 1_000)));
      const token = api.app.signAccessToken({ sub, roles, sv }, 1);
      expect((await profileWith(token, user.id)).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, claimsOf(token).exp * 1_000 - Date.now() + 100));
      expect((await profileWith(token, user.id)).status).toBe(401);
    });

    it('do not pass for another token: a changed signature, the same claims under another key or another algorithm', async () => {
      const { user, tokens } = await api.signUp('BUYER');
      expect((await profileWith(tokens.accessToken, user.id)).status).toBe(200);
      const [header, payload, signature] = tokens.accessToken.split('.') as [string, string, string];
      // The first character: all six of its bits are in the signature's bytes (the last one's low bits are not).
      const changed = `${header}.${payload}.${signature[0] === 'A' ? 'B' : 'A'}${signature.slice(1)}`;
      expect((await profileWith(changed, user.id)).status).toBe(401);
      const claims = claimsOf(tokens.accessToken);
      expect((await profileWith(forge('HS256', claims, 'another secret'), user.id)).status).toBe(401);
      expect((await profileWith(forge('HS512', claims, api.deps.jwtSecret), user.id)).status).toBe(401);
      expect((await profileWith(forge('HS256', claims, api.deps.jwtSecret), user.id)).status).toBe(200);
    });

    it('are read from "Bearer", in any case, and one or more spaces; no other scheme', async () => {
      const { user, tokens } = await api.signUp('BUYER');
      for (const scheme of ['Bearer', 'bearer', 'BEARER', 'Bearer  ']) expect((await profileWith(tokens.accessToken, user.id, scheme)).status, scheme).toBe(200);
      for (const scheme of ['Basic', 'Bearer\t', 'Bearerx', '']) expect((await profileWith(tokens.accessToken, user.id, scheme)).status, scheme).toBe(401);
    });
  });

  it('documents the auth routes in /docs', async () => {
    const spec = await api.call('GET', '/docs/json');
    for (const path of ['/api/auth/register', '/api/auth/login', '/api/auth/refresh', '/api/auth/logout', '/api/auth/google']) {
      expect(spec.body.paths[path].post.tags).toEqual(['auth']);
    }
  });
});

describe.each(API_BACKENDS)('access tokens on two API processes on %s', (backend) => {
  // Each process keeps accounts' access in memory: a change made on one applies at once there,
  // and on the other when the database's notification reaches it, ACCOUNT_ACCESS_TTL_MS at worst.
  let api: TestApi;
  let other: TestApi;
  beforeAll(async () => {
    api = await startTestApi(backend);
    other = await startTestApi(backend, { sharing: api });
  });
  afterAll(async () => {
    await other.close();
    await api.close();
  });

  const profile = (on: TestApi, account: { user: { id: string }; tokens: { accessToken: string } }) =>
    on.call('GET', `/api/v1/users/${account.user.id}/profile`, { token: account.tokens.accessToken });

  /** Milliseconds until `attempt` answers `status`; fails past the bound. */
  async function answeredWithin(status: number, attempt: () => Promise<{ status: number }>): Promise<number> {
    const started = performance.now();
    while ((await attempt()).status !== status) {
      expect(performance.now() - started).toBeLessThan(ACCOUNT_ACCESS_TTL_MS);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    return performance.now() - started;
  }

  it('refuses the old token on both after a password change on one', async () => {
    const person = await api.signUp('BUYER');
    expect((await profile(other, person)).status).toBe(200);
    const changed = await api.call('PUT', `/api/v1/users/${person.user.id}/password`, {
      token: person.tokens.accessToken,
      body: { currentPassword: person.password, newPassword: 'N3w!Passw0rd' },
    });
    expect(changed.status).toBe(200);
    expect((await profile(api, person)).status).toBe(401);
    await answeredWithin(401, () => profile(other, person));
  });

  it('refuses every token on both after signing out everywhere on one', async () => {
    const admin = await api.signUp('ADMIN');
    expect((await profile(other, admin)).status).toBe(200);
    expect((await api.call('POST', '/api/admin/auth/logout', { token: admin.tokens.accessToken })).status).toBe(204);
    expect((await profile(api, admin)).status).toBe(401);
    await answeredWithin(401, () => profile(other, admin));
  });

  it('applies a role change on both: the admin area closes to the token in hand', async () => {
    const admin = await api.signUp('ADMIN');
    const demoted = await api.signUp('ADMIN');
    const adminArea = (on: TestApi) => on.call('GET', '/api/admin/listings', { token: demoted.tokens.accessToken });
    expect((await adminArea(other)).status).toBe(200);
    const changed = await api.call('PUT', `/api/admin/users/${demoted.user.id}/roles`, { token: admin.tokens.accessToken, body: { roles: ['BUYER'] } });
    expect(changed.status).toBe(200);
    expect((await adminArea(api)).status).toBe(403);
    await answeredWithin(403, () => adminArea(other));
  });

  it('refuses a disabled account on both, however it was disabled', async () => {
    const person = await api.signUp('BUYER');
    expect((await profile(api, person)).status).toBe(200);
    expect((await profile(other, person)).status).toBe(200);
    // An operator's UPDATE, outside any API process: the users table's trigger tells them.
    await api.deps.db.updateTable('users').set({ status: 'DISABLED' }).where('id', '=', person.user.id).execute();
    await answeredWithin(401, () => profile(api, person));
    await answeredWithin(401, () => profile(other, person));
  });
});

describe.each(API_BACKENDS)('registration when the database fails, on %s', (backend) => {
  it('answers 500 "Registration failed. Please try again." without details', async () => {
    const api = await startTestApi(backend);
    try {
      // A real failure of the real database: the table the account goes into is gone.
      await api.deps.sql.query('ALTER TABLE users RENAME TO users_elsewhere');
      const response = await api.call('POST', '/api/auth/register', { body: registration() });
      expect(response.status).toBe(500);
      expect(response.body).toEqual({ statusCode: 500, error: 'Internal Server Error', message: 'Registration failed. Please try again.', code: 'REGISTRATION_FAILED' });
    } finally {
      await api.close();
    }
  });
});

describe('LoginThrottle', () => {
  const start = new Date('2026-11-22T10:00:00Z');
  const later = (ms: number) => new Date(start.getTime() + ms);

  it('blocks an account from the address that failed, never from another address', () => {
    const throttle = new LoginThrottle();
    for (let i = 0; i < 5; i++) {
      expect(throttle.check('owner@example.com', '203.0.113.9', later(i))).toEqual({ allowed: true });
      throttle.recordFailure('owner@example.com', '203.0.113.9', later(i));
    }
    expect(throttle.check('owner@example.com', '203.0.113.9', later(10))).toEqual({ allowed: false, retryAfterSeconds: 900 });
    // The real owner, signing in from home, is not locked out by the attacker's failures.
    expect(throttle.check('owner@example.com', '198.51.100.4', later(10))).toEqual({ allowed: true });
    // Nor is anyone else from the attacker's address, until that address's own limit.
    expect(throttle.check('other@example.com', '203.0.113.9', later(10))).toEqual({ allowed: true });
  });

  it('slides: an account is free again once its oldest counted failure is 15 minutes old', () => {
    const throttle = new LoginThrottle();
    for (let i = 0; i < 5; i++) throttle.recordFailure('a@example.com', '203.0.113.9', later(i * 60_000));
    expect(throttle.check('a@example.com', '203.0.113.9', later(5 * 60_000))).toEqual({ allowed: false, retryAfterSeconds: 600 });
    expect(throttle.check('a@example.com', '203.0.113.9', later(15 * 60_000 - 1))).toEqual({ allowed: false, retryAfterSeconds: 1 });
    expect(throttle.check('a@example.com', '203.0.113.9', later(15 * 60_000))).toEqual({ allowed: true });
    // One more failure fills the window again (4 still counted + 1).
    throttle.recordFailure('a@example.com', '203.0.113.9', later(15 * 60_000));
    expect(throttle.check('a@example.com', '203.0.113.9', later(15 * 60_000)).allowed).toBe(false);
  });

  it('forgets an account-and-address pair after a success there, but not the address count', () => {
    const throttle = new LoginThrottle({ perAccountAndIp: 5, perIp: 6, windowMs: 15 * 60_000, maxEntries: 1000 });
    for (let i = 0; i < 4; i++) throttle.recordFailure('a@example.com', '203.0.113.9', start);
    throttle.recordSuccess('a@example.com', '203.0.113.9');
    for (let i = 0; i < 2; i++) throttle.recordFailure('a@example.com', '203.0.113.9', start);
    // 2 failures on the pair since the success, but 6 from the address.
    expect(throttle.check('b@example.com', '203.0.113.9', start).allowed).toBe(false);
    expect(throttle.check('a@example.com', '198.51.100.4', start)).toEqual({ allowed: true });
  });

  it('blocks an address after 50 failures across accounts, and only that address', () => {
    const throttle = new LoginThrottle();
    for (let i = 0; i < 50; i++) throttle.recordFailure(`victim-${i}@example.com`, '203.0.113.9', start);
    expect(throttle.check('fresh@example.com', '203.0.113.9', start).allowed).toBe(false);
    expect(throttle.check('fresh@example.com', '198.51.100.4', start)).toEqual({ allowed: true });
    expect(throttle.check('victim-1@example.com', '198.51.100.4', start)).toEqual({ allowed: true });
  });

  it('keeps at most maxEntries counters, forgetting the least recently failed first', () => {
    const throttle = new LoginThrottle({ perAccountAndIp: 1, perIp: 100, windowMs: 60_000, maxEntries: 3 });
    throttle.recordFailure('a@example.com', '192.0.2.1', start);
    expect(throttle.check('a@example.com', '192.0.2.1', start).allowed).toBe(false);
    for (const name of ['b', 'c', 'd']) throttle.recordFailure(`${name}@example.com`, `192.0.2.${name.charCodeAt(0)}`, start);
    expect(throttle.check('a@example.com', '192.0.2.1', start)).toEqual({ allowed: true });
    expect(throttle.check('d@example.com', '192.0.2.100', start).allowed).toBe(false);
  });
});

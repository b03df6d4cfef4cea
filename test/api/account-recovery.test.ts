import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FORGOT_PASSWORD_ANSWER } from '../../api/contracts/accounts';
import { API_BACKENDS, startTestApi, type TestApi } from '../support/api';
import { TestSmtpServer } from '../support/smtp';

const PASSWORD = 'Str0ng!Passw0rd';
const NEW_PASSWORD = 'N3w!Passw0rd-after-reset';

function tokenOf(link: string): string {
  const token = new URL(link).hash.replace(/^#token=/, '');
  expect(token.length).toBeGreaterThanOrEqual(43); // 256 bits in base64url
  return token;
}

describe.each(API_BACKENDS)('accounts people can recover, over real SMTP (%s)', (backend) => {
  let api: TestApi;
  let smtp: TestSmtpServer;
  let counter = 0;
  const uniqueEmail = () => `recover-${Date.now().toString(36)}-${++counter}@example.com`;

  beforeAll(async () => {
    smtp = await TestSmtpServer.start();
    api = await startTestApi(backend, { services: { mail: { smtpUrl: smtp.url, from: 'Provenance <no-reply@provenance.test>', pollMs: 200 } } });
  });
  afterAll(async () => {
    await api?.close();
    await smtp?.close();
  });

  async function register(email = uniqueEmail()) {
    const answer = await api.call('POST', '/api/auth/register', { body: { firstName: 'Robin', lastName: 'Reset', email, password: PASSWORD } });
    expect(answer.status).toBe(201);
    return { email, tokens: answer.body as { accessToken: string; refreshToken: string } };
  }

  const signIn = (email: string, password: string) => api.call('POST', '/api/auth/login', { body: { email, password } });
  const userIdOf = (accessToken: string) => JSON.parse(Buffer.from(accessToken.split('.')[1]!, 'base64url').toString()).sub as string;

  it('registering mails a link that verifies the address; the profile says so', async () => {
    const { email, tokens } = await register();
    const userId = userIdOf(tokens.accessToken);
    const before = await api.call('GET', `/api/v1/users/${userId}/profile`, { token: tokens.accessToken });
    expect(before.body).toMatchObject({ email, emailVerified: false, pendingEmail: null });

    const mail = await smtp.waitFor(email, /Confirm your email address/);
    expect(mail.html).toContain('Confirm my email address');
    const link = mail.links.find((candidate) => candidate.includes('/verify-email#token='))!;
    expect(link.startsWith(api.url)).toBe(true);
    expect((await api.call('POST', '/api/auth/email/verify', { body: { token: tokenOf(link) } })).status).toBe(204);

    const after = await api.call('GET', `/api/v1/users/${userId}/profile`, { token: tokens.accessToken });
    expect(after.body.emailVerified).toBe(true);
    const again = await api.call('POST', '/api/auth/email/verify', { body: { token: tokenOf(link) } });
    expect(again.status).toBe(400);
    expect(again.body.message).toMatch(/already been used/);
    const resend = await api.call('POST', '/api/auth/email/verify/resend', { token: tokens.accessToken });
    expect(resend.status).toBe(409);
  });

  it('a resent verification link replaces the first one', async () => {
    const { email, tokens } = await register();
    const first = await smtp.waitFor(email, /Confirm your email address/);
    const resend = await api.call('POST', '/api/auth/email/verify/resend', { token: tokens.accessToken });
    expect(resend.status).toBe(202);
    await expect.poll(() => smtp.to(email).length).toBe(2);
    const second = smtp.to(email)[1]!;
    const stale = await api.call('POST', '/api/auth/email/verify', { body: { token: tokenOf(first.links.find((l) => l.includes('#token='))!) } });
    expect(stale.status).toBe(400);
    expect((await api.call('POST', '/api/auth/email/verify', { body: { token: tokenOf(second.links.find((l) => l.includes('#token='))!) } })).status).toBe(204);
  });

  it('forgot password answers the same for an account and for none, and mails a single-use link that resets it and ends every session', async () => {
    const { email, tokens } = await register();
    const existing = await api.call('POST', '/api/auth/password/forgot', { body: { email } });
    const missing = await api.call('POST', '/api/auth/password/forgot', { body: { email: `nobody-${counter}@example.com` } });
    expect(existing.status).toBe(202);
    expect(missing.status).toBe(202);
    expect(existing.body).toEqual({ message: FORGOT_PASSWORD_ANSWER });
    expect(missing.body).toEqual(existing.body);

    const mail = await smtp.waitFor(email, /Reset your Provenance password/);
    const link = mail.links.find((candidate) => candidate.includes('/reset-password#token='))!;
    expect(link.startsWith(api.url)).toBe(true);
    const token = tokenOf(link);

    const weak = await api.call('POST', '/api/auth/password/reset', { body: { token, newPassword: 'short' } });
    expect(weak.status).toBe(400);
    expect(weak.body.message).toMatch(/^Password must contain: /);

    expect((await api.call('POST', '/api/auth/password/reset', { body: { token, newPassword: NEW_PASSWORD } })).status).toBe(204);
    expect((await signIn(email, PASSWORD)).status).toBe(401);
    expect((await signIn(email, NEW_PASSWORD)).status).toBe(200);
    // Every session of the account ended: the access token and the refresh token from before.
    const userId = userIdOf(tokens.accessToken);
    expect((await api.call('GET', `/api/v1/users/${userId}/profile`, { token: tokens.accessToken })).status).toBe(401);
    expect((await api.call('POST', '/api/auth/refresh', { body: { refreshToken: tokens.refreshToken } })).status).toBe(401);

    const reused = await api.call('POST', '/api/auth/password/reset', { body: { token, newPassword: 'An0ther!Passw0rd' } });
    expect(reused.status).toBe(400);
    expect(reused.body.message).toMatch(/already been used/);
    // The owner is told, by mail and in the app; following the link also proved the address.
    await smtp.waitFor(email, /Your Provenance password was changed/);
    const session = (await signIn(email, NEW_PASSWORD)).body.accessToken as string;
    const notices = await api.call('GET', '/api/v1/users/me/notifications', { token: session });
    expect(notices.body.content.map((notice: { kind: string }) => notice.kind)).toContain('PASSWORD_CHANGED');
    expect((await api.call('GET', `/api/v1/users/${userId}/profile`, { token: session })).body.emailVerified).toBe(true);
  });

  it('holds reset requests for one address to 5 an hour, whether or not it has an account', async () => {
    for (const email of [uniqueEmail(), (await register()).email]) {
      const answers = [];
      for (let attempt = 0; attempt < 6; attempt++) answers.push(await api.call('POST', '/api/auth/password/forgot', { body: { email: attempt % 2 ? email.toUpperCase() : email } }));
      expect(answers.map((answer) => answer.status)).toEqual([202, 202, 202, 202, 202, 429]);
      expect(answers[5]!.body.message).toMatch(/^Too many reset requests for this address: at most 5 per hour/);
      expect(answers[5]!.headers.get('retry-after')).toBeTruthy();
    }
  });

  it('an unknown or expired reset token gets 400 with a clear message', async () => {
    const unknown = await api.call('POST', '/api/auth/password/reset', { body: { token: 'A'.repeat(43), newPassword: NEW_PASSWORD } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toMatch(/not valid/);

    const { email } = await register();
    await api.call('POST', '/api/auth/password/forgot', { body: { email } });
    const mail = await smtp.waitFor(email, /Reset your Provenance password/);
    const token = tokenOf(mail.links.find((candidate) => candidate.includes('#token='))!);
    await api.deps.db.updateTable('account_tokens').set({ expires_at: new Date(Date.now() - 1000) }).where('user_id', 'is not', null).where('purpose', '=', 'PASSWORD_RESET').where('used_at', 'is', null).execute();
    const expired = await api.call('POST', '/api/auth/password/reset', { body: { token, newPassword: NEW_PASSWORD } });
    expect(expired.status).toBe(400);
    expect(expired.body.message).toMatch(/expired/);
  });

  it('stores only a hash of each token', async () => {
    const { email } = await register();
    const mail = await smtp.waitFor(email, /Confirm your email address/);
    const token = tokenOf(mail.links.find((candidate) => candidate.includes('#token='))!);
    const rows = await api.deps.db.selectFrom('account_tokens').select('token_hash').execute();
    expect(rows.some((row) => row.token_hash === token)).toBe(false);
    expect(rows.every((row) => /^[0-9a-f]{64}$/.test(row.token_hash))).toBe(true);
  });

  it('an email change applies only once the link sent to the new address is followed; the old address is told', async () => {
    const { email, tokens } = await register();
    const userId = userIdOf(tokens.accessToken);
    const newEmail = uniqueEmail();
    const asked = await api.call('PUT', `/api/v1/users/${userId}/email`, { token: tokens.accessToken, body: { newEmail } });
    expect(asked.status).toBe(202);
    expect(asked.body).toMatchObject({ email, pendingEmail: newEmail });
    expect((await signIn(newEmail, PASSWORD)).status).toBe(401);

    const mail = await smtp.waitFor(newEmail, /Confirm your new email address/);
    const token = tokenOf(mail.links.find((candidate) => candidate.includes('/verify-email#token='))!);
    expect((await api.call('POST', '/api/auth/email/verify', { body: { token } })).status).toBe(204);

    expect((await signIn(newEmail, PASSWORD)).status).toBe(200);
    expect((await signIn(email, PASSWORD)).status).toBe(401);
    const told = await smtp.waitFor(email, /Your Provenance email address was changed/);
    expect(told.text).toContain(newEmail);
    const profile = await api.call('GET', `/api/v1/users/${userId}/profile`, { token: tokens.accessToken });
    expect(profile.body).toMatchObject({ email: newEmail, emailVerified: true, pendingEmail: null });
  });

  it('tells the current address of an email change at once; a new password cancels the change', async () => {
    const { email, tokens } = await register();
    const userId = userIdOf(tokens.accessToken);
    const thief = uniqueEmail();
    expect((await api.call('PUT', `/api/v1/users/${userId}/email`, { token: tokens.accessToken, body: { newEmail: thief } })).status).toBe(202);
    const warning = await smtp.waitFor(email, /Someone asked to change your Provenance email address/);
    expect(warning.text).toContain(thief);
    const change = await smtp.waitFor(thief, /Confirm your new email address/);

    // The owner resets the password: every session ends, and with them the change asked for.
    await api.call('POST', '/api/auth/password/forgot', { body: { email } });
    const reset = await smtp.waitFor(email, /Reset your Provenance password/);
    expect((await api.call('POST', '/api/auth/password/reset', { body: { token: tokenOf(reset.links.find((l) => l.includes('#token='))!), newPassword: NEW_PASSWORD } })).status).toBe(204);
    const refused = await api.call('POST', '/api/auth/email/verify', { body: { token: tokenOf(change.links.find((l) => l.includes('#token='))!) } });
    expect(refused.status).toBe(400);
    expect((await signIn(email, NEW_PASSWORD)).status).toBe(200);
    expect((await signIn(thief, NEW_PASSWORD)).status).toBe(401);
  });

  it('a reset link mailed to the old address stops working once the address changes', async () => {
    const { email, tokens } = await register();
    const userId = userIdOf(tokens.accessToken);
    await api.call('POST', '/api/auth/password/forgot', { body: { email } });
    const reset = await smtp.waitFor(email, /Reset your Provenance password/);
    const newEmail = uniqueEmail();
    await api.call('PUT', `/api/v1/users/${userId}/email`, { token: tokens.accessToken, body: { newEmail } });
    const change = await smtp.waitFor(newEmail, /Confirm your new email address/);
    expect((await api.call('POST', '/api/auth/email/verify', { body: { token: tokenOf(change.links.find((l) => l.includes('#token='))!) } })).status).toBe(204);
    const stale = await api.call('POST', '/api/auth/password/reset', { body: { token: tokenOf(reset.links.find((l) => l.includes('#token='))!), newPassword: NEW_PASSWORD } });
    expect(stale.status).toBe(400);
    expect((await signIn(newEmail, PASSWORD)).status).toBe(200);
  });

  it('keeps no mail words once sent: a link in them would work until it expires', async () => {
    const { email } = await register();
    await smtp.waitFor(email, /Confirm your email address/);
    await expect
      .poll(async () => api.deps.db.selectFrom('mail_outbox').select(['text_body', 'html_body', 'sent_at']).where('recipient', '=', email).executeTakeFirstOrThrow())
      .toMatchObject({ text_body: '', html_body: '', sent_at: expect.anything() });
  });

  it('mail preferences are saved and returned', async () => {
    const { tokens } = await register();
    const userId = userIdOf(tokens.accessToken);
    const saved = await api.call('PUT', `/api/v1/users/${userId}/profile`, { token: tokens.accessToken, body: { firstName: 'Robin', lastName: 'Reset', marketingOptIn: true, transactionalOptOut: true } });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ marketingOptIn: true, transactionalOptOut: true });
    const unchanged = await api.call('PUT', `/api/v1/users/${userId}/profile`, { token: tokens.accessToken, body: { firstName: 'Robin', lastName: 'Reset' } });
    expect(unchanged.body).toMatchObject({ marketingOptIn: true, transactionalOptOut: true });
  });

  it('a failing mail server delays mail, never the request, and the mail goes once it is back', async () => {
    smtp.failing = true;
    try {
      const email = uniqueEmail();
      const started = Date.now();
      await register(email);
      expect(Date.now() - started).toBeLessThan(5000);
      await expect.poll(async () => (await api.deps.db.selectFrom('mail_outbox').select('last_error').where('recipient', '=', email).executeTakeFirst())?.last_error ?? null, { timeout: 10_000 }).not.toBeNull();
      const row = await api.deps.db.selectFrom('mail_outbox').selectAll().where('recipient', '=', email).executeTakeFirstOrThrow();
      expect(row.sent_at).toBeNull();
      expect(row.last_error).toMatch(/451|busy/i);
      // Due again at once rather than after the backoff: the test does not wait minutes.
      smtp.failing = false;
      await api.deps.db.updateTable('mail_outbox').set({ next_attempt_at: new Date() }).where('id', '=', row.id).execute();
      await api.deps.mailSender.runOnce();
      await smtp.waitFor(email, /Confirm your email address/);
    } finally {
      smtp.failing = false;
    }
  });
});

describe.each(API_BACKENDS)('mail that cannot be sent, and the per-client limit (%s)', (backend) => {
  let api: TestApi;
  let smtp: TestSmtpServer;

  beforeAll(async () => {
    smtp = await TestSmtpServer.start();
    smtp.failing = true;
    api = await startTestApi(backend, {
      services: { mail: { smtpUrl: smtp.url, from: 'Provenance <no-reply@provenance.test>', pollMs: 100, maxAttempts: 2, firstBackoffMs: 50 } },
      rateLimits: { accountMail: { max: 3, windowMs: 60_000 } },
    });
  });
  afterAll(async () => {
    await api?.close();
    await smtp?.close();
  });

  it('gives up after the last attempt and shows it to admins at GET /api/admin/mail, with the error; never to a buyer', async () => {
    const email = `undeliverable-${Date.now().toString(36)}@example.com`;
    expect((await api.call('POST', '/api/auth/register', { body: { firstName: 'Una', lastName: 'Sent', email, password: PASSWORD } })).status).toBe(201);
    const admin = await api.signUp('ADMIN');
    const failed = async () => (await api.call('GET', '/api/admin/mail?status=FAILED', { token: admin.tokens.accessToken })).body;
    await expect.poll(async () => (await failed()).content.map((mail: { recipient: string }) => mail.recipient), { timeout: 10_000 }).toContain(email);
    const mail = (await failed()).content.find((candidate: { recipient: string }) => candidate.recipient === email);
    expect(mail).toMatchObject({ status: 'FAILED', attempts: 2, subject: 'Confirm your email address for Provenance', nextAttemptAt: null, sentAt: null });
    expect(mail.lastError).toMatch(/451/);
    expect((await failed()).counts.failed).toBeGreaterThanOrEqual(1);
    expect(JSON.stringify(await failed())).not.toContain('#token=');
    const buyer = await api.signUp();
    expect((await api.call('GET', '/api/admin/mail', { token: buyer.tokens.accessToken })).status).toBe(403);
    expect((await api.call('GET', '/api/admin/mail')).status).toBe(401);
  });

  it('holds one client to RATE_LIMIT_ACCOUNT_MAIL, whichever addresses it asks about', async () => {
    const statuses = [];
    for (let attempt = 0; attempt < 4; attempt++) {
      statuses.push((await api.call('POST', '/api/auth/password/forgot', { body: { email: `client-limit-${attempt}@example.com` } })).status);
    }
    expect(statuses).toEqual([202, 202, 202, 429]);
  });
});

describe('without SMTP_URL, mail as .eml files under DATA_DIR/mail (PGlite)', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startTestApi('PGlite');
  });
  afterAll(async () => {
    await api?.close();
  });

  it('writes each mail, both parts, as a file a mail program opens, with its working link', async () => {
    const email = `eml-${Date.now().toString(36)}@example.com`;
    const registered = await api.call('POST', '/api/auth/register', { body: { firstName: 'Eve', lastName: 'Eml', email, password: PASSWORD } });
    expect(registered.status).toBe(201);
    const folder = join(api.deps.dataDir, 'mail');
    let files: string[] = [];
    await expect.poll(async () => (files = (await readdir(folder).catch(() => [])).filter((name) => name.endsWith('.eml'))).length, { timeout: 10_000 }).toBe(1);
    const mail = await simpleParser(await readFile(join(folder, files[0]!)));
    expect(mail.subject).toBe('Confirm your email address for Provenance');
    expect([mail.to].flat().flatMap((to) => to?.value.map((entry) => entry.address))).toEqual([email]);
    expect(mail.html).toContain('Confirm my email address');
    const link = (mail.text ?? '').match(/https?:\/\/\S+#token=\S+/)![0];
    expect(link.startsWith(`${api.url}/verify-email#token=`)).toBe(true);
    expect((await api.call('POST', '/api/auth/email/verify', { body: { token: tokenOf(link) } })).status).toBe(204);
  });
});

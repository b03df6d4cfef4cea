import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../api/app';
import { ConfigError, loadConfig } from '../../api/config';
import { DEFAULT_RATE_LIMITS } from '../../api/http/rate-limit-settings';
import { securityHeaders } from '../../api/http/security-headers';
import { S3MediaStorage } from '../../api/media/s3-storage';
import { WEB_DIST } from '../../api/web-app';
import { API_BACKENDS, startTestApi, type TestApi } from '../support/api';

const ROOT = new URL('../..', import.meta.url).pathname;
const HOUR = 3_600_000;

/** The policy's directives by name, e.g. { 'script-src': ["'self'"] }. */
function directives(header: string | null): Record<string, string[]> {
  expect(header, 'Content-Security-Policy header').toBeTruthy();
  return Object.fromEntries(
    header!
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter(([name]) => name)
      .map(([name, ...values]) => [name, values]),
  );
}

function expectStrictPolicy(header: string | null): void {
  const policy = directives(header);
  expect(policy).toMatchObject({
    'default-src': ["'self'"],
    'script-src': ["'self'"],
    'script-src-attr': ["'none'"],
    'style-src': ["'self'"],
    'object-src': ["'none'"],
    'frame-ancestors': ["'none'"],
    'base-uri': ["'self'"],
  });
  expect(header).not.toContain('unsafe');
}

describe.each(API_BACKENDS)('HTTP hardening on %s', (backend) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startTestApi(backend);
  });
  afterAll(async () => api.close());

  it('sends the strict policy and the other security headers on API answers and errors, and lets only /docs use inline styles', async () => {
    for (const path of ['/health', '/api/public/listings', '/api/nowhere']) {
      const { headers } = await api.call('GET', path);
      expectStrictPolicy(headers.get('content-security-policy'));
      expect({
        path,
        frame: headers.get('x-frame-options'),
        sniff: headers.get('x-content-type-options'),
        referrer: headers.get('referrer-policy'),
        hsts: headers.get('strict-transport-security'),
      }).toEqual({ path, frame: 'DENY', sniff: 'nosniff', referrer: 'no-referrer', hsts: null });
    }
    // Media are public: a CDN in front of /media may serve them to the app's pages.
    const media = await api.call('GET', `/media/${randomUUID()}`);
    expect(media.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    expect((await api.call('GET', '/health')).headers.get('cross-origin-resource-policy')).toBe('same-origin');

    const docs = await fetch(`${api.url}/docs/`);
    expect(docs.status).toBe(200);
    const docsPolicy = directives(docs.headers.get('content-security-policy'));
    expect(docsPolicy['style-src']).toEqual(["'self'", "'unsafe-inline'"]);
    expect(docsPolicy['script-src']).toEqual(["'self'"]);
  });

  it('sends HSTS only for requests that came over TLS: through a trusted proxy saying https, never for a forwarded header it does not trust', async () => {
    const trusting = await buildApp({ ...api.deps, trustProxy: true, logLevel: 'silent' });
    try {
      const url = await trusting.listen({ port: 0, host: '127.0.0.1' });
      const overTls = await fetch(`${url}/health`, { headers: { 'x-forwarded-proto': 'https' } });
      expect(overTls.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
      const plain = await fetch(`${url}/health`, { headers: { 'x-forwarded-proto': 'http' } });
      expect(plain.headers.get('strict-transport-security')).toBeNull();
    } finally {
      await closeNow(trusting);
    }
    const untrusted = await api.call('GET', '/health', { headers: { 'x-forwarded-proto': 'https' } });
    expect(untrusted.headers.get('strict-transport-security')).toBeNull();
  });
});

describe('the policy with media in S3', () => {
  it('allows images and videos from the public media address and uploads to the origin the store signs URLs for', async () => {
    const credentials = { accessKeyId: 'test-key', secretAccessKey: 'test-secret' };
    const stores = [
      // AWS, virtual-hosted: the bucket's own host; media through a CDN.
      [new S3MediaStorage({ bucket: 'prov-media', region: 'eu-west-1', forcePathStyle: false, credentials }, 'https://cdn.example.com/media'), 'https://prov-media.s3.eu-west-1.amazonaws.com', 'https://cdn.example.com'],
      // An S3-compatible server browsers reach at another address than the API does; media through the API.
      [new S3MediaStorage({ bucket: 'prov-media', region: 'us-east-1', endpoint: 'http://storage:8333', publicEndpoint: 'https://files.example.com', forcePathStyle: true, credentials }), 'https://files.example.com', null],
    ] as const;
    for (const [mediaStorage, uploadOrigin, mediaOrigin] of stores) {
      const app = Fastify();
      await app.register(securityHeaders, { mediaStorage });
      app.get('/page', async () => 'page');
      const policy = directives(String((await app.inject('/page')).headers['content-security-policy']));
      await app.close();
      expect(policy['connect-src']).toEqual(["'self'", uploadOrigin]);
      expect(policy['img-src']).toEqual(["'self'", 'data:', 'blob:', ...(mediaOrigin ? [mediaOrigin] : [])]);
      expect(policy['media-src']).toEqual(["'self'", 'blob:', ...(mediaOrigin ? [mediaOrigin] : [])]);
    }
  });
});

describe.each(API_BACKENDS)('general rate limits on %s', (backend) => {
  let api: TestApi;
  beforeAll(async () => {
    // Behind a trusted proxy, so that each test can speak from its own client address.
    api = await startTestApi(backend, {
      services: { trustProxy: true },
      rateLimits: { register: { max: 3, windowMs: HOUR }, signIn: { max: 2, windowMs: HOUR }, bids: { max: 2, windowMs: HOUR }, uploads: { max: 1, windowMs: HOUR } },
    });
  });
  afterAll(async () => api.close());

  const from = (address: string) => ({ 'x-forwarded-for': address });
  const registration = () => ({ firstName: 'Rita', lastName: 'Limit', email: `rate-${randomUUID().slice(0, 8)}@example.com`, password: 'Str0ng!Passw0rd' });

  it('answers 429 with Retry-After and the error shape after the configured sign-ups from one address; another address still signs up', async () => {
    for (let signUp = 1; signUp <= 3; signUp++) {
      expect((await api.call('POST', '/api/auth/register', { body: registration(), headers: from('203.0.113.7') })).status).toBe(201);
    }
    const refused = await api.call('POST', '/api/auth/register', { body: registration(), headers: from('203.0.113.7') });
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      statusCode: 429,
      error: 'Too Many Requests',
      message: expect.stringMatching(/^Too many sign-ups from this address: at most 3 per hour\. Try again in \d+ \w+\.$/),
      code: 'RATE_LIMITED',
    });
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(3600);

    expect((await api.call('POST', '/api/auth/register', { body: registration(), headers: from('198.51.100.9') })).status).toBe(201);
  });

  it('counts sign-in attempts per address across both sign-ins, on top of the failed-attempt throttle', async () => {
    const { user, password } = await api.signUp('BUYER');
    const body = { email: user.email, password };
    expect((await api.call('POST', '/api/auth/login', { body, headers: from('203.0.113.20') })).status).toBe(200);
    expect((await api.call('POST', '/api/admin/auth/login', { body, headers: from('203.0.113.20') })).status).toBe(403);
    const refused = await api.call('POST', '/api/auth/login', { body, headers: from('203.0.113.20') });
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('RATE_LIMITED');
    expect((await api.call('POST', '/api/auth/login', { body, headers: from('203.0.113.21') })).status).toBe(200);
  });

  it('counts bids and buy-nows together per account, whatever the address', async () => {
    const ann = await api.signUp('BUYER');
    const bob = await api.signUp('BUYER');
    const bid = { auctionId: randomUUID(), amount: 10 };
    // Refused by the engine (no such auction) but counted all the same.
    expect((await api.call('POST', '/api/bids', { token: ann.tokens.accessToken, body: bid, headers: from('203.0.113.30') })).status).not.toBe(429);
    expect((await api.call('POST', '/api/bids/buy-now', { token: ann.tokens.accessToken, body: { auctionId: bid.auctionId }, headers: from('203.0.113.31') })).status).not.toBe(429);
    const refused = await api.call('POST', '/api/bids', { token: ann.tokens.accessToken, body: bid, headers: from('203.0.113.32') });
    expect(refused.status).toBe(429);
    expect(refused.body.message).toMatch(/^Too many bids: at most 2 per hour\./);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect((await api.call('POST', '/api/bids', { token: bob.tokens.accessToken, body: bid, headers: from('203.0.113.30') })).status).not.toBe(429);
  });

  it('counts every upload route together per admin, refusing a multipart upload before reading it', async () => {
    const admin = await api.signUp('ADMIN');
    const presigned = await api.call('POST', '/api/admin/media/upload/presigned-url', {
      token: admin.tokens.accessToken,
      body: { filename: 'shirt.png', contentType: 'image/png', fileSizeBytes: 100 },
    });
    expect(presigned.status).toBe(201);
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(300 * 1024)], { type: 'image/png' }), 'shirt.png');
    const refused = await fetch(`${api.url}/api/admin/listings/media/upload`, { method: 'POST', headers: { authorization: `Bearer ${admin.tokens.accessToken}` }, body: form });
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({ statusCode: 429, code: 'RATE_LIMITED', message: expect.stringMatching(/^Too many upload requests/) });
    expect((await api.call('GET', '/health')).status).toBe(200);
  });
});

describe('the web app as served', () => {
  let api: TestApi;
  let app: FastifyInstance;
  let url: string;
  let entryScript: string;
  beforeAll(async () => {
    await buildWebApp();
    api = await startTestApi('PGlite');
    app = await buildApp({ ...api.deps, logLevel: 'silent' }, { webApp: WEB_DIST });
    url = await app.listen({ port: 0, host: '127.0.0.1' });
    entryScript = /<script type="module" crossorigin src="([^"]+)"/.exec(await readFile(join(WEB_DIST, 'index.html'), 'utf8'))![1]!;
  }, 180_000);
  afterAll(async () => {
    await closeNow(app);
    await api.close();
  });

  it('serves pages and assets under the strict policy, and the page has no inline script', async () => {
    const page = await fetch(`${url}/marketplace`);
    expect(page.headers.get('content-type')).toContain('text/html');
    expectStrictPolicy(page.headers.get('content-security-policy'));
    const html = await page.text();
    const scripts = html.match(/<script\b[^>]*>/g) ?? [];
    expect(scripts.length).toBeGreaterThan(0);
    for (const tag of scripts) expect(tag).toMatch(/\ssrc="\//);

    for (const path of [entryScript, '/theme.js', '/favicon.svg']) {
      const asset = await fetch(`${url}${path}`);
      expect({ path, status: asset.status }).toEqual({ path, status: 200 });
      expectStrictPolicy(asset.headers.get('content-security-policy'));
    }
  });

  it('sends each asset compressed as the client accepts: brotli, else gzip, else as it is', async () => {
    const original = await readFile(join(WEB_DIST, entryScript));
    const brotli = await rawGet(`${url}${entryScript}`, 'gzip, deflate, br');
    expect(brotli.headers).toMatchObject({ 'content-encoding': 'br', 'vary': 'accept-encoding', 'content-type': 'application/javascript; charset=utf-8' });
    expect(brotliDecompressSync(brotli.body).equals(original)).toBe(true);

    const gzip = await rawGet(`${url}${entryScript}`, 'gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.body).equals(original)).toBe(true);

    const identity = await rawGet(`${url}${entryScript}`, undefined);
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(identity.body.equals(original)).toBe(true);

    // Minified JavaScript shrinks to well under half.
    expect(brotli.body.length).toBeLessThan(gzip.body.length);
    expect(gzip.body.length / original.length).toBeLessThan(0.4);

    const page = await rawGet(`${url}/marketplace`, 'br');
    expect(page.headers['content-encoding']).toBe('br');
  });

  it('publishes no source maps: none is built, and one put there by hand is not served', async () => {
    const built = await readdir(WEB_DIST, { recursive: true });
    expect(built.filter((file) => file.endsWith('.map'))).toEqual([]);
    expect((await fetch(`${url}${entryScript}.map`)).status).toBe(404);

    const dist = await mkdtemp(join(tmpdir(), 'provenance-dist-'));
    await mkdir(join(dist, 'assets'));
    await writeFile(join(dist, 'index.html'), '<!doctype html><title>t</title>');
    await writeFile(join(dist, 'assets', 'app.js'), 'console.log(1)');
    await writeFile(join(dist, 'assets', 'app.js.map'), '{"version":3,"sources":["secret.ts"]}');
    const withMap = await buildApp({ ...api.deps, logLevel: 'silent' }, { webApp: `${dist}/` });
    try {
      const served = await withMap.listen({ port: 0, host: '127.0.0.1' });
      expect((await fetch(`${served}/assets/app.js`)).status).toBe(200);
      const map = await fetch(`${served}/assets/app.js.map`);
      expect(map.status).toBe(404);
      expect(await map.text()).not.toContain('secret.ts');
    } finally {
      await closeNow(withMap);
      await rm(dist, { recursive: true, force: true });
    }
  });
});

describe('rate limit settings', () => {
  it('are on by default and read as a count per period', () => {
    expect(loadConfig({}).rateLimits).toEqual(DEFAULT_RATE_LIMITS);
    expect(loadConfig({ RATE_LIMIT_REGISTER: '5/10 minutes', RATE_LIMIT_BIDS: '120/minute', RATE_LIMIT_UPLOADS: '2/h' }).rateLimits).toMatchObject({
      register: { max: 5, windowMs: 600_000 },
      bids: { max: 120, windowMs: 60_000 },
      uploads: { max: 2, windowMs: HOUR },
      signIn: DEFAULT_RATE_LIMITS.signIn,
    });
  });

  it('refuse what is not a count of at least one per period, naming the setting', () => {
    for (const value of ['lots', '0/minute', '10', '10/fortnight', '10/0 minutes']) {
      expect(() => loadConfig({ RATE_LIMIT_SIGN_IN: value }), value).toThrow(ConfigError);
      expect(() => loadConfig({ RATE_LIMIT_SIGN_IN: value }), value).toThrow(/RATE_LIMIT_SIGN_IN: must be a count per period/);
    }
  });
});

/** `npm run build:web`'s script without --force: it builds only when the sources changed. */
async function buildWebApp(): Promise<void> {
  const child = spawn('npx', ['tsx', 'scripts/build-web.ts'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  if (code !== 0) throw new Error(`the web build failed:\n${output}`);
}

/** The bytes as they travel (fetch would undo the compression), with the Accept-Encoding given. */
function rawGet(url: string, acceptEncoding: string | undefined): Promise<{ headers: IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ headers: response.headers, body: Buffer.concat(chunks) }));
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end();
  });
}

async function closeNow(app: FastifyInstance): Promise<void> {
  app.server.closeAllConnections();
  await app.close();
}

import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../api/app';
import { loadConfig } from '../../api/config';
import { LOCK_FILE } from '../../api/data-dir-lock';
import { API_BACKENDS, startTestApi, type TestApi } from '../support/api';
import { freePort, runScript, spawnScript, type RunningScript } from '../support/processes';

const CLIS = ['scripts/seed.ts', 'scripts/user-create.ts', 'scripts/rebuild-projections.ts'];
const PASSWORD = 'Operat0r!Passw0rd';
const BANNER = /Provenance is running at/;
const FIRST_START_MS = 150_000;

async function signIn(port: number, email: string, password: string): Promise<number> {
  const response = await fetch(`http://127.0.0.1:${port}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });
  return response.status;
}

/** The addresses that listen on `port` on this machine, read from the kernel's socket tables. */
async function listeningAddresses(port: number): Promise<string[]> {
  const addresses: string[] = [];
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const row of (await readFile(table, 'utf8')).split('\n').slice(1)) {
      const [, local, , state] = row.trim().split(/\s+/);
      const [address, portHex] = local?.split(':') ?? [];
      // 0A: LISTEN. IPv4 addresses are four bytes, least significant first.
      if (state !== '0A' || !address || Number.parseInt(portHex!, 16) !== port) continue;
      addresses.push(address.length === 8 ? address.match(/../g)!.map((byte) => Number.parseInt(byte, 16)).reverse().join('.') : address);
    }
  }
  return addresses;
}

describe('one process per DATA_DIR (npm start and the operator scripts, as processes)', () => {
  let dataDir: string;
  let port: number;
  let server: RunningScript;
  const email = `operator-${Date.now()}@example.com`;
  const settings = () => ({ DATA_DIR: dataDir, PORT: String(port) });

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'provenance-operate-'));
    port = await freePort();
    server = spawnScript('api/server.ts', [], settings());
    await server.waitForOutput(BANNER, FIRST_START_MS);
  }, FIRST_START_MS + 10_000);
  afterAll(async () => {
    await server?.stop();
    await rm(dataDir, { recursive: true, force: true });
  }, 30_000);

  it('listens on 127.0.0.1 only unless HOST says otherwise, and says so', async () => {
    expect(server.stdout()).toContain(`Provenance is running at http://127.0.0.1:${port}/marketplace`);
    expect(await listeningAddresses(port)).toEqual(['127.0.0.1']);
  });

  it('refuses a second server on the same DATA_DIR at once, naming the first; the first keeps serving its users', async () => {
    const register = await fetch(`http://127.0.0.1:${port}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: PASSWORD, firstName: 'Olive', lastName: 'Operator' }),
    });
    expect(register.status).toBe(201);

    const second = await runScript('api/server.ts', [], { ...settings(), PORT: String(await freePort()) });
    expect(second.code).toBe(1);
    expect(second.stderr).toMatch(new RegExp(`is in use by another process: pid ${server.pid} \\(api/server\\.ts\\), running since \\d{4}-`));
    expect(second.stderr).not.toMatch(/^\s+at /m);
    expect(second.stdout).not.toMatch(BANNER);

    expect((await fetch(`http://127.0.0.1:${port}/health`)).status).toBe(200);
    expect(await signIn(port, email, PASSWORD)).toBe(200);
  }, 60_000);

  it('refuses every operator script on the held folder, naming the server', async () => {
    const attempts = [
      runScript('scripts/seed.ts', ['--yes'], settings()),
      runScript('scripts/user-create.ts', ['--email', 'refused@example.com', '--role', 'BUYER', '--password-stdin'], settings(), PASSWORD),
      runScript('scripts/rebuild-projections.ts', ['--yes'], settings()),
    ];
    for (const attempt of await Promise.all(attempts)) {
      expect(attempt.code).toBe(1);
      expect(attempt.stderr).toContain(`is in use by another process: pid ${server.pid} (api/server.ts)`);
    }
  }, 60_000);

  it('prints each script\'s usage for --help and changes nothing, held folder or none', async () => {
    const missing = join(dataDir, 'never-created');
    for (const cli of CLIS) {
      for (const folder of [dataDir, missing]) {
        const help = await runScript(cli, ['--help'], { ...settings(), DATA_DIR: folder });
        expect(help.code).toBe(0);
        expect(help.stdout).toMatch(/^Usage: npm run [a-z:]+ -- /);
        expect(help.stdout).toContain('-h, --help');
      }
    }
    expect(await readdir(dataDir)).not.toContain('never-created');
  }, 60_000);

  it('refuses projections:rebuild without --yes when there is no terminal to confirm on, before opening anything', async () => {
    const rebuild = await runScript('scripts/rebuild-projections.ts', [], settings());
    expect(rebuild.code).toBe(1);
    expect(rebuild.stderr).toContain('Refused: there is no terminal to confirm on. Run it again with --yes to go ahead.');
    // Not even the lock was asked for: the server's holds.
    expect(rebuild.stderr).not.toContain('in use by another process');
    const listings = (await (await fetch(`http://127.0.0.1:${port}/api/public/listings`)).json()) as { totalElements: number };
    expect(listings.totalElements).toBe(10);
  }, 30_000);

  it('after the server stops: user:create reads the password from stdin, projections:rebuild --yes counts what it replays, and a restart keeps every account', async () => {
    expect(await server.stop()).toBe(0);
    expect(await readdir(dataDir)).not.toContain(LOCK_FILE);

    const noPassword = await runScript('scripts/user-create.ts', ['--email', 'nopassword@example.com', '--role', 'ADMIN'], settings());
    expect(noPassword.code).toBe(1);
    expect(noPassword.stderr).toContain('--password-stdin');

    const created = await runScript('scripts/user-create.ts', ['--email', 'cli-admin@example.com', '--role', 'ADMIN', '--password-stdin'], settings(), `${PASSWORD}\n`);
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
    expect(created.stdout).toMatch(/Created ADMIN account cli-admin@example\.com with id [0-9a-f-]{36}/);

    const rebuild = await runScript('scripts/rebuild-projections.ts', ['--yes'], settings());
    expect(rebuild.code).toBe(0);
    expect(rebuild.stderr).toMatch(/Events replayed: [\d,]+ \([\d,]+\/s\)/);
    expect(rebuild.stdout).toMatch(/Read models rebuilt from the event log: [1-9][\d,]* events in [\d.]+ s \([\d,]+\/s\)/);

    server = spawnScript('api/server.ts', [], settings());
    await server.waitForOutput(BANNER, 60_000);
    expect(await signIn(port, email, PASSWORD)).toBe(200);
    expect(await signIn(port, 'cli-admin@example.com', PASSWORD)).toBe(200);
    const listings = (await (await fetch(`http://127.0.0.1:${port}/api/public/listings`)).json()) as { totalElements: number };
    expect(listings.totalElements).toBe(10);
  }, 150_000);
});

describe('npm start on a taken port', () => {
  let dataDir: string;
  let squatter: Server;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'provenance-port-'));
    squatter = createServer();
    await new Promise<void>((resolve) => squatter.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    await new Promise((resolve) => squatter.close(resolve));
    await rm(dataDir, { recursive: true, force: true });
  });

  it('says in one line which setting to change, exits 1 and lets go of DATA_DIR', async () => {
    const { port } = squatter.address() as { port: number };
    const start = await runScript('api/server.ts', [], { DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'error' });
    expect(start.code).toBe(1);
    expect(start.stderr).toBe(`Port ${port} on 127.0.0.1 is already in use: stop the program using it, or set PORT to another port (PORT=0 picks a free one).\n`);
    expect(start.stdout).toBe('');
    expect(await readdir(dataDir)).not.toContain(LOCK_FILE);
  }, 120_000);

  it('defaults HOST to 127.0.0.1', () => {
    expect(loadConfig({}).host).toBe('127.0.0.1');
    expect(loadConfig({ HOST: '0.0.0.0' }).host).toBe('0.0.0.0');
  });

  it('reads INSTANCE_URL: none by default, a given address, or auto (this host on PORT); only with a shared DATABASE_URL', () => {
    const DATABASE_URL = 'postgres://postgres@db:5432/provenance';
    expect(loadConfig({ DATABASE_URL }).instanceUrl).toBeUndefined();
    expect(loadConfig({ DATABASE_URL, INSTANCE_URL: 'http://api-1:3000/' }).instanceUrl).toBe('http://api-1:3000');
    const addresses = Object.values(networkInterfaces()).flat().filter((address) => address?.family === 'IPv4' && !address.internal);
    if (addresses.length > 0) expect(loadConfig({ DATABASE_URL, INSTANCE_URL: 'auto', PORT: '8080' }).instanceUrl).toBe(`http://${addresses[0]!.address}:8080`);
    expect(() => loadConfig({ INSTANCE_URL: 'http://api-1:3000' })).toThrow('INSTANCE_URL is for several processes sharing one database: it needs DATABASE_URL');
    expect(() => loadConfig({ DATABASE_URL, INSTANCE_URL: 'api-1:3000' })).toThrow('INSTANCE_URL');
  });
});

describe.each(API_BACKENDS)('X-Request-Id behind a trusted proxy on %s', (backend) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startTestApi(backend, { services: { trustProxy: true } });
  });
  afterAll(async () => api.close());

  it('keeps an acceptable incoming id and answers with it', async () => {
    for (const id of ['edge-4bf92f3577b34da6', 'Root=1-67891233-abcdef012345678912345678', 'a'.repeat(128)]) {
      const response = await api.call('GET', '/api/public/listings', { headers: { 'x-request-id': id } });
      expect(response.status).toBe(200);
      expect(response.headers.get('x-request-id')).toBe(id);
    }
  });

  it('replaces an unacceptable one (too long, odd characters, empty) with a fresh UUID', async () => {
    for (const id of ['a'.repeat(129), 'two words', '<script>', 'id;drop', '']) {
      const response = await api.call('GET', '/api/public/listings', { headers: { 'x-request-id': id } });
      expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    }
  });
});

describe('X-Request-Id without a trusted proxy', () => {
  it('is never the client\'s: a client could file its events under another request\'s correlation', async () => {
    const api = await startTestApi('PGlite');
    try {
      const response = await api.call('GET', '/api/public/listings', { headers: { 'x-request-id': 'edge-4bf92f3577b34da6' } });
      expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    } finally {
      await api.close();
    }
  });
});

describe('request logging', () => {
  /** The log lines of one request for the app's file and one to the API, with the server at `level`. */
  async function logOfTwoRequests(api: TestApi, webApp: string, level: string): Promise<{ asset: string[]; api: string[] }> {
    const lines: Array<{ reqId?: string; msg: string }> = [];
    const app = await buildApp({ ...api.deps, logLevel: level, trustProxy: true }, { webApp, logStream: { write: (line) => void lines.push(JSON.parse(line)) } });
    try {
      const url = await app.listen({ port: 0, host: '127.0.0.1' });
      expect((await fetch(`${url}/assets/index-abc123.js`, { headers: { 'x-request-id': 'asset-request' } })).status).toBe(200);
      expect((await fetch(`${url}/api/public/listings`, { headers: { 'x-request-id': 'api-request' } })).status).toBe(200);
    } finally {
      await app.close();
    }
    const of = (reqId: string) => lines.filter((line) => line.reqId === reqId).map((line) => line.msg);
    return { asset: of('asset-request'), api: of('api-request') };
  }

  it('logs API requests at info and the web app\'s files only from debug on', async () => {
    const api = await startTestApi('PGlite');
    const webApp = await mkdtemp(join(tmpdir(), 'provenance-web-'));
    try {
      await writeFile(join(webApp, 'index.html'), '<!doctype html><title>Provenance</title>');
      await mkdir(join(webApp, 'assets'));
      await writeFile(join(webApp, 'assets', 'index-abc123.js'), 'console.log(1)');
      expect(await logOfTwoRequests(api, `${webApp}/`, 'info')).toEqual({ asset: [], api: ['incoming request', 'request completed'] });
      expect(await logOfTwoRequests(api, `${webApp}/`, 'debug')).toEqual({ asset: ['incoming request', 'request completed'], api: ['incoming request', 'request completed'] });
    } finally {
      await rm(webApp, { recursive: true, force: true });
      await api.close();
    }
  });
});

import { spawn } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../api/app';
import { ConfigError, loadConfig } from '../../api/config';
import type { SqlClient } from '../../engine/postgres/sql-client';
import { API_BACKENDS, startTestApi, type TestApi } from '../support/api';

describe.each(API_BACKENDS)('the API on %s', (backend) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startTestApi(backend);
  });
  afterAll(async () => api.close());

  it('answers GET /health with 200 {"status":"ok"} while the database answers', async () => {
    const response = await api.call('GET', '/health');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'ok' });
  });

  it('serves its OpenAPI description at /docs', async () => {
    const page = await fetch(`${api.url}/docs`);
    expect(page.status).toBe(200);
    const spec = await api.call('GET', '/docs/json');
    expect(spec.body).toMatchObject({ openapi: expect.stringMatching(/^3\./), info: { title: 'Provenance API' } });
  });

  it('answers unknown routes with the error shape and a request id', async () => {
    const response = await api.call('GET', '/api/nowhere');
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ statusCode: 404, error: 'Not Found', message: 'Route GET /api/nowhere not found' });
    expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('GET /health when the database is down', () => {
  it('answers 503 without details', async () => {
    const api = await startTestApi('PGlite');
    const broken: SqlClient = {
      query: async () => {
        throw new Error('connection refused at 10.0.0.7:5432 with password hunter2');
      },
      transaction: async () => {
        throw new Error('unreachable');
      },
      listen: async () => async () => undefined,
      close: async () => undefined,
    };
    const app = await buildApp({ ...api.deps, sql: broken, logLevel: 'silent' });
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    const response = await fetch(`${address}/health`);
    expect(response.status).toBe(503);
    expect(await response.text()).toBe('{"status":"unavailable"}');
    await app.close();
    await api.close();
  });
});

describe('configuration', () => {
  it('defaults to the embedded setup on port 3000 with ./data', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ port: 3000, databaseUrl: undefined, eventStoreUrl: undefined });
    expect(config.dataDir).toBe(join(process.cwd(), 'data'));
  });

  it('treats empty variables as unset and refuses bad values with a message naming them', () => {
    expect(loadConfig({ DATABASE_URL: '', PORT: '8080' })).toMatchObject({ port: 8080, databaseUrl: undefined });
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL/);
    expect(() => loadConfig({ EVENTSTORE_URL: 'http://x' })).toThrow(/EVENTSTORE_URL/);
  });
});

describe('npm start', () => {
  it('serves /health on PORT, keeps its data under DATA_DIR, stocks the marketplace and prints how to sign in', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'provenance-start-'));
    const port = await freePort();
    const child = spawn('npm', ['start'], {
      env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, DATABASE_URL: '', EVENTSTORE_URL: '', LOG_LEVEL: 'warn' },
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    try {
      const body = await waitForHealth(`http://127.0.0.1:${port}/health`, 150_000, () => output);
      expect(body).toEqual({ status: 'ok' });
      expect(await readdir(dataDir)).toContain('pglite');
      // Once the first start has stocked the marketplace, it says where to go and how to sign in.
      const deadline = Date.now() + 150_000;
      while (!output.includes('Demo buyer') && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200));
      expect(output).toContain(`Provenance is running at http://localhost:${port}`);
      expect(output).toMatch(/Demo admin: +admin@provenance\.local \/ \S{12,}/);
      expect(output).toMatch(/Demo buyer: +buyer@provenance\.local \/ \S{12,}/);
      const listings = (await (await fetch(`http://127.0.0.1:${port}/api/public/listings`)).json()) as { totalElements: number };
      expect(listings.totalElements).toBe(10);
    } finally {
      process.kill(-child.pid!, 'SIGTERM');
      await exited;
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 180_000);
});

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function waitForHealth(url: string, timeoutMs: number, output: () => string): Promise<unknown> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const response = await fetch(url);
      if (response.ok) return response.json();
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`server did not become healthy; its output:\n${output()}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

import { spawn } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../api/config';
import { API_BACKENDS, startTestApi, type TestApi } from '../support/api';
import { freePort, processGroupGone, waitForHealth } from '../support/processes';

describe.each(API_BACKENDS)('the API on %s', (backend) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startTestApi(backend);
  });
  afterAll(async () => api.close());

  // Readiness (the database, the store, the read models' lag) is /ready: test/api/observability.test.ts.
  it('answers GET /health (liveness) with 200 {"status":"ok"}', async () => {
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

  it('keeps a deployment to a namespace of a shared KurrentDB, and refuses a namespace it could not keep apart', () => {
    const kurrentDb = 'kurrentdb://localhost:2113?tls=false';
    expect(loadConfig({ EVENTSTORE_URL: kurrentDb, EVENTSTORE_NAMESPACE: 'staging' })).toMatchObject({ eventStoreUrl: kurrentDb, eventStoreNamespace: 'staging' });
    expect(loadConfig({ EVENTSTORE_URL: kurrentDb, EVENTSTORE_NAMESPACE: '' })).toMatchObject({ eventStoreNamespace: undefined });
    expect(() => loadConfig({ EVENTSTORE_URL: kurrentDb, EVENTSTORE_NAMESPACE: 'stag.ing' })).toThrow(/EVENTSTORE_NAMESPACE/);
    expect(() => loadConfig({ EVENTSTORE_NAMESPACE: 'staging' })).toThrow(/EVENTSTORE_NAMESPACE needs EVENTSTORE_URL/);
  });
});

describe('npm start', () => {
  it('serves /health on PORT, keeps its data under DATA_DIR, stocks the marketplace and prints how to sign in', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'provenance-start-'));
    const port = await freePort();
    const child = spawn('npm', ['start'], {
      env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, DATABASE_URL: '', EVENTSTORE_URL: '', EVENTSTORE_NAMESPACE: '', LOG_LEVEL: 'warn' },
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
      expect(output).toContain(`Provenance is running at http://127.0.0.1:${port}`);
      expect(output).toMatch(/Demo admin: +admin@provenance\.local \/ \S{12,}/);
      expect(output).toMatch(/Demo buyer: +buyer@provenance\.local \/ \S{12,}/);
      const listings = (await (await fetch(`http://127.0.0.1:${port}/api/public/listings`)).json()) as { totalElements: number };
      expect(listings.totalElements).toBe(10);
    } finally {
      process.kill(-child.pid!, 'SIGTERM');
      await exited;
      await processGroupGone(child.pid!);
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 180_000);
});

import specs from '@asyncapi/specs';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { buildApp } from '../../api/app';
import { ConfigError, loadConfig } from '../../api/config';
import { TEMPLATE_COLUMNS } from '../../api/contracts/admin/bulk-import';
import { clientMessageSchema, serverMessageSchema } from '../../api/contracts/live';
import type { AppDependencies } from '../../api/dependencies';
import { positionToString, WrongExpectedRevisionError, type EventStore } from '../../engine/eventstore/port';
import { PostgresEventStore } from '../../engine/eventstore/postgres/postgres-event-store';
import { PGliteClient, type SqlClient } from '../../engine/postgres/sql-client';
import { API_BACKENDS, startTestApi, type TestApi } from '../support/api';
import { createMarketplaceListing } from '../support/marketplace';

interface Sample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{((?:[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\n]|\\[\\"n])*",?)*)\})? (\S+)(?: -?\d+)?$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\n]|\\[\\"n])*)"/g;
const SUFFIXES: Record<string, readonly string[]> = { counter: [''], gauge: [''], untyped: [''], histogram: ['_bucket', '_sum', '_count'], summary: ['', '_sum', '_count'] };

/**
 * The Prometheus text format (0.0.4), read strictly: every line is a HELP or TYPE comment or a
 * sample of a family whose TYPE came first, with well-formed labels and a number; anything else
 * fails the test.
 */
function parsePrometheusText(text: string): Sample[] {
  expect(text.endsWith('\n')).toBe(true);
  const types = new Map<string, string>();
  const samples: Sample[] = [];
  for (const line of text.slice(0, -1).split('\n')) {
    if (line === '') continue;
    if (line.startsWith('#')) {
      const [, keyword, name, rest] = /^# (HELP|TYPE) (\S+) ?(.*)$/.exec(line) ?? [];
      expect(keyword, line).toBeDefined();
      expect(name, line).toMatch(METRIC_NAME);
      if (keyword === 'TYPE') {
        expect(Object.keys(SUFFIXES), line).toContain(rest);
        expect(types.has(name!), `${name} typed twice`).toBe(false);
        types.set(name!, rest!);
      }
      continue;
    }
    const match = SAMPLE.exec(line);
    expect(match, `not a sample line: ${line}`).not.toBeNull();
    const [, name, labelText = '', valueText] = match!;
    const family = [...types].find(([family, type]) => SUFFIXES[type]!.some((suffix) => `${family}${suffix}` === name));
    expect(family, `${name} has no TYPE line before it`).toBeDefined();
    // As Prometheus reads values (Go's ParseFloat): NaN and ±Inf in any case (prom-client writes "Nan").
    const value = /^nan$/i.test(valueText!) ? Number.NaN : /^[+-]inf$/i.test(valueText!) ? (valueText!.startsWith('-') ? -Infinity : Infinity) : Number(valueText);
    expect(/^nan$/i.test(valueText!) || (valueText !== '' && !Number.isNaN(value)), line).toBe(true);
    samples.push({ name: name!, labels: Object.fromEntries([...labelText.matchAll(LABEL)].map(([, label, text]) => [label, text])), value });
  }
  return samples;
}

/** The value of the one sample of `name` with these labels (others may differ); 0 when there is none yet. */
function valueOf(samples: readonly Sample[], name: string, labels: Record<string, string> = {}): number {
  const matching = samples.filter((sample) => sample.name === name && Object.entries(labels).every(([label, text]) => sample.labels[label] === text));
  expect(matching.length, `${name} ${JSON.stringify(labels)}`).toBeLessThanOrEqual(1);
  return matching[0]?.value ?? 0;
}

const probeEvent = () => ({ id: randomUUID(), type: 'ObservabilityProbe', data: {}, metadata: {} });

describe('READY_MAX_LAG_EVENTS', () => {
  it('defaults to 1000, takes 0 and up, and refuses anything else naming the setting', () => {
    expect(loadConfig({}).readyMaxLagEvents).toBe(1000);
    expect(loadConfig({ READY_MAX_LAG_EVENTS: '0' }).readyMaxLagEvents).toBe(0);
    expect(loadConfig({ READY_MAX_LAG_EVENTS: '25000' }).readyMaxLagEvents).toBe(25_000);
    for (const bad of ['many', '-1', '1.5']) {
      expect(() => loadConfig({ READY_MAX_LAG_EVENTS: bad })).toThrow(ConfigError);
      expect(() => loadConfig({ READY_MAX_LAG_EVENTS: bad })).toThrow(/READY_MAX_LAG_EVENTS/);
    }
  });
});

describe.each(API_BACKENDS)('probes and metrics on %s', (backend) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startTestApi(backend);
  });
  afterAll(async () => api.close());

  const scrape = async () => {
    const response = await fetch(`${api.url}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    return parsePrometheusText(await response.text());
  };

  /** An app on `deps` (the test API's unless changed), listening until `use` is done. */
  async function withApp<T>(deps: AppDependencies, use: (url: string) => Promise<T>, webApp?: string): Promise<T> {
    const app = await buildApp({ ...deps, logLevel: 'silent' }, webApp ? { webApp } : {});
    const url = await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      return await use(url);
    } finally {
      app.server.closeAllConnections();
      await app.close();
    }
  }

  describe('GET /health and GET /ready', () => {
    it('answer 200 with JSON while all is well: liveness alone, and each readiness check', async () => {
      const health = await api.call('GET', '/health');
      expect(health.status).toBe(200);
      expect(health.headers.get('content-type')).toMatch(/^application\/json/);
      expect(health.body).toEqual({ status: 'ok' });

      await api.deps.projections.caughtUp();
      const head = await api.deps.eventStore.headPosition();
      const ready = await api.call('GET', '/ready');
      expect(ready.status).toBe(200);
      expect(ready.body).toEqual({
        status: 'ready',
        failing: [],
        checks: {
          database: { status: 'ok' },
          eventStore: { status: 'ok', headPosition: head && positionToString(head) },
          readModels: { status: 'ok', behindEvents: 0, maxBehindEvents: 1000, oldestPendingSeconds: null },
        },
      });
    });

    it('GET /ready answers 503 naming every check when the database is stopped, and GET /health still 200', async () => {
      // Another connection to the database, stopped: what this process sees when its database goes away.
      let stopped: { sql: SqlClient; store: EventStore };
      if (backend === 'PGlite') {
        const sql = await PGliteClient.open();
        stopped = { sql, store: await PostgresEventStore.open(sql) };
        await stopped.store.close();
        await sql.close();
      } else {
        const connection = await api.storage.connect();
        await connection.close();
        stopped = connection;
      }
      await withApp({ ...api.deps, sql: stopped.sql, eventStore: stopped.store }, async (url) => {
        const ready = await fetch(`${url}/ready`);
        expect(ready.status).toBe(503);
        const body = (await ready.json()) as any;
        expect(body).toMatchObject({
          status: 'not_ready',
          failing: ['database', 'eventStore', 'readModels'],
          checks: {
            database: { status: 'failing', reason: 'no answer (the error is in the log)' },
            eventStore: { status: 'failing', reason: 'no answer (the error is in the log)' },
            readModels: { status: 'failing', reason: 'no answer (the error is in the log)', maxBehindEvents: 1000 },
          },
        });
        const health = await fetch(`${url}/health`);
        expect(health.status).toBe(200);
      });
    });

    it('GET /ready answers 503 once the read models fall more than READY_MAX_LAG_EVENTS behind, and 200 when they catch up', async () => {
      await api.deps.projections.stop();
      try {
        // The log grows while nothing projects it: 1000 events behind is still ready... (In one of
        // the product's streams: on a shared KurrentDB the product follows only those.)
        await api.deps.eventStore.appendToStream(`auction_rejections-${randomUUID()}`, Array.from({ length: 1000 }, probeEvent), { expectedRevision: 'no_stream' });
        const atTheLimit = await api.call('GET', '/ready');
        expect(atTheLimit.status).toBe(200);
        expect(atTheLimit.body.checks.readModels).toMatchObject({ status: 'ok', behindEvents: 1000, oldestPendingSeconds: expect.any(Number) });

        // ...one more is not.
        await api.deps.eventStore.appendToStream(`auction_rejections-${randomUUID()}`, [probeEvent()], { expectedRevision: 'no_stream' });
        const behind = await api.call('GET', '/ready');
        expect(behind.status).toBe(503);
        expect(behind.body).toMatchObject({
          status: 'not_ready',
          failing: ['readModels'],
          checks: {
            database: { status: 'ok' },
            eventStore: { status: 'ok' },
            readModels: { status: 'failing', reason: 'more than 1000 events behind the log (READY_MAX_LAG_EVENTS)', behindEvents: 1001, maxBehindEvents: 1000 },
          },
        });
        const lagging = await scrape();
        expect(valueOf(lagging, 'provenance_projection_lag_events')).toBe(1001);
        expect(valueOf(lagging, 'provenance_projection_lag_seconds')).toBeGreaterThanOrEqual(0);
      } finally {
        await api.deps.projections.start();
      }
      await api.deps.projections.caughtUp();
      const caughtUp = await api.call('GET', '/ready');
      expect(caughtUp.status).toBe(200);
      expect(caughtUp.body.checks.readModels).toMatchObject({ status: 'ok', behindEvents: 0 });
      expect(valueOf(await scrape(), 'provenance_projection_lag_events')).toBe(0);
    });
  });

  describe('GET /metrics', () => {
    it('is Prometheus text with the process metrics, and its bid, append, projection and HTTP counters move when bids are placed', async () => {
      const lot = await createMarketplaceListing(api, { price: 5_000 });
      const buyer = await api.signUp('BUYER');
      await api.deps.projections.caughtUp();
      const before = await scrape();
      expect(valueOf(before, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
      expect(before.some((sample) => sample.name === 'nodejs_heap_size_used_bytes')).toBe(true);

      const accepted = await api.call('POST', '/api/bids', { token: buyer.tokens.accessToken, body: { auctionId: lot.auctionId, amount: 51 } });
      expect(accepted.status).toBe(201);
      const refused = await api.call('POST', '/api/bids', { token: buyer.tokens.accessToken, body: { auctionId: lot.auctionId, amount: 51 } });
      expect(refused.status).toBe(409);
      expect(refused.body.code).toBe('BID_NOT_ABOVE_CURRENT_PRICE');
      await api.deps.projections.caughtUp();
      const after = await scrape();

      const moved = (name: string, labels: Record<string, string> = {}) => valueOf(after, name, labels) - valueOf(before, name, labels);
      expect(moved('provenance_bids_total', { kind: 'bid', outcome: 'accepted' })).toBe(1);
      expect(moved('provenance_bids_total', { kind: 'bid', outcome: 'refused', code: 'BID_NOT_ABOVE_CURRENT_PRICE' })).toBe(1);
      expect(moved('provenance_event_store_appends_total', { outcome: 'written' })).toBeGreaterThanOrEqual(1);
      expect(moved('provenance_event_store_appended_events_total')).toBeGreaterThanOrEqual(1);
      expect(moved('provenance_projection_events_applied_total')).toBeGreaterThanOrEqual(1);
      const requests = (statusClass: string) => ({ route: '/api/bids', method: 'POST', status_class: statusClass });
      expect(moved('provenance_http_request_duration_seconds_count', requests('2xx'))).toBe(1);
      expect(moved('provenance_http_request_duration_seconds_count', requests('4xx'))).toBe(1);
      expect(valueOf(after, 'provenance_http_request_duration_seconds_bucket', { ...requests('2xx'), le: '+Inf' })).toBe(valueOf(after, 'provenance_http_request_duration_seconds_count', requests('2xx')));
    });

    it('labels requests by route pattern, and every unmatched path with one label', async () => {
      await api.call('GET', `/api/bids/${randomUUID()}`);
      await api.call('GET', `/api/no-such-thing/${randomUUID()}`);
      const samples = await scrape();
      expect(valueOf(samples, 'provenance_http_request_duration_seconds_count', { route: '/api/bids/:id', method: 'GET', status_class: '4xx' })).toBeGreaterThanOrEqual(1);
      expect(valueOf(samples, 'provenance_http_request_duration_seconds_count', { route: 'unmatched', method: 'GET', status_class: '4xx' })).toBeGreaterThanOrEqual(1);
      expect(samples.filter((sample) => sample.labels.route?.includes('no-such-thing'))).toEqual([]);
    });

    it('counts wrong-expected-revision conflicts', async () => {
      const before = await scrape();
      const stream = `probe-${randomUUID()}`;
      await api.deps.eventStore.appendToStream(stream, [probeEvent()], { expectedRevision: 'no_stream' });
      await expect(api.deps.eventStore.appendToStream(stream, [probeEvent()], { expectedRevision: 'no_stream' })).rejects.toBeInstanceOf(WrongExpectedRevisionError);
      const after = await scrape();
      expect(valueOf(after, 'provenance_event_store_appends_total', { outcome: 'conflict' }) - valueOf(before, 'provenance_event_store_appends_total', { outcome: 'conflict' })).toBe(1);
      expect(valueOf(after, 'provenance_event_store_appends_total', { outcome: 'written' }) - valueOf(before, 'provenance_event_store_appends_total', { outcome: 'written' })).toBe(1);
    });

    it('counts WebSocket connections and messages', async () => {
      const before = await scrape();
      const socket = new WebSocket(`${api.url.replace(/^http/, 'ws')}/ws/bidding`);
      await new Promise<void>((resolve, reject) => {
        socket.once('open', () => resolve());
        socket.once('error', reject);
      });
      const answered = new Promise<unknown>((resolve) => socket.once('message', (data) => resolve(JSON.parse(String(data)))));
      socket.send(JSON.stringify({ action: 'subscribe', auctionId: randomUUID() }));
      expect(await answered).toMatchObject({ type: 'subscribed' });
      const during = await scrape();
      socket.close(1000);
      expect(valueOf(during, 'provenance_websocket_connections')).toBeGreaterThanOrEqual(1);
      const messages = (direction: string) => valueOf(during, 'provenance_websocket_messages_total', { direction }) - valueOf(before, 'provenance_websocket_messages_total', { direction });
      expect(messages('received')).toBe(1);
      expect(messages('sent')).toBeGreaterThanOrEqual(1);
    });

    it('counts uploads by kind and outcome', async () => {
      const admin = await api.signUp('ADMIN');
      const importFile = async (filename: string, content: string) => {
        const form = new FormData();
        form.append('file', new Blob([content]), filename);
        const response = await fetch(`${api.url}/api/admin/bulk-import`, { method: 'POST', headers: { authorization: `Bearer ${admin.tokens.accessToken}` }, body: form });
        await response.arrayBuffer();
        return response.status;
      };
      const before = await scrape();
      const row = 'Metrics Counter,12,patriots,l,good,AFC Championship,2019-01-20,Kansas City Chiefs,Arrowhead Stadium,1,348,30,Photo-matched';
      expect(await importFile('jerseys.csv', `${TEMPLATE_COLUMNS.join(',')}\n${row}\n`)).toBe(201);
      expect(await importFile('notes.txt', 'not a sheet')).toBe(415);
      const after = await scrape();
      const moved = (outcome: string) => valueOf(after, 'provenance_uploads_total', { kind: 'bulk_import', outcome }) - valueOf(before, 'provenance_uploads_total', { kind: 'bulk_import', outcome });
      expect(moved('accepted')).toBe(1);
      expect(moved('refused')).toBe(1);
    });
  });

  describe('with the web app served', () => {
    let dist: string;
    beforeAll(async () => {
      dist = await mkdtemp(join(tmpdir(), 'provenance-web-'));
      await mkdir(join(dist, 'assets'));
      await writeFile(join(dist, 'index.html'), '<!doctype html><title>Provenance</title>');
      await writeFile(join(dist, 'assets', 'app-1234.js'), 'export {};');
    });
    afterAll(async () => rm(dist, { recursive: true, force: true }));

    it('answers unknown paths under the API, the probes, the metrics and the docs with a JSON 404, and page paths with the app', async () => {
      await withApp(
        api.deps,
        async (url) => {
          for (const path of ['/api/nope', '/api', '/ws/nope', '/media/x/y', '/metrics/x', '/ready/x', '/health/x', '/docs/nope.json', '/assets/missing.js']) {
            const response = await fetch(`${url}${path}`);
            expect(response.status, path).toBe(404);
            expect(response.headers.get('content-type'), path).toMatch(/^application\/json/);
            expect(await response.json(), path).toEqual({ statusCode: 404, error: 'Not Found', message: `Route GET ${path} not found` });
          }
          for (const path of ['/', '/marketplace/some-jersey', '/admin/listings', '/healthy', '/metrics-dashboard']) {
            const response = await fetch(`${url}${path}`);
            expect(response.status, path).toBe(200);
            expect(await response.text(), path).toContain('<title>Provenance</title>');
          }
          for (const path of ['/health', '/ready', '/metrics', '/docs/json', '/docs/yaml', '/docs/static/index.css', '/docs/asyncapi.json', '/assets/app-1234.js']) {
            const response = await fetch(`${url}${path}`);
            expect(response.status, path).toBe(200);
            expect(await response.text(), path).not.toContain('<title>Provenance</title>');
          }
          const docs = await fetch(`${url}/docs`, { redirect: 'follow' });
          expect(docs.status).toBe(200);
          expect(await docs.text()).toContain('swagger');
        },
        `${dist}/`,
      );
    });
  });

  describe('the API descriptions', () => {
    it('gives every OpenAPI operation a unique camelCase operationId, and names the servers', async () => {
      const { body } = await api.call('GET', '/docs/json');
      const operations = Object.entries<Record<string, { operationId?: string }>>(body.paths).flatMap(([path, item]) =>
        Object.entries(item).map(([method, operation]) => ({ at: `${method.toUpperCase()} ${path}`, operationId: operation.operationId })),
      );
      expect(operations.length).toBeGreaterThan(50);
      for (const { at, operationId } of operations) expect(operationId, at).toMatch(/^[a-z][a-zA-Z0-9]*$/);
      const ids = operations.map((operation) => operation.operationId);
      expect(new Set(ids).size).toBe(ids.length);
      expect(operations).toContainEqual({ at: 'GET /api/public/listings/{slugOrId}/auction', operationId: 'getPublicListingsBySlugOrIdAuction' });
      expect(operations).toContainEqual({ at: 'GET /ready', operationId: 'getReady' });
      expect(body.servers).toEqual([{ url: '/', description: expect.any(String) }]);
      expect(body.externalDocs).toMatchObject({ url: '/docs/asyncapi.json' });
    });

    it('describes the WebSocket protocol in a valid AsyncAPI 3.0 document made from the contract, with a schema for every message', async () => {
      const { status, body } = await api.call('GET', '/docs/asyncapi.json');
      expect(status).toBe(200);
      const ajv = new Ajv({ strict: false, allErrors: true, meta: false, validateSchema: false });
      addFormats(ajv);
      const validateDocument = ajv.compile(specs.schemas['3.0.0']);
      expect(validateDocument(body), JSON.stringify(validateDocument.errors)).toBe(true);
      expect(body.servers.api).toEqual({ host: new URL(api.url).host, protocol: 'ws', description: expect.any(String) });
      expect(body.channels.bidding.address).toBe('/ws/bidding');

      const serverTypes = serverMessageSchema.options.map((schema) => schema.shape.type.value);
      const clientActions = clientMessageSchema.options.map((schema) => schema.shape.action.value);
      expect(Object.keys(body.components.messages).sort()).toEqual([...serverTypes, ...clientActions].sort());
      expect(body.operations.sendAuctionUpdate.messages).toHaveLength(serverTypes.length);
      expect(body.operations.receiveClientMessage.messages).toHaveLength(clientActions.length);

      // The payload schemas hold messages as the contract does.
      const payloads = new Ajv({ strict: false });
      payloads.addSchema({ components: body.components }, 'asyncapi');
      const validMessage = (name: string, message: unknown) => payloads.validate({ $ref: `asyncapi#/components/schemas/${name}` }, message);
      expect(validMessage('subscribe', { action: 'subscribe', auctionId: 'a-1' })).toBe(true);
      expect(validMessage('subscribe', { action: 'subscribe' })).toBe(false);
      expect(validMessage('error', { type: 'error', message: 'Too many subscriptions' })).toBe(true);
      expect(validMessage('auction_cancelled', { type: 'auction_cancelled', auctionId: 'a-1', reason: 'x', auction: {} })).toBe(false);
    });
  });
});

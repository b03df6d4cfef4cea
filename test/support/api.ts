import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { startSession } from '../../api/accounts/sessions';
import type { SessionTokens } from '../../api/contracts/accounts';
import type { Role } from '../../api/accounts/schema';
import { createUser, type User } from '../../api/accounts/users';
import { buildApp } from '../../api/app';
import { sameLimitForAll, type RateLimits } from '../../api/http/rate-limit-settings';
import type { AppDependencies } from '../../api/dependencies';
import { openServices, type ServiceOptions } from '../../api/services';
import { KurrentDbEventStore } from '../../engine/eventstore/kurrentdb/store';
import type { EventStore } from '../../engine/eventstore/port';
import { PostgresEventStore } from '../../engine/eventstore/postgres/postgres-event-store';
import { PRODUCT_STREAM_PREFIXES } from '../../engine/domain/catalogue';
import { PGliteClient, type SqlClient } from '../../engine/postgres/sql-client';
import { SigningKey } from '../../engine/integrity/signing-key';
import { freePort } from '../../scripts/free-port';
import { logShapeFromEnv, shapedStore, type LogShape } from './log-shapes';
import { createTestSchema, TEST_DATABASE_URL } from './postgres';

export type ApiBackend = 'PGlite' | 'PostgreSQL' | 'KurrentDB';

/** A KurrentDB the API suites also run against (events there, read models in PostgreSQL or PGlite). */
const EVENTSTORE_URL = process.env.EVENTSTORE_URL || undefined;

/**
 * The general request limits stay on in tests, far above what a suite sends from 127.0.0.1 in a
 * minute; a test of the limits passes its own (startTestApi's `rateLimits`).
 */
const TEST_RATE_LIMITS = sameLimitForAll({ max: 100_000, windowMs: 60_000 });

/**
 * PGlite always; the local PostgreSQL too when TEST_DATABASE_URL is set (as .ci/run does); KurrentDB
 * too when EVENTSTORE_URL is set.
 */
export const API_BACKENDS: ApiBackend[] = ['PGlite', ...(TEST_DATABASE_URL ? (['PostgreSQL'] as const) : []), ...(EVENTSTORE_URL ? (['KurrentDB'] as const) : [])];

interface SharedStorage {
  readonly backend: ApiBackend;
  /** Opens another connection to the same database, as another API process would. */
  connect(): Promise<{ sql: SqlClient; store: EventStore; close(): Promise<void> }>;
  drop(): Promise<void>;
}

export interface TestApi {
  readonly url: string;
  readonly app: FastifyInstance;
  readonly deps: AppDependencies;
  readonly storage: SharedStorage;
  /** A new account with a session, straight through the account functions. */
  signUp(role?: Role, fields?: Partial<{ email: string; password: string; firstName: string; lastName: string }>): Promise<{ user: User; tokens: SessionTokens; password: string }>;
  /** fetch against the API, JSON in and out, with an optional bearer token. */
  call(method: string, path: string, options?: { token?: string; body?: unknown; headers?: Record<string, string> }): Promise<{ status: number; body: any; headers: Headers }>;
  close(): Promise<void>;
}

const signingKeys = new WeakMap<SharedStorage, Promise<string>>();

/** The signing key of a storage's processes (PEM), made when the first starts. */
function signingKeyOf(storage: SharedStorage): Promise<string> {
  let key = signingKeys.get(storage);
  if (!key) signingKeys.set(storage, (key = SigningKey.generate().then((generated) => generated.toPem())));
  return key;
}

/** The store as TEST_LOG_SHAPE shapes it (log-shapes.ts): what other adapters do to batches and to $all. */
async function openStorage(backend: ApiBackend): Promise<SharedStorage> {
  const shape = logShapeFromEnv();
  if (backend === 'PGlite') {
    // One in-process database; "another process" shares the instance, as it would share a server.
    const sql = await PGliteClient.open();
    return {
      backend,
      connect: async () => {
        const store = shapedStore(await PostgresEventStore.open(sql), shape);
        return { sql, store, close: () => store.close() };
      },
      drop: () => sql.close(),
    };
  }
  if (backend === 'KurrentDB') return openKurrentDbStorage(EVENTSTORE_URL!, shape);
  const schema = await createTestSchema(TEST_DATABASE_URL!);
  return {
    backend,
    connect: async () => {
      const sql = schema.client();
      const store = shapedStore(await PostgresEventStore.open(sql, { channel: `events_${schema.schema}` }), shape);
      return { sql, store, close: async () => { await store.close(); await sql.close(); } };
    },
    drop: () => schema.drop(),
  };
}

/**
 * Events in the KurrentDB at `url`, read models and accounts in a PostgreSQL schema of their own
 * (TEST_DATABASE_URL) or else PGlite. The KurrentDB is shared by every suite and every run: each
 * storage keeps its streams in a namespace of its own, so to this API the log holds only them.
 */
async function openKurrentDbStorage(url: string, shape: LogShape | undefined): Promise<SharedStorage> {
  const schema = TEST_DATABASE_URL ? await createTestSchema(TEST_DATABASE_URL) : undefined;
  const pglite = schema ? undefined : await PGliteClient.open();
  const namespace = `api-${randomUUID()}`;
  return {
    backend: 'KurrentDB',
    connect: async () => {
      const sql = schema ? schema.client() : pglite!;
      const store = shapedStore(KurrentDbEventStore.fromConnectionString(url, { streamPrefixes: PRODUCT_STREAM_PREFIXES, namespace }), shape);
      return { sql, store, close: async () => { await store.close(); if (schema) await sql.close(); } };
    },
    drop: async () => {
      if (schema) await schema.drop();
      else await pglite!.close();
    },
  };
}

/**
 * A real API on a real database, listening on a free port. Pass `sharing` to start a second API
 * process on the first one's database, and `forwarding` to give each its INSTANCE_URL (each hot
 * auction then decided by one of them, the other forwarding its bids there).
 */
export async function startTestApi(
  backend: ApiBackend,
  options: {
    sharing?: TestApi;
    clock?: () => Date;
    services?: Pick<ServiceOptions, 'live' | 'lifecycle' | 'trustProxy' | 'media' | 'mail' | 'notices' | 'afterSale' | 'checkpoints' | 'signingKey'>;
    rateLimits?: Partial<RateLimits>;
    forwarding?: boolean;
  } = {},
): Promise<TestApi> {
  const ownsStorage = !options.sharing;
  const storage = options.sharing?.storage ?? (await openStorage(backend));
  const dataDir = await mkdtemp(join(tmpdir(), 'provenance-api-'));
  const connection = await storage.connect();
  let services: Awaited<ReturnType<typeof openServices>> | undefined;
  let app: FastifyInstance | undefined;
  let url: string;
  const port = options.forwarding ? await freePort() : 0;
  try {
    services = await openServices(
      { database: connection.sql, eventStore: connection.store },
      {
        jwtSecret: 'test-secret-test-secret-test-secret-0123456789',
        logLevel: 'silent',
        dataDir,
        // One deployment's processes sign with one key (SIGNING_KEY, as a deployment sets it).
        signingKey: await signingKeyOf(storage),
        // Checkpoints only when a test asks (deps.checkpointer.runOnce): none appended behind a test's back.
        checkpoints: { pollMs: 3_600_000 },
        ...options.services,
        ...(options.clock ? { clock: options.clock } : {}),
        ...(options.forwarding ? { instanceUrl: `http://127.0.0.1:${port}` } : {}),
      },
    );
    app = await buildApp(services.deps, { rateLimits: { ...TEST_RATE_LIMITS, ...options.rateLimits } });
    url = await app.listen({ port, host: '127.0.0.1' });
    services.deps.links.listeningAt(url);
  } catch (error) {
    // A failed start must not leave a schema or a folder behind.
    await app?.close().catch(() => undefined);
    await services?.stop().catch(() => undefined);
    await connection.close().catch(() => undefined);
    if (ownsStorage) await storage.drop().catch(() => undefined);
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }

  return {
    url,
    app,
    deps: services.deps,
    storage,
    async signUp(role = 'BUYER', fields = {}) {
      const password = fields.password ?? 'Str0ng!Passw0rd';
      const user = await createUser(services.deps.db, {
        email: fields.email ?? `${role.toLowerCase()}-${randomUUID().slice(0, 8)}@example.com`,
        password,
        firstName: fields.firstName ?? 'Test',
        lastName: fields.lastName ?? { ADMIN: 'Admin', AUDITOR: 'Auditor', BUYER: 'Buyer' }[role],
        roles: role === 'ADMIN' ? ['ADMIN', 'BUYER'] : [role],
      });
      const tokens = await startSession(services.deps.db, app.signAccessToken, user);
      return { user, tokens, password };
    },
    async call(method, path, callOptions = {}) {
      const headers: Record<string, string> = { ...(callOptions.headers ?? {}) };
      if (callOptions.token) headers.authorization = `Bearer ${callOptions.token}`;
      let body: string | undefined;
      if (callOptions.body !== undefined) {
        headers['content-type'] ??= 'application/json';
        body = typeof callOptions.body === 'string' ? callOptions.body : JSON.stringify(callOptions.body);
      }
      const response = await fetch(`${url}${path}`, { method, headers, ...(body === undefined ? {} : { body }) });
      const text = await response.text();
      let parsed: unknown = text;
      try {
        parsed = text.length > 0 ? JSON.parse(text) : undefined;
      } catch {
        // not JSON: keep the text
      }
      return { status: response.status, body: parsed, headers: response.headers };
    },
    async close() {
      // fetch keeps connections alive; one Node still counts as busy would hold close() for the
      // whole keep-alive timeout (72 s). A test server has nothing left to answer: drop them all.
      app.server.closeAllConnections();
      await app.close();
      await services.stop();
      await connection.close();
      if (ownsStorage) await storage.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

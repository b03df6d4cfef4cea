/**
 * What the server-level sections of `npm run bench` share: a fresh PostgreSQL database, the product
 * started as `npm start` starts it (its own process, configured by the environment only), and a
 * client that speaks to it over HTTP as a user would: admins publish an auction, bidders register.
 */
import { execFileSync, fork, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { openSync, closeSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Pool, request } from 'undici';
import { freePort } from '../free-port';
import { withScratchDatabase } from './scratch-database';

export interface ServerBenchOptions {
  /** A PostgreSQL server (any database on it): each section creates databases of its own there and drops them. */
  readonly postgresUrl: string;
  /** Seconds of load per trial. */
  readonly seconds: number;
  readonly trials: number;
  readonly log: (line: string) => void;
  /** The KurrentDB the product servers keep their events in (EVENTSTORE_URL); absent: the PostgreSQL events table. */
  readonly eventStoreUrl?: string | undefined;
}

/** Where a section's product servers keep their events, as its results say. */
export function eventStoreOf(options: Pick<ServerBenchOptions, 'eventStoreUrl'>): string {
  return options.eventStoreUrl ? `KurrentDB (${options.eventStoreUrl})` : 'the PostgreSQL events table';
}

const REPOSITORY = fileURLToPath(new URL('../..', import.meta.url));
const PHOTO = new URL('../../api/seed/images/brady-front.jpg', import.meta.url);
/** Far above anything a benchmark sends: the limits are the product's, the load is not abuse. */
const UNLIMITED = '1000000/minute';

/** Resident memory of a process, MiB (VmRSS: what the kernel holds in RAM for it right now). */
export function residentMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kilobytes = Number(/^VmRSS:\s+(\d+)\s+kB$/m.exec(status)?.[1]);
  return Math.round(kilobytes / 1024);
}

/** Linux counts a process's CPU time in clock ticks of 1/100 s (USER_HZ) on every common architecture. */
const CLOCK_TICKS_PER_SECOND = 100;

/** CPU time a process has used so far, user and system, in seconds (/proc/<pid>/stat). */
export function cpuSeconds(pid: number): number {
  // The fields after the command name, which is in parentheses and may hold spaces: utime and stime are the 12th and 13th.
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
}

/**
 * CPU time used so far by every PostgreSQL process on this machine (its backends, writers and
 * checkpointer; the bench runs alone), in seconds, by process (id and start time: a process id
 * may be reused): the database's share of a race, when it runs here. Processes that end in
 * between are lost: compare maps taken while the same connections live.
 */
export function postgresCpuSeconds(): Map<string, number> {
  const byProcess = new Map<string, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() !== 'postgres') continue;
      // The 22nd field of /proc/<pid>/stat, the 20th after the command name: when the process started.
      const startedAt = readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1]!.split(' ')[19];
      byProcess.set(`${entry}@${startedAt}`, cpuSeconds(Number(entry)));
    } catch {
      // Ended while we looked.
    }
  }
  return byProcess;
}

/** CPU seconds PostgreSQL used between two postgresCpuSeconds maps (processes started in between count from zero). */
export function postgresCpuSecondsBetween(before: ReadonlyMap<string, number>, after: ReadonlyMap<string, number>): number {
  let used = 0;
  for (const [process, seconds] of after) used += seconds - (before.get(process) ?? 0);
  return used;
}

export interface ProductServer {
  readonly url: string;
  readonly rssMiB: () => number;
  readonly cpuSeconds: () => number;
  stop(): Promise<void>;
}

export interface ServerSettings {
  readonly databaseUrl: string;
  /** KurrentDB for the events (EVENTSTORE_URL); absent: the events table in databaseUrl. */
  readonly eventStoreUrl?: string | undefined;
  /** Several processes on one database share it, as replicas do. */
  readonly dataDir: string;
  readonly jwtSecret: string;
  readonly admin: { readonly email: string; readonly password: string };
  readonly name: string;
  /** false: the server makes no notices (NOTIFIER=off), to measure what making them costs. */
  readonly notifier?: boolean;
  /** Another version of the product to run instead of this checkout's (a folder from `checkoutOf`). */
  readonly repository?: string;
}

export type DeploymentSettings = Omit<ServerSettings, 'name'>;

/**
 * One product deployment's settings (one or more processes): a fresh database, DATA_DIR, secret and
 * admin, for `work` to start its servers with (and stop them). Afterwards the database is dropped;
 * DATA_DIR too, unless `work` failed: then it stays, with the servers' logs, and the log says where.
 */
export async function inFreshDeployment<T>(options: ServerBenchOptions, work: (settings: DeploymentSettings) => Promise<T>): Promise<T> {
  return withScratchDatabase(options.postgresUrl, 'server', async (database) => {
    const settings: DeploymentSettings = {
      databaseUrl: database.url,
      eventStoreUrl: options.eventStoreUrl,
      dataDir: await mkdtemp(join(tmpdir(), 'provenance-bench-')),
      jwtSecret: randomBytes(32).toString('hex'),
      admin: { email: `bench-admin-${randomBytes(4).toString('hex')}@example.com`, password: `Bench!${randomBytes(12).toString('hex')}` },
    };
    const result = await work(settings).catch((error: unknown) => {
      options.log(`the servers' logs are kept in ${settings.dataDir}`);
      throw error;
    });
    await rm(settings.dataDir, { recursive: true, force: true });
    return result;
  });
}

/**
 * The product as `npm start` runs it, without the web build: the server bundle (built here when its
 * sources changed) run by plain node with npm start's flags, one process whose pid is the server's
 * own. Its output goes to `<DATA_DIR>/<name>.log`. Ready when /health answers.
 */
export async function startProductServer(settings: ServerSettings): Promise<ProductServer> {
  const port = await freePort();
  const logFile = join(settings.dataDir, `${settings.name}.log`);
  const logFd = openSync(logFile, 'a');
  // Only what a deployment would set: nothing of this shell's own configuration leaks in.
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    ...(process.env.TMPDIR ? { TMPDIR: process.env.TMPDIR } : {}),
    DATABASE_URL: settings.databaseUrl,
    ...(settings.eventStoreUrl ? { EVENTSTORE_URL: settings.eventStoreUrl } : {}),
    DATA_DIR: settings.dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    // Replicas reach each other here: a hot auction is decided by one of them, the others forward its bids.
    INSTANCE_URL: `http://127.0.0.1:${port}`,
    JWT_SECRET: settings.jwtSecret,
    SEED_ADMIN_EMAIL: settings.admin.email,
    SEED_ADMIN_PASSWORD: settings.admin.password,
    RATE_LIMIT_REGISTER: UNLIMITED,
    RATE_LIMIT_SIGN_IN: UNLIMITED,
    RATE_LIMIT_BIDS: UNLIMITED,
    RATE_LIMIT_UPLOADS: UNLIMITED,
    RATE_LIMIT_BULK_IMPORT: UNLIMITED,
    ...(settings.notifier === false ? { NOTIFIER: 'off' } : {}),
  };
  const repository = settings.repository ?? REPOSITORY;
  execFileSync(process.execPath, ['--import', 'tsx', 'scripts/build-server.ts'], { cwd: repository, stdio: 'ignore' });
  // BENCH_CPU_PROFILE_DIR: each server writes a V8 CPU profile there when it stops (open it in Chrome's DevTools).
  const profile = process.env.BENCH_CPU_PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROFILE_DIR}`] : [];
  const child = spawn(process.execPath, ['--liftoff-only', ...profile, 'dist/server/server.js'], { cwd: repository, env, stdio: ['ignore', logFd, logFd] });
  closeSync(logFd);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  const server: ProductServer = {
    url,
    rssMiB: () => residentMiB(child.pid!),
    cpuSeconds: () => cpuSeconds(child.pid!),
    stop: () => stopProcess(child, exited),
  };
  const deadline = performance.now() + 120_000;
  for (;;) {
    const code = await Promise.race([exited, new Promise<'running'>((resolve) => setTimeout(() => resolve('running'), 100))]);
    if (code !== 'running') throw new Error(`${settings.name} exited (${code}) before it was ready:\n${await tail(logFile)}`);
    if (await answers(`${url}/health`)) return server;
    if (performance.now() > deadline) {
      await server.stop();
      throw new Error(`${settings.name} not ready after 120 s:\n${await tail(logFile)}`);
    }
  }
}

/**
 * The product as it was at `commit` (this repository's history), in a folder of its own with this
 * checkout's node_modules, for a section that measures a change against the version before it.
 * Null when the history does not hold it (a shallow clone): the section then says it did not run.
 */
export async function checkoutOf(commit: string): Promise<{ folder: string; remove(): Promise<void> } | null> {
  try {
    execFileSync('git', ['-C', REPOSITORY, 'cat-file', '-e', `${commit}^{commit}`], { stdio: 'ignore' });
  } catch {
    return null;
  }
  const folder = await mkdtemp(join(tmpdir(), `provenance-${commit}-`));
  execFileSync('bash', ['-c', 'git -C "$0" archive "$1" | tar -x -C "$2"', REPOSITORY, commit, folder]);
  await symlink(join(REPOSITORY, 'node_modules'), join(folder, 'node_modules'));
  return { folder, remove: () => rm(folder, { recursive: true, force: true }) };
}

async function answers(url: string): Promise<boolean> {
  try {
    const { statusCode, body } = await request(url);
    await body.dump();
    return statusCode === 200;
  } catch {
    return false;
  }
}

async function tail(file: string): Promise<string> {
  return (await readFile(file, 'utf8').catch(() => '')).split('\n').slice(-30).join('\n');
}

/** SIGTERM (the server's own shutdown), then SIGKILL if it takes more than 15 s. */
export async function stopProcess(child: ChildProcess, exited: Promise<unknown>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(killer);
}

export interface Helper {
  readonly child: ChildProcess;
  /** The next message the process sends; rejects if it exits first. */
  next(): Promise<unknown>;
  stop(): Promise<void>;
}

/** A script of this folder in its own Node process (TypeScript through tsx), spoken to over IPC. */
export function startHelper(file: string): Helper {
  const child = fork(fileURLToPath(new URL(file, import.meta.url)), { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const queue: unknown[] = [];
  const waiting: Array<{ resolve: (message: unknown) => void; reject: (error: Error) => void }> = [];
  child.on('message', (message) => {
    const waiter = waiting.shift();
    if (waiter) waiter.resolve(message);
    else queue.push(message);
  });
  void exited.then(() => {
    for (const waiter of waiting.splice(0)) waiter.reject(new Error(`${file} exited (${child.exitCode ?? child.signalCode})`));
  });
  return {
    child,
    next: () =>
      queue.length > 0
        ? Promise.resolve(queue.shift())
        : child.exitCode !== null || child.signalCode !== null
          ? Promise.reject(new Error(`${file} exited (${child.exitCode ?? child.signalCode})`))
          : new Promise((resolve, reject) => waiting.push({ resolve, reject })),
    stop: async () => {
      if (child.connected) child.disconnect();
      await stopProcess(child, exited);
    },
  };
}

export interface Answer<Body> {
  readonly status: number;
  /** The product's JSON answer: `Body` when the status is the one expected, an error answer otherwise. */
  readonly body: Body;
}

/** The product's error answers (api/http/errors.ts). */
export interface ErrorBody {
  readonly code?: string;
  readonly message?: string;
}

/** Keep-alive HTTP to one server: up to `connections` requests in flight at once. */
export class ApiClient {
  readonly #pool: Pool;

  constructor(url: string, connections: number) {
    // A request unanswered for a minute is a stuck server, not a slow one.
    this.#pool = new Pool(url, { connections, pipelining: 1, headersTimeout: 60_000, bodyTimeout: 60_000 });
  }

  /** A JSON body in (when given) and out, signed in with `token` when given. */
  async call<Body = unknown>(method: 'GET' | 'POST', path: string, options: { token?: string; body?: unknown; headers?: Record<string, string> } = {}): Promise<Answer<Body>> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    const response = await this.#pool.request({ method, path, headers, body: options.body === undefined ? null : JSON.stringify(options.body) });
    const text = await response.body.text();
    return { status: response.statusCode, body: (text.length > 0 ? JSON.parse(text) : undefined) as Body };
  }

  close(): Promise<void> {
    return this.#pool.close();
  }
}

/** POST `body` (signed in with `token` when given): the answer's body, when its status is `status`. */
async function postExpecting<Body>(api: ApiClient, path: string, body: unknown, status: number, token?: string): Promise<Body> {
  const answer = await api.call<Body>('POST', path, { body, ...(token ? { token } : {}) });
  if (answer.status !== status) throw new Error(`POST ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body;
}

export async function signInAsAdmin(api: ApiClient, admin: ServerSettings['admin']): Promise<string> {
  return (await postExpecting<{ accessToken: string }>(api, '/api/admin/auth/login', admin, 200)).accessToken;
}

/** A photo uploaded as the dashboard uploads one (presigned URL, PUT, confirm): every listing needs one. */
export async function uploadPhoto(api: ApiClient, adminToken: string): Promise<string> {
  const jpeg = await readFile(PHOTO);
  const presigned = await postExpecting<{ mediaId: string; uploadUrl: string; headers: Record<string, string> }>(
    api,
    '/api/admin/media/upload/presigned-url',
    { filename: 'bench.jpg', contentType: 'image/jpeg' },
    201,
    adminToken,
  );
  const put = await request(presigned.uploadUrl, { method: 'PUT', headers: presigned.headers, body: jpeg });
  await put.body.dump();
  if (put.statusCode !== 200) throw new Error(`photo upload: ${put.statusCode}`);
  const confirmation = { mediaId: presigned.mediaId, etag: put.headers.etag, fileSizeBytes: jpeg.length };
  await postExpecting(api, '/api/admin/media/upload/confirm', confirmation, 200, adminToken);
  return presigned.mediaId;
}

/** Every accepted bid adds at least this (the auctions published here use the $1 table). */
export const BID_INCREMENT_DOLLARS = 1;
export const STARTING_PRICE_DOLLARS = 100;

/**
 * A live auction, published as an admin does: the listing saved with its photo, a tag provisioned
 * and bound by its claim code, then published ($1 steps, a hard close a day away).
 */
export async function publishAuction(api: ApiClient, adminToken: string, photoId: string): Promise<string> {
  const lot = randomBytes(4).toString('hex');
  const fields = { title: `Benchmark lot ${lot}`, category: 'CLOTHING', condition: 'Game worn', sportType: 'FOOTBALL', price: STARTING_PRICE_DOLLARS, mediaIds: [photoId] };
  const listing = await postExpecting<{ id: string }>(api, '/api/admin/listings', fields, 201, adminToken);
  const claimCode = `BENCH-${lot}`;
  await postExpecting(api, '/api/admin/nfc/tags/provision', { uid: randomBytes(7).toString('hex'), claimCode }, 201, adminToken);
  await postExpecting(api, `/api/admin/listings/${listing.id}/bind`, { claimCode }, 200, adminToken);
  const rules = { durationHours: 24, incrementTable: 'FLAT_ONE_DOLLAR', softClose: null };
  const published = await postExpecting<{ auction: { auctionId: string } }>(api, `/api/admin/listings/${listing.id}/publish`, rules, 200, adminToken);
  return published.auction.auctionId;
}

export interface Bidder {
  readonly userId: string;
  readonly token: string;
}

/** Buyers signing up through POST /api/auth/register, a few at a time (each hashes a password). */
export async function registerBidders(api: ApiClient, count: number): Promise<Bidder[]> {
  const bidders: Bidder[] = [];
  for (let index = 0; index < count; index += 4) {
    const batch = Array.from({ length: Math.min(4, count - index) }, async () => {
      const registration = { firstName: 'Bench', lastName: 'Bidder', email: `bidder-${randomUUID()}@example.com`, password: 'Str0ng!Passw0rd' };
      const { accessToken: token } = await postExpecting<{ accessToken: string }>(api, '/api/auth/register', registration, 201);
      return { userId: accessTokenSubject(token), token };
    });
    bidders.push(...(await Promise.all(batch)));
  }
  return bidders;
}

/** The account an access token speaks for (its `sub` claim), as a client reads its own token. */
function accessTokenSubject(token: string): string {
  const payload = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as { sub: string };
  return payload.sub;
}

export function round(value: number, digits = 1): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}

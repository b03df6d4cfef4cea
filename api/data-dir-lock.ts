import { randomUUID } from 'node:crypto';
import { readFileSync, unlinkSync } from 'node:fs';
import { link, mkdir, readFile, rename, stat, unlink, utimes, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join, relative } from 'node:path';

/** The lock's file in DATA_DIR: who holds the folder, as JSON an operator can read. */
export const LOCK_FILE = 'provenance.lock';

/** A holder on another machine (a shared volume) cannot be asked whether it runs: it refreshes the file instead. */
const HEARTBEAT_MS = 10_000;
const FOREIGN_HOLDER_STALE_MS = 60_000;

interface LockHolder {
  readonly pid: number;
  readonly host: string;
  readonly command: string;
  readonly startedAt: string;
  /** Linux: boot id and the process's start tick, so that a pid reused after the holder died (a restarted container) is not taken for it. */
  readonly processStart: string | null;
  /** Tells this holder's file from a later one with the same pid. */
  readonly token: string;
}

/** DATA_DIR cannot be had, for a reason its message tells an operator in full. */
export class DataDirUnavailableError extends Error {
  override readonly name: string = 'DataDirUnavailableError';
}

export class DataDirLockedError extends DataDirUnavailableError {
  override readonly name = 'DataDirLockedError';
  constructor(
    readonly dataDir: string,
    readonly holder: LockHolder,
    lastRefreshedMs: number | null,
  ) {
    const where = holder.host === hostname() ? '' : ` on host ${holder.host} (its lock was refreshed ${Math.round((lastRefreshedMs ?? 0) / 1000)} s ago; it counts as gone after ${FOREIGN_HOLDER_STALE_MS / 1000} s without a refresh)`;
    super(
      `DATA_DIR ${dataDir} is in use by another process: pid ${holder.pid} (${holder.command}), running since ${holder.startedAt}${where}.\n` +
        '  The embedded database (PGlite) can be opened by one process at a time: stop that process first, or give this one another DATA_DIR (or a DATABASE_URL).',
    );
  }
}

export interface DataDirLock {
  release(): Promise<void>;
}

/**
 * Takes DATA_DIR for this process alone, or throws DataDirLockedError naming the process that has
 * it. A lock whose holder is gone (killed, crashed, its machine restarted) is taken over. Released
 * by `release()`, and on any exit of the process that still holds it.
 */
export async function lockDataDir(dataDir: string): Promise<DataDirLock> {
  await mkdir(dataDir, { recursive: true });
  const path = join(dataDir, LOCK_FILE);
  const me: LockHolder = { pid: process.pid, host: hostname(), command: describeCommand(), startedAt: new Date().toISOString(), processStart: await processStartOf(process.pid), token: randomUUID() };
  const content = `${JSON.stringify(me, null, 2)}\n`;
  // Written whole beside the lock, then linked into place: the lock file is never seen half-written.
  const draft = `${path}.${me.token}`;
  await writeFile(draft, content, { flag: 'wx', mode: 0o644 });
  try {
    for (let attempt = 0; attempt < 5; attempt += 1) {
      if (await createExclusively(draft, path, content)) return holding(path, me.token);
      const holder = await readHolder(path);
      if (holder === 'gone') continue;
      if (holder === 'unreadable') throw new DataDirUnavailableError(`${path} exists but is not a lock this program wrote: if no Provenance process uses ${dataDir}, delete that file.`);
      const lastRefreshedMs = await millisSinceRefresh(path);
      if (await isRunning(holder, lastRefreshedMs)) throw new DataDirLockedError(dataDir, holder, lastRefreshedMs);
      await removeStaleLock(path, holder);
    }
    throw new DataDirUnavailableError(`Could not lock ${dataDir}: other processes kept taking it at the same time; try again.`);
  } finally {
    await unlink(draft).catch(() => undefined);
  }
}

function holding(path: string, token: string): DataDirLock {
  const heartbeat = setInterval(() => {
    const now = new Date();
    utimes(path, now, now).catch(() => undefined);
  }, HEARTBEAT_MS);
  heartbeat.unref();
  // process.exit() skips every `finally`: the lock must not outlive the process that way either.
  const releaseOnExit = () => {
    try {
      if (JSON.parse(readFileSync(path, 'utf8')).token === token) unlinkSync(path);
    } catch {
      // Already gone or taken over: nothing of ours to remove.
    }
  };
  process.on('exit', releaseOnExit);
  return {
    async release() {
      clearInterval(heartbeat);
      process.off('exit', releaseOnExit);
      const holder = await readHolder(path);
      if (typeof holder === 'object' && holder.token === token) await unlink(path).catch(() => undefined);
    },
  };
}

/** Links `draft` to `path` unless `path` exists; where the file system has no hard links, an exclusive create. */
async function createExclusively(draft: string, path: string, content: string): Promise<boolean> {
  try {
    await link(draft, path);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'ENOSYS') throw error;
  }
  try {
    await writeFile(path, content, { flag: 'wx', mode: 0o644 });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

/**
 * Moves the dead holder's file aside (one rename: of two processes doing this, one wins) and checks
 * it moved the file it judged: if another process had taken the lock over in between, that lock
 * goes back in place and the next attempt finds its holder running.
 */
async function removeStaleLock(path: string, stale: LockHolder): Promise<void> {
  const aside = `${path}.stale-${randomUUID()}`;
  try {
    await rename(path, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  try {
    const moved = await readHolder(aside);
    if (typeof moved === 'object' && moved.token !== stale.token) await createExclusively(aside, path, await readFile(aside, 'utf8'));
  } finally {
    await unlink(aside).catch(() => undefined);
  }
}

async function readHolder(path: string): Promise<LockHolder | 'gone' | 'unreadable'> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'gone';
    throw error;
  }
  try {
    const holder = JSON.parse(text) as Partial<LockHolder>;
    if (typeof holder.pid === 'number' && typeof holder.host === 'string' && typeof holder.token === 'string') return holder as LockHolder;
  } catch {
    // not JSON: reported below
  }
  return 'unreadable';
}

async function millisSinceRefresh(path: string): Promise<number | null> {
  try {
    return Date.now() - (await stat(path)).mtimeMs;
  } catch {
    return null;
  }
}

async function isRunning(holder: LockHolder, lastRefreshedMs: number | null): Promise<boolean> {
  if (holder.host !== hostname()) return lastRefreshedMs !== null && lastRefreshedMs < FOREIGN_HOLDER_STALE_MS;
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    // EPERM: the process exists, under another user.
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
  }
  if (holder.processStart === null) return true;
  const current = await processStartOf(holder.pid);
  return current === null || current === holder.processStart;
}

/** Linux's boot id and the process's start time in clock ticks (/proc/<pid>/stat, field 22); null elsewhere. */
async function processStartOf(pid: number): Promise<string | null> {
  try {
    const [bootId, stat] = await Promise.all([readFile('/proc/sys/kernel/random/boot_id', 'utf8'), readFile(`/proc/${pid}/stat`, 'utf8')]);
    // The command name (field 2) may hold spaces and parentheses: count fields after its closing one.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const startTicks = fields[19];
    return startTicks ? `${bootId.trim()}:${startTicks}` : null;
  } catch {
    return null;
  }
}

/** "npm start: api/server.ts", or the script alone when npm did not start it. */
function describeCommand(): string {
  const script = process.argv[1] ? relative(process.cwd(), process.argv[1]) : process.argv0;
  const event = process.env.npm_lifecycle_event;
  const startedByNpm = event && process.env.npm_lifecycle_script?.includes(script);
  if (!startedByNpm) return script;
  return `${event === 'start' ? 'npm start' : `npm run ${event}`}: ${script}`;
}

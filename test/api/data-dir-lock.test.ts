import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DataDirLockedError, LOCK_FILE, lockDataDir } from '../../api/data-dir-lock';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Another process that takes the folder and prints "locked"; `then` says what it does next. */
function holderProcess(dataDir: string, then: 'wait' | 'exit') {
  const next = then === 'exit' ? 'process.exit(0);' : 'setInterval(() => undefined, 1000);';
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', `const { lockDataDir } = await import('./api/data-dir-lock.ts'); await lockDataDir(${JSON.stringify(dataDir)}); console.log('locked'); ${next}`], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const locked = new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('locked') && resolve());
    child.once('exit', (code) => reject(new Error(`the holder ended (${code}) before locking`)));
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return { child, locked, exited };
}

describe('the DATA_DIR lock', () => {
  let dataDir: string;
  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'provenance-lock-'));
  });
  afterEach(async () => rm(dataDir, { recursive: true, force: true }));

  it('refuses a second holder, naming the first (pid, command, since when), until the first lets go', async () => {
    const first = await lockDataDir(dataDir);
    const refusal = await lockDataDir(dataDir).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(DataDirLockedError);
    expect((refusal as Error).message).toMatch(new RegExp(`^DATA_DIR ${dataDir} is in use by another process: pid ${process.pid} \\(.+\\), running since \\d{4}-\\d{2}-\\d{2}T`));
    await first.release();
    expect(await readdir(dataDir)).toEqual([]);
    const second = await lockDataDir(dataDir);
    await second.release();
  });

  it('refuses while another process holds it, and takes it over once that process has been killed', async () => {
    const holder = holderProcess(dataDir, 'wait');
    try {
      await holder.locked;
      await expect(lockDataDir(dataDir)).rejects.toThrow(`pid ${holder.child.pid} `);
    } finally {
      holder.child.kill('SIGKILL');
      await holder.exited;
    }
    // Killed: its lock is still there, and stale.
    expect(await readdir(dataDir)).toEqual([LOCK_FILE]);
    const lock = await lockDataDir(dataDir);
    expect(JSON.parse(await readFile(join(dataDir, LOCK_FILE), 'utf8'))).toMatchObject({ pid: process.pid });
    await lock.release();
  });

  it('is let go when its holder calls process.exit without releasing it', async () => {
    const holder = holderProcess(dataDir, 'exit');
    await holder.locked;
    await holder.exited;
    expect(await readdir(dataDir)).toEqual([]);
  });

  it('counts a holder on another machine as running while it refreshes the lock, and as gone a minute after; a taken-over lock is not removed by its old holder', async () => {
    const path = join(dataDir, LOCK_FILE);
    const old = await lockDataDir(dataDir);
    // The same file as a process of another machine sharing the folder would have written it.
    await writeFile(path, JSON.stringify({ ...JSON.parse(await readFile(path, 'utf8')), host: 'another-machine' }));
    await expect(lockDataDir(dataDir)).rejects.toThrow(/on host another-machine/);

    const twoMinutesAgo = new Date(Date.now() - 120_000);
    await utimes(path, twoMinutesAgo, twoMinutesAgo);
    const lock = await lockDataDir(dataDir);
    await old.release();
    expect(JSON.parse(await readFile(path, 'utf8'))).toMatchObject({ pid: process.pid, host: expect.not.stringMatching('another-machine') });
    await lock.release();
    expect(await readdir(dataDir)).toEqual([]);
  });
});

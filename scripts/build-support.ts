import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/**
 * What the builds `npm start` runs (scripts/build-web.ts, scripts/build-server.ts) share. Several
 * processes may start at once on one checkout (two `npm start`s, the browser tests and the server
 * test): builds take turns under a lock; a build whose sources have not changed since the last one
 * is skipped; and a new build is written aside and swapped in whole, so that a running server never
 * reads a half-emptied folder.
 */
export async function buildWhenChanged(options: { lock: string; output: string; builtFile: string; sources: readonly string[]; force: boolean; build: (aside: string) => Promise<void> }): Promise<'built' | 'up to date'> {
  const { output } = options;
  return withLock(options.lock, async () => {
    if (!options.force && (await modifiedAt(join(output, options.builtFile))) > (await newestSource(options.sources))) return 'up to date';
    const aside = join(dirname(output), `.${basename(output)}-${process.pid}`);
    await options.build(aside);
    const old = join(dirname(output), `.${basename(output)}-old-${process.pid}`);
    await rename(output, old).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
    });
    await rename(aside, output);
    await rm(old, { recursive: true, force: true });
    return 'built';
  });
}

/** A folder's own time counts too: it changes when a file in it is removed or renamed. */
async function newestSource(sources: readonly string[]): Promise<number> {
  let newest = 0;
  const visit = async (path: string): Promise<void> => {
    const info = await stat(path).catch(() => null);
    if (!info) return;
    newest = Math.max(newest, info.mtimeMs);
    if (info.isDirectory()) for (const entry of await readdir(path)) await visit(join(path, entry));
  };
  for (const source of sources) await visit(source);
  return newest;
}

/** 0 when the file is not there. */
async function modifiedAt(path: string): Promise<number> {
  return (await stat(path).catch(() => null))?.mtimeMs ?? 0;
}

async function withLock<T>(lock: string, work: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + 5 * 60_000;
  await mkdir(dirname(lock), { recursive: true });
  for (;;) {
    try {
      await mkdir(lock);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number(await readFile(join(lock, 'pid'), 'utf8').catch(() => '0'));
      // A holder that died (or a lock left by a killed build) is taken over.
      if (holder > 0 && !isAlive(holder)) await rm(lock, { recursive: true, force: true });
      else if (Date.now() > deadline) throw new Error(`another build holds ${lock}`, { cause: error });
      else await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  try {
    await writeFile(join(lock, 'pid'), String(process.pid));
    return await work();
  } finally {
    await rm(lock, { recursive: true, force: true });
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

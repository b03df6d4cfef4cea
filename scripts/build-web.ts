import { mkdir, readdir, rename, rm, stat, writeFile, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

/**
 * Builds the web app into web/dist for `npm start` (and `npm run build:web`, which always builds).
 *
 * Several processes may start at once on one checkout (two `npm start`s, the browser tests and the
 * server test): builds take turns under a lock; a build whose sources have not changed since the
 * last one is skipped; and a new build is written aside and swapped in, so a running server never
 * serves a half-emptied folder.
 */
const WEB = fileURLToPath(new URL('../web/', import.meta.url));
const DIST = join(WEB, 'dist');
const LOCK = join(WEB, '.build-lock');
const SOURCES = ['src', 'public', 'index.html', 'vite.config.ts', '../package-lock.json'].map((path) => join(WEB, path));

const force = process.argv.includes('--force');

await withLock(async () => {
  if (!force && (await builtAfter(await newestSource()))) {
    console.log('web/dist is up to date');
    return;
  }
  const aside = join(WEB, `.dist-${process.pid}`);
  await build({ configFile: join(WEB, 'vite.config.ts'), logLevel: 'warn', build: { outDir: aside, emptyOutDir: true } });
  const old = join(WEB, `.dist-old-${process.pid}`);
  await rename(DIST, old).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'ENOENT') throw error;
  });
  await rename(aside, DIST);
  await rm(old, { recursive: true, force: true });
  console.log('web/dist built');
});

async function newestSource(): Promise<number> {
  let newest = 0;
  const visit = async (path: string): Promise<void> => {
    const info = await stat(path).catch(() => null);
    if (!info) return;
    if (info.isDirectory()) {
      for (const entry of await readdir(path)) await visit(join(path, entry));
    } else newest = Math.max(newest, info.mtimeMs);
  };
  for (const source of SOURCES) await visit(source);
  return newest;
}

async function builtAfter(time: number): Promise<boolean> {
  const built = await stat(join(DIST, 'index.html')).catch(() => null);
  return built !== null && built.mtimeMs > time;
}

async function withLock(work: () => Promise<void>): Promise<void> {
  const deadline = Date.now() + 5 * 60_000;
  for (;;) {
    try {
      await mkdir(LOCK);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number(await readFile(join(LOCK, 'pid'), 'utf8').catch(() => '0'));
      // A holder that died (or a lock left by a killed build) is taken over.
      if (holder > 0 && !isAlive(holder)) await rm(LOCK, { recursive: true, force: true });
      else if (Date.now() > deadline) throw new Error(`another build holds ${LOCK}`, { cause: error });
      else await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  try {
    await writeFile(join(LOCK, 'pid'), String(process.pid));
    await work();
  } finally {
    await rm(LOCK, { recursive: true, force: true });
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

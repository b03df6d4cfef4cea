import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { TestProject } from 'vitest/node';
import { processGroupGone } from '../support/processes';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where the product answers, e.g. http://localhost:41234 */
    productUrl: string;
    /** The seeded demo accounts (DATA_DIR/demo-credentials.json). */
    demoAccounts: { admin: { email: string; password: string }; buyer: { email: string; password: string } };
    /** The Chromium binary (test/vitest.config.ts). */
    chromiumPath: string;
    /** Where the product writes its mail as .eml files (DATA_DIR/mail: no SMTP_URL, as a newcomer runs it). */
    mailDir: string;
  }
}

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * `npm start` on a fresh data dir, as a newcomer runs it: the web app is built, the API starts on
 * the embedded default and seeds itself. With EVENTSTORE_URL, as an operator runs a deployment on
 * KurrentDB instead: events there, in a namespace of this run's own (the KurrentDB is shared),
 * read models and accounts in PGlite, and `npm run seed` before `npm start`. Every browser test
 * runs against this one product.
 */
export default async function setup(project: TestProject) {
  const dataDir = await mkdtemp(join(tmpdir(), 'provenance-e2e-'));
  const eventStore = process.env.EVENTSTORE_URL
    ? { EVENTSTORE_URL: process.env.EVENTSTORE_URL, EVENTSTORE_NAMESPACE: `e2e-${randomUUID()}` }
    : { EVENTSTORE_URL: '', EVENTSTORE_NAMESPACE: '' };
  // NODE_ENV: vitest sets it to 'test', which would give the browser React's development build.
  const env = { ...process.env, NODE_ENV: 'production', PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', DATABASE_URL: '', ...eventStore };
  if (eventStore.EVENTSTORE_URL) await promisify(execFile)('npm', ['run', 'seed', '--', '--yes'], { cwd: ROOT, env, timeout: 180_000 });
  const product = spawn('npm', ['start'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let output = '';
  product.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  product.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));

  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`npm start did not come up in 120 s:\n${output}`)), 120_000);
    const check = () => {
      const match = /running at (http:\/\/[^\s/]+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    product.stdout!.on('data', check);
    product.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`npm start exited with ${code}:\n${output}`));
    });
  });
  const credentials = JSON.parse(await readFile(join(dataDir, 'demo-credentials.json'), 'utf8'));
  project.provide('productUrl', url);
  project.provide('demoAccounts', credentials);
  project.provide('mailDir', join(dataDir, 'mail'));

  return async () => {
    await stop(product);
    await rm(dataDir, { recursive: true, force: true });
  };
}

async function stop(product: ChildProcess): Promise<void> {
  if (product.exitCode !== null || product.pid === undefined) return;
  const exited = new Promise((resolve) => product.once('exit', resolve));
  // npm runs the server as its child: signal the whole group.
  process.kill(-product.pid, 'SIGTERM');
  const timeout = setTimeout(() => product.pid !== undefined && process.kill(-product.pid, 'SIGKILL'), 10_000);
  await exited;
  // npm is gone; the server it started may still be writing its last files under DATA_DIR.
  await processGroupGone(product.pid);
  clearTimeout(timeout);
}

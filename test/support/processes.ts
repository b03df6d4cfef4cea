import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export { freePort } from '../../scripts/free-port';

export async function waitForHealth(url: string, timeoutMs: number, output: () => string): Promise<unknown> {
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

/**
 * Resolves once no process of the group led by `pid` is left. `npm start` exits on SIGTERM before
 * the server it started has finished shutting down (and written its last files): wait for both.
 */
export async function processGroupGone(pid: number, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      process.kill(-pid, 0);
    } catch {
      return; // ESRCH: none left
    }
    if (Date.now() > deadline) throw new Error(`process group ${pid} still running after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * The environment an operator's shell would give: the embedded default (no DATABASE_URL, no
 * EVENTSTORE_URL, no HOST) plus `settings`.
 */
function operatorEnvironment(settings: Record<string, string>): NodeJS.ProcessEnv {
  const { HOST: _host, DATABASE_URL: _database, EVENTSTORE_URL: _eventStore, EVENTSTORE_NAMESPACE: _namespace, ...inherited } = process.env;
  return { ...inherited, LOG_LEVEL: 'warn', ...settings };
}

export interface RunningScript {
  readonly child: ChildProcess;
  readonly pid: number;
  stdout(): string;
  stderr(): string;
  /** The exit status (null: ended by a signal). */
  readonly exited: Promise<number | null>;
  /** Resolves once stdout shows `pattern`; rejects with the output if the process ends first or `timeoutMs` passes. */
  waitForOutput(pattern: RegExp, timeoutMs: number): Promise<void>;
  /** SIGTERM, as an operator's Ctrl-C or a supervisor would; SIGKILL if it has not ended 15 s later. */
  stop(): Promise<number | null>;
}

/** A TypeScript entry point of this repository (api/server.ts, scripts/…) as its own process, the way npm runs it through tsx. */
export function spawnScript(script: string, args: readonly string[], settings: Record<string, string>, input?: string): RunningScript {
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], { cwd: ROOT, env: operatorEnvironment(settings), stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdin.end(input);
  // 'close': exited, and every line it wrote has been read.
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  let ended = false;
  void exited.then(() => (ended = true));
  return {
    child,
    pid: child.pid!,
    stdout: () => stdout,
    stderr: () => stderr,
    exited,
    async waitForOutput(pattern, timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      while (!pattern.test(stdout)) {
        if (ended || Date.now() > deadline) throw new Error(`${script} ${ended ? 'ended' : 'did not print'} ${pattern} in time; its output:\n${stdout}\n${stderr}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    async stop() {
      if (!ended) {
        child.kill('SIGTERM');
        const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
        await exited;
        clearTimeout(killer);
      }
      return exited;
    },
  };
}

/** Runs a script to its end. */
export async function runScript(script: string, args: readonly string[], settings: Record<string, string>, input?: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const running = spawnScript(script, args, settings, input);
  const code = await running.exited;
  return { code, stdout: running.stdout(), stderr: running.stderr() };
}

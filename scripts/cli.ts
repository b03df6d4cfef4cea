/** What the operator scripts share: --help, refusals with a message, confirmations, secrets, progress. */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { read } from 'read';
import { ConfigError } from '../api/config';
import { DataDirUnavailableError } from '../api/data-dir-lock';

type OptionsConfig = NonNullable<ParseArgsConfig['options']>;

/** A failure the operator fixes from its message alone: printed without a stack, exit status 1. */
export class CliError extends Error {}

/**
 * The command line's options, or null after printing `usage` for --help / -h (whatever else the
 * line holds). A bad option is a CliError naming it, with the usage line.
 */
export function parseCommandLine<T extends OptionsConfig>(argv: string[], options: T, usage: string): ReturnType<typeof parseArgs<{ options: T; strict: true; allowPositionals: false }>>['values'] | null {
  if (argv.includes('--help') || argv.includes('-h')) {
    console.log(usage);
    return null;
  }
  try {
    return parseArgs({ args: argv, options, strict: true, allowPositionals: false }).values;
  } catch (error) {
    throw usageError((error as Error).message, usage);
  }
}

/** A bad argument, told with the usage line (the first of `usage`). */
export function usageError(message: string, usage: string): CliError {
  return new CliError(`${message}\n${usage.split('\n')[0]}\n(--help says more)`);
}

/** Whether a person is there to answer a question. */
function canAsk(): boolean {
  return Boolean(process.stdin.isTTY && process.stderr.isTTY);
}

/** Refuses at once when neither --yes nor a person at a terminal can confirm `action`: nothing is opened in vain. */
export function refuseUnconfirmable(action: string, yes: boolean | undefined): void {
  if (!yes && !canAsk()) throw new CliError(`${action}\nRefused: there is no terminal to confirm on. Run it again with --yes to go ahead.`);
}

/** Goes on when `yes` (--yes) or when the person at the terminal answers yes to `question`; refuses otherwise. */
export async function confirmOrRefuse(question: string, yes: boolean | undefined): Promise<void> {
  if (yes) return;
  refuseUnconfirmable(question, yes);
  const answer = await prompt({ prompt: `${question} [y/N] ` });
  if (!/^y(es)?$/i.test(answer.trim())) throw new CliError('Nothing was changed.');
}

/** Hidden input at the terminal (nothing echoed). */
export async function askSecret(question: string): Promise<string> {
  const secret = await prompt({ prompt: question, silent: true });
  // The Enter that ended it was not echoed either.
  process.stderr.write('\n');
  return secret;
}

async function prompt(options: { prompt: string; silent?: boolean }): Promise<string> {
  try {
    // Questions on stderr: stdout stays for the result (an id to pipe onwards).
    return await read({ ...options, output: process.stderr });
  } catch (error) {
    if ((error as Error).message === 'canceled') throw new CliError('Cancelled: nothing was changed.');
    throw error;
  }
}

/** Standard input to its end, without the one line ending `echo` or a file adds. */
export async function readStandardInput(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8').replace(/\r?\n$/, '');
}

/**
 * A running count with its rate on stderr: rewritten in place on a terminal, a line every few
 * seconds otherwise (a CI log).
 */
export function progressCounter(label: string): { add(count: number): void; finish(): { count: number; seconds: number; perSecond: number } } {
  const started = performance.now();
  const interactive = Boolean(process.stderr.isTTY);
  let count = 0;
  let shownAt: number | undefined;
  const figures = () => {
    const seconds = (performance.now() - started) / 1000;
    return { count, seconds, perSecond: seconds > 0 ? count / seconds : 0 };
  };
  const line = () => {
    const { perSecond } = figures();
    return `${label}: ${count.toLocaleString('en-US')} (${Math.round(perSecond).toLocaleString('en-US')}/s)`;
  };
  return {
    add(more) {
      count += more;
      const now = performance.now();
      if (shownAt !== undefined && now - shownAt < (interactive ? 100 : 5000)) return;
      shownAt = now;
      process.stderr.write(interactive ? `\r${line()}` : `${line()}\n`);
    },
    finish() {
      if (interactive && shownAt !== undefined) process.stderr.write(`\r${line()}\n`);
      return figures();
    },
  };
}

/** Runs a script's main: exit 0 when it returns, 1 with its message (a stack only for the unforeseen). */
export function runCli(main: () => Promise<void>): void {
  main().then(
    // A script that found something wrong says so and sets the exit code itself.
    () => process.exit(process.exitCode ?? 0),
    (error: unknown) => {
      const told = error instanceof CliError || error instanceof ConfigError || error instanceof DataDirUnavailableError;
      console.error(told ? (error as Error).message : error);
      process.exit(1);
    },
  );
}

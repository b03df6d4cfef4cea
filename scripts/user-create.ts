/**
 * `npm run user:create -- --email E --role ADMIN|BUYER|AUDITOR [--first-name F] [--last-name L] [--password-stdin]`
 *
 * Creates an account directly in the database the API uses (DATABASE_URL, else PGlite under
 * DATA_DIR) and prints its id. An ADMIN also gets BUYER, as every admin account does. The password
 * is asked for at the terminal (hidden) or read from standard input; it follows the same rules as
 * registration. Exits 1 with a message on a bad argument or a taken email.
 */
import { z } from 'zod';
import { createUser, EmailTakenError, logSecurityEvent } from '../api/accounts/users';
import { type Role } from '../api/contracts/accounts';
import { MAX_PASSWORD_LENGTH, passwordProblem } from '../api/contracts/account-rules';
import { loadConfig } from '../api/config';
import { openDatabase } from '../api/database';
import { openInfrastructure } from '../api/infrastructure';
import { askSecret, CliError, parseCommandLine, readStandardInput, runCli, usageError } from './cli';

/** What each account made here may do; an auditor reads the log and nothing else (no bidding). */
const ROLES_OF: Record<Role, Role[]> = { ADMIN: ['ADMIN', 'BUYER'], BUYER: ['BUYER'], AUDITOR: ['AUDITOR'] };

const USAGE = `Usage: npm run user:create -- --email E --role ADMIN|BUYER|AUDITOR [--first-name F] [--last-name L] [--password-stdin]

Creates an account in the database the API uses (DATABASE_URL, else PGlite under DATA_DIR) and
prints its id. An ADMIN is also a BUYER. On the embedded default, stop the API first: this refuses
while it runs.

The password (the registration rules apply) is asked for at the terminal, hidden, or read from
standard input with --password-stdin:
  printf '%s' "$PASSWORD" | npm run --silent user:create -- --email E --role ADMIN --password-stdin
(--password P works too, but leaves the password in the shell's history and in the process list.)

Options:
  --email E          the account's email (required)
  --role R           ADMIN, BUYER or AUDITOR (required)
  --first-name F     default: Provenance
  --last-name L      default: the role (Admin, Buyer, Auditor)
  --password-stdin   read the password from standard input
  -h, --help         show this help`;

interface NewAccount {
  email: string;
  role: Role;
  firstName: string;
  lastName: string;
  /** Where the password comes from; a value only for --password. */
  password: { from: 'prompt' | 'stdin' } | { from: 'argument'; value: string };
}

function readArguments(argv: string[]): NewAccount | null {
  const values = parseCommandLine(
    argv,
    {
      email: { type: 'string' },
      password: { type: 'string' },
      'password-stdin': { type: 'boolean' },
      role: { type: 'string' },
      'first-name': { type: 'string' },
      'last-name': { type: 'string' },
    },
    USAGE,
  );
  if (!values) return null;
  const email = values.email?.trim();
  if (!email) throw usageError('--email is required', USAGE);
  if (!z.email().safeParse(email).success) throw usageError(`--email: "${email}" is not a valid email address`, USAGE);
  const role = values.role?.toUpperCase();
  if (role !== 'ADMIN' && role !== 'BUYER' && role !== 'AUDITOR') throw usageError('--role must be ADMIN, BUYER or AUDITOR', USAGE);
  if (values.password !== undefined && values['password-stdin']) throw usageError('--password and --password-stdin: give one', USAGE);
  const firstName = values['first-name']?.trim() || 'Provenance';
  const lastName = values['last-name']?.trim() || { ADMIN: 'Admin', BUYER: 'Buyer', AUDITOR: 'Auditor' }[role];
  const password: NewAccount['password'] =
    values.password !== undefined ? { from: 'argument', value: values.password } : { from: values['password-stdin'] ? 'stdin' : 'prompt' };
  return { email, role, firstName, lastName, password };
}

/** A password that meets the rules, from wherever the command line said; at the terminal, asked again until it does. */
async function obtainPassword(source: NewAccount['password']): Promise<string> {
  if (source.from === 'argument') {
    console.error('Warning: a password given with --password stays in the shell history and shows in the process list; prefer the prompt or --password-stdin.');
    return checked(source.value, '--password');
  }
  if (source.from === 'stdin') return checked(await readStandardInput(), 'password (standard input)');
  if (!process.stdin.isTTY) throw usageError('No password: there is no terminal to ask for it. Pipe it in with --password-stdin.', USAGE);
  for (;;) {
    const password = await askSecret('Password: ');
    const problem = problemWith(password);
    if (problem) {
      console.error(problem);
      continue;
    }
    if ((await askSecret('Same password again: ')) === password) return password;
    console.error('The two entries differ; once more.');
  }
}

function checked(password: string, where: string): string {
  const problem = problemWith(password);
  if (problem) throw usageError(`${where}: ${problem}`, USAGE);
  return password;
}

function problemWith(password: string): string | null {
  if (password.length > MAX_PASSWORD_LENGTH) return `at most ${MAX_PASSWORD_LENGTH} characters (sign-in refuses longer ones)`;
  return passwordProblem(password);
}

runCli(async () => {
  const account = readArguments(process.argv.slice(2));
  if (!account) return;
  const password = await obtainPassword(account.password);
  const config = loadConfig();
  const infrastructure = await openInfrastructure(config);
  try {
    const db = await openDatabase(infrastructure.database);
    const roles = ROLES_OF[account.role];
    const user = await createUser(db, { email: account.email, password, firstName: account.firstName, lastName: account.lastName, roles, emailVerified: true }).catch((error: unknown) => {
      throw error instanceof EmailTakenError ? new CliError(`${error.message}: nothing was created`) : error;
    });
    await logSecurityEvent(db, { userId: user.id, actorId: null, kind: 'ACCOUNT_CREATED', details: { roles, via: 'user:create' } });
    console.log(`Created ${account.role} account ${user.email} with id ${user.id}`);
  } finally {
    await infrastructure.close();
  }
});

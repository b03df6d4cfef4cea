/**
 * `npm run user:create -- --email E --password P --role ADMIN|BUYER|AUDITOR [--first-name F] [--last-name L]`
 *
 * Creates an account directly in the database the API uses (DATABASE_URL, else PGlite under
 * DATA_DIR) and prints its id. An ADMIN also gets BUYER, as every admin account does. Passwords
 * follow the same rules as registration. Exits 1 with a message on a bad argument or a taken email.
 */
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { createUser, EmailTakenError, logSecurityEvent } from '../api/accounts/users';
import { type Role } from '../api/contracts/accounts';
import { MAX_PASSWORD_LENGTH, passwordProblem } from '../api/contracts/account-rules';
import { ConfigError, loadConfig, type Config } from '../api/config';
import { openDatabase } from '../api/database';
import { openInfrastructure, type Infrastructure } from '../api/infrastructure';

/** What each account made here may do; an auditor reads the log and nothing else (no bidding). */
const ROLES_OF: Record<Role, Role[]> = { ADMIN: ['ADMIN', 'BUYER'], BUYER: ['BUYER'], AUDITOR: ['AUDITOR'] };

const USAGE = 'Usage: npm run user:create -- --email E --password P --role ADMIN|BUYER|AUDITOR [--first-name F] [--last-name L]';

class UsageError extends Error {}
class StorageError extends Error {}

interface NewAccount {
  email: string;
  password: string;
  role: Role;
  firstName: string;
  lastName: string;
}

function readArguments(argv: string[]): NewAccount {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        email: { type: 'string' },
        password: { type: 'string' },
        role: { type: 'string' },
        'first-name': { type: 'string' },
        'last-name': { type: 'string' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const email = values.email?.trim();
  if (!email) throw new UsageError('--email is required');
  if (!z.email().safeParse(email).success) throw new UsageError(`--email: "${email}" is not a valid email address`);
  if (values.password === undefined) throw new UsageError('--password is required');
  const problem = passwordProblem(values.password);
  if (problem) throw new UsageError(`--password: ${problem}`);
  if (values.password.length > MAX_PASSWORD_LENGTH) throw new UsageError(`--password: at most ${MAX_PASSWORD_LENGTH} characters (sign-in refuses longer ones)`);
  const role = values.role?.toUpperCase();
  if (role !== 'ADMIN' && role !== 'BUYER' && role !== 'AUDITOR') throw new UsageError('--role must be ADMIN, BUYER or AUDITOR');
  const firstName = values['first-name']?.trim() || 'Provenance';
  const lastName = values['last-name']?.trim() || { ADMIN: 'Admin', BUYER: 'Buyer', AUDITOR: 'Auditor' }[role];
  return { email, password: values.password, role, firstName, lastName };
}

async function open(config: Config): Promise<Infrastructure> {
  try {
    return await openInfrastructure(config);
  } catch (error) {
    const where = config.databaseUrl
      ? 'the database at DATABASE_URL'
      : `the PGlite database under ${config.dataDir}. Only one process may open a PGlite folder at a time: stop the API using it (or point DATABASE_URL at a PostgreSQL server) and try again`;
    throw new StorageError(`Could not open ${where}.\n  ${(error as Error).message}`);
  }
}

async function main(): Promise<number> {
  const account = readArguments(process.argv.slice(2));
  const config = loadConfig();
  const infrastructure = await open(config);
  try {
    const db = await openDatabase(infrastructure.database);
    const roles = ROLES_OF[account.role];
    const user = await createUser(db, { email: account.email, password: account.password, firstName: account.firstName, lastName: account.lastName, roles });
    await logSecurityEvent(db, { userId: user.id, actorId: null, kind: 'ACCOUNT_CREATED', details: { roles, via: 'user:create' } });
    console.log(`Created ${account.role} account ${user.email} with id ${user.id}`);
    return 0;
  } finally {
    await infrastructure.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof UsageError) console.error(`${error.message}\n${USAGE}`);
    else if (error instanceof EmailTakenError) console.error(`${error.message}: nothing was created`);
    else if (error instanceof ConfigError || error instanceof StorageError) console.error(error.message);
    else console.error(error);
    process.exit(1);
  },
);

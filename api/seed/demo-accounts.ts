import { randomInt } from 'node:crypto';
import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { verifyPassword } from '../accounts/passwords';
import { passwordProblem } from '../contracts/account-rules';
import type { Role } from '../accounts/schema';
import { createUser, findUserByEmail, type User } from '../accounts/users';
import type { AppDependencies } from '../dependencies';

/** A demo account as announced to whoever runs the demo; password null when it is not known. */
export interface DemoAccount {
  readonly email: string;
  readonly password: string | null;
}

interface AccountSpec {
  readonly email: string;
  readonly firstName: string;
  readonly lastName: string;
  readonly roles: readonly Role[];
}

export const DEMO_ADMIN: AccountSpec = { email: 'admin@provenance.local', firstName: 'Demo', lastName: 'Admin', roles: ['ADMIN', 'BUYER'] };
export const DEMO_BUYER: AccountSpec = { email: 'buyer@provenance.local', firstName: 'Demo', lastName: 'Buyer', roles: ['BUYER'] };

/** Bidders whose opening bids make the marketplace look alive; nobody signs in as them. */
export const DEMO_BIDDERS: readonly AccountSpec[] = [
  { email: 'jordan.reyes@provenance.local', firstName: 'Jordan', lastName: 'Reyes', roles: ['BUYER'] },
  { email: 'mia.chen@provenance.local', firstName: 'Mia', lastName: 'Chen', roles: ['BUYER'] },
];

const CREDENTIALS_FILE = 'demo-credentials.json';

const rememberedSchema = z.object({
  admin: z.object({ email: z.string(), password: z.string() }).optional(),
  buyer: z.object({ email: z.string(), password: z.string() }).optional(),
});
type Remembered = z.infer<typeof rememberedSchema>;

export function demoCredentialsFile(dataDir: string): string {
  return join(dataDir, CREDENTIALS_FILE);
}

const LOWER = 'abcdefghijkmnopqrstuvwxyz';
const UPPER = 'ABCDEFGHJKLMNPQRSTUVWXYZ';
const DIGITS = '23456789';
const SPECIAL = '@$!%*?&';

/** 20 random characters with at least one of each class the password rules ask for. */
export function generateDemoPassword(): string {
  const pick = (alphabet: string) => alphabet[randomInt(alphabet.length)]!;
  const everything = LOWER + UPPER + DIGITS + SPECIAL;
  const characters = [pick(LOWER), pick(UPPER), pick(DIGITS), pick(SPECIAL)];
  while (characters.length < 20) characters.push(pick(everything));
  for (let i = characters.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [characters[i], characters[j]] = [characters[j]!, characters[i]!];
  }
  const password = characters.join('');
  if (passwordProblem(password) !== null) throw new Error('generated demo password breaks the password rules');
  return password;
}

/** The demo admin and buyer, created on first use; their passwords remembered in DATA_DIR. */
export interface DemoAccounts {
  readonly admin: DemoAccount;
  readonly buyer: DemoAccount;
  readonly adminUser: User;
  readonly buyerUser: User;
}

/**
 * Creates whichever of the demo admin and buyer is missing, with a random password written to
 * `demo-credentials.json` (mode 0600) before the account exists, so a crash in between loses
 * nothing. An existing account keeps its password; it is announced only if the file still knows it.
 */
export async function ensureDemoAccounts(deps: Pick<AppDependencies, 'db' | 'dataDir'>, now: Date): Promise<DemoAccounts> {
  const remembered = await readRemembered(deps.dataDir);
  const existingAdmin = await findUserByEmail(deps.db, DEMO_ADMIN.email);
  const existingBuyer = await findUserByEmail(deps.db, DEMO_BUYER.email);

  const adminPassword = existingAdmin ? null : passwordFor('admin', remembered);
  const buyerPassword = existingBuyer ? null : passwordFor('buyer', remembered);
  if (adminPassword !== null || buyerPassword !== null) {
    await writeRemembered(deps.dataDir, {
      ...remembered,
      ...(adminPassword !== null ? { admin: { email: DEMO_ADMIN.email, password: adminPassword } } : {}),
      ...(buyerPassword !== null ? { buyer: { email: DEMO_BUYER.email, password: buyerPassword } } : {}),
    });
  }

  const adminUser = existingAdmin ?? (await createUser(deps.db, { ...DEMO_ADMIN, password: adminPassword!, emailVerified: true }, now));
  const buyerUser = existingBuyer ?? (await createUser(deps.db, { ...DEMO_BUYER, password: buyerPassword!, emailVerified: true }, now));
  if (!adminUser.roles.includes('ADMIN')) {
    throw new Error(`${DEMO_ADMIN.email} exists without the ADMIN role; the demo listings need an admin to list them`);
  }
  return {
    admin: { email: DEMO_ADMIN.email, password: adminPassword ?? (await knownPassword(adminUser, remembered.admin)) },
    buyer: { email: DEMO_BUYER.email, password: buyerPassword ?? (await knownPassword(buyerUser, remembered.buyer)) },
    adminUser,
    buyerUser,
  };
}

/** What can be said about the demo accounts without creating anything. */
export async function knownDemoAccounts(deps: Pick<AppDependencies, 'db' | 'dataDir'>): Promise<{ admin: DemoAccount; buyer: DemoAccount }> {
  const remembered = await readRemembered(deps.dataDir);
  const admin = await findUserByEmail(deps.db, DEMO_ADMIN.email);
  const buyer = await findUserByEmail(deps.db, DEMO_BUYER.email);
  return {
    admin: { email: DEMO_ADMIN.email, password: admin ? await knownPassword(admin, remembered.admin) : null },
    buyer: { email: DEMO_BUYER.email, password: buyer ? await knownPassword(buyer, remembered.buyer) : null },
  };
}

/** A bidder account, created with a password nobody keeps when it does not exist yet. */
export async function ensureBidder(deps: Pick<AppDependencies, 'db'>, spec: AccountSpec, now: Date): Promise<User> {
  return (await findUserByEmail(deps.db, spec.email)) ?? createUser(deps.db, { ...spec, password: generateDemoPassword(), emailVerified: true }, now);
}

function passwordFor(account: 'admin' | 'buyer', remembered: Remembered): string {
  // A remembered password is reused when the database was reset but DATA_DIR was kept.
  const earlier = remembered[account]?.password;
  return earlier !== undefined && passwordProblem(earlier) === null ? earlier : generateDemoPassword();
}

/** The remembered password if it still opens the account (it may have been changed since). */
async function knownPassword(user: User, remembered: { email: string; password: string } | undefined): Promise<string | null> {
  if (!remembered || remembered.email.toLowerCase() !== user.email.toLowerCase()) return null;
  return (await verifyPassword(user.password_hash, remembered.password)) ? remembered.password : null;
}

async function readRemembered(dataDir: string): Promise<Remembered> {
  let text: string;
  try {
    text = await readFile(demoCredentialsFile(dataDir), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw error;
  }
  try {
    const parsed = rememberedSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : {};
  } catch {
    // An unreadable file knows nothing; it is rewritten when an account is next created.
    return {};
  }
}

async function writeRemembered(dataDir: string, remembered: Remembered): Promise<void> {
  await mkdir(dataDir, { recursive: true });
  const file = demoCredentialsFile(dataDir);
  const partial = `${file}.partial`;
  await writeFile(partial, `${JSON.stringify(remembered, null, 2)}\n`, { mode: 0o600 });
  // The mode of writeFile applies only to a new file; a leftover partial keeps its own.
  await chmod(partial, 0o600);
  await rename(partial, file);
}

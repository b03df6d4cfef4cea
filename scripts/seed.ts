/** `npm run seed`: stock the configured store with the demo marketplace and print the demo accounts. */
import { resolveJwtSecret } from '../api/accounts/jwt-secret';
import { loadConfig } from '../api/config';
import type { AppDependencies } from '../api/dependencies';
import { openInfrastructure } from '../api/infrastructure';
import { seedDemoMarketplace, type SeedResult } from '../api/seed/seed';
import type { DemoAccount } from '../api/seed/demo-accounts';
import { openServices } from '../api/services';
import { confirmOrRefuse, parseCommandLine, runCli } from './cli';

const USAGE = `Usage: npm run seed -- [--yes]

Stocks the marketplace of the database the API uses (DATABASE_URL, else PGlite under DATA_DIR)
with the demo catalogue: a demo admin and buyer (random passwords, kept in DATA_DIR), 10 listings
with NFC tags and live auctions. A marketplace that has listings already is left alone. A store
that holds accounts or events but no listing yet is seeded only once confirmed. On the embedded
default, stop the API first: this refuses while it runs.

Options:
  --yes        seed a store that is not empty without asking (needed when not run from a terminal)
  -h, --help   show this help`;

runCli(async () => {
  const options = parseCommandLine(process.argv.slice(2), { yes: { type: 'boolean' } }, USAGE);
  if (!options) return;
  const config = loadConfig();
  const infrastructure = await openInfrastructure(config);
  try {
    const jwtSecret = await resolveJwtSecret(config.jwtSecret, config.dataDir);
    const services = await openServices(infrastructure, { jwtSecret, googleClientId: config.googleClientId, logLevel: config.logLevel, dataDir: config.dataDir });
    try {
      const database = infrastructure.description.database;
      const occupants = await occupantsWithoutListings(services.deps);
      if (occupants) await confirmOrRefuse(`${database} holds ${occupants} but no listing. Add the demo marketplace to it (a demo admin and buyer, 10 listings with live auctions)?`, options.yes);
      report(await seedDemoMarketplace(services.deps), database);
    } finally {
      await services.stop();
    }
  } finally {
    await infrastructure.close();
  }
});

/** "3 accounts and events" when the store is in use but has no listing (the seed would write into it); null when it is empty or stocked. */
async function occupantsWithoutListings(deps: AppDependencies): Promise<string | null> {
  await deps.projections.caughtUp();
  if (await deps.db.selectFrom('listings').select('id').limit(1).executeTakeFirst()) return null;
  const { accounts } = await deps.db.selectFrom('users').select((eb) => eb.fn.countAll<string>().as('accounts')).executeTakeFirstOrThrow();
  const hasEvents = (await deps.eventStore.headPosition()) !== null;
  const parts = [Number(accounts) > 0 ? `${accounts} account${Number(accounts) === 1 ? '' : 's'}` : null, hasEvents ? 'events' : null].filter(Boolean);
  return parts.length > 0 ? parts.join(' and ') : null;
}

function report(result: SeedResult, database: string): void {
  console.log(
    result.seeded
      ? `Seeded the demo marketplace in ${database}: ${result.listings} listings, each with its NFC tag and its auction.`
      : `The marketplace in ${database} already has listings: nothing was seeded.`,
  );
  console.log('Demo accounts:');
  console.log(`  admin  ${line(result.admin)}`);
  console.log(`  buyer  ${line(result.buyer)}`);
  if (result.admin.password !== null || result.buyer.password !== null) console.log(`(passwords kept in ${result.credentialsFile})`);
}

function line(account: DemoAccount): string {
  return account.password === null ? `${account.email}  (password unknown: not in the demo credentials file)` : `${account.email}  ${account.password}`;
}

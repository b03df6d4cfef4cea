/** `npm run seed`: stock the configured store with the demo marketplace and print the demo accounts. */
import { resolveJwtSecret } from '../api/accounts/jwt-secret';
import { ConfigError, loadConfig } from '../api/config';
import { openInfrastructure } from '../api/infrastructure';
import { seedDemoMarketplace, type SeedResult } from '../api/seed/seed';
import type { DemoAccount } from '../api/seed/demo-accounts';
import { openServices } from '../api/services';

async function main(): Promise<void> {
  const config = loadConfig();
  if (!config.databaseUrl) {
    // PGlite keeps its folder to itself: a running `npm start` would make this fail to open it.
    console.log(`Seeding the embedded database in ${config.dataDir}. It can be opened by one process at a time: stop \`npm start\` first.`);
  }
  const infrastructure = await openInfrastructure(config);
  try {
    const jwtSecret = await resolveJwtSecret(config.jwtSecret, config.dataDir);
    const services = await openServices(infrastructure, { jwtSecret, googleClientId: config.googleClientId, logLevel: config.logLevel, dataDir: config.dataDir });
    try {
      report(await seedDemoMarketplace(services.deps), infrastructure.description.database);
    } finally {
      await services.stop();
    }
  } finally {
    await infrastructure.close();
  }
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

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});

import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { ensureAdmin } from './accounts/seed-admin';
import { resolveJwtSecret } from './accounts/jwt-secret';
import { buildApp } from './app';
import { ConfigError, loadConfig, type Config } from './config';
import { openInfrastructure } from './infrastructure';
import { seedDemoMarketplace, type SeedResult } from './seed/seed';
import { openServices } from './services';
import { WEB_DIST } from './web-app';

/** `npm start`: the whole product on one port, on the embedded default unless configured otherwise. */
async function main(): Promise<void> {
  const config = loadConfig();
  const infrastructure = await openInfrastructure(config);
  const jwtSecret = await resolveJwtSecret(config.jwtSecret, config.dataDir);
  const services = await openServices(infrastructure, { jwtSecret, googleClientId: config.googleClientId, logLevel: config.logLevel, dataDir: config.dataDir, media: config.media, trustProxy: config.trustProxy });
  const app = await buildApp(services.deps, { webApp: WEB_DIST });
  if (!existsSync(`${WEB_DIST}index.html`)) app.log.warn('web/dist has no built app (npm run build:web): serving the API only');
  app.log.info({ ...infrastructure.description, media: services.deps.mediaStorage.description }, 'storage');

  if (config.seedAdmin) {
    const outcome = await ensureAdmin(services.deps.db, config.seedAdmin);
    if (outcome.created) app.log.info({ email: config.seedAdmin.email }, 'created the SEED_ADMIN_EMAIL administrator');
    else if (!outcome.hasAdminRole) app.log.warn({ email: config.seedAdmin.email }, 'SEED_ADMIN_EMAIL belongs to an account without the ADMIN role; left unchanged');
  }

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down');
    // Requests in flight get 5 s to finish; then every connection is cut, whatever Node thinks of it.
    setTimeout(() => app.server.closeAllConnections(), 5000).unref();
    await app.close();
    await services.stop();
    await infrastructure.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  // The embedded default stocks itself on first start (while already answering); a real
  // deployment only with `npm run seed`.
  const isEmbedded = !config.databaseUrl && !config.eventStoreUrl;
  const seed = isEmbedded ? await seedDemoMarketplace(services.deps) : undefined;
  console.log(banner(config, app.server.address(), infrastructure.description, seed));
}

function banner(config: Config, address: AddressInfo | string | null, storage: { database: string; eventStore: string }, seed: SeedResult | undefined): string {
  const port = typeof address === 'object' && address ? address.port : config.port;
  const host = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  const url = `http://${host}:${port}`;
  const lines = [
    '',
    `  Provenance is running at ${url}/marketplace`,
    `  API documentation:      ${url}/docs`,
    `  Database:               ${storage.database}; events in the ${storage.eventStore}`,
  ];
  if (seed) {
    const show = (account: SeedResult['admin']) => `${account.email} / ${account.password ?? '(password unknown: demo-credentials.json in DATA_DIR is gone)'}`;
    lines.push(`  Demo admin:             ${show(seed.admin)}`, `  Demo buyer:             ${show(seed.buyer)}`);
    if (seed.seeded) lines.push(`  Seeded ${seed.listings} listings with live auctions.`);
  }
  return `${lines.join('\n')}\n`;
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) console.error(error.message);
  else console.error(error);
  process.exit(1);
});

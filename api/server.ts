import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { ensureAdmin } from './accounts/seed-admin';
import { resolveJwtSecret } from './accounts/jwt-secret';
import { buildApp } from './app';
import { ConfigError, loadConfig, type Config } from './config';
import { DataDirUnavailableError } from './data-dir-lock';
import { openInfrastructure } from './infrastructure';
import { seedDemoMarketplace, type SeedResult } from './seed/seed';
import { openServices } from './services';
import { terminalLogStream } from './terminal-log';
import { WEB_DIST } from './web-app';

/** `npm start`: the whole product on one port, on the embedded default unless configured otherwise. */
async function main(): Promise<void> {
  const config = loadConfig();
  const infrastructure = await openInfrastructure(config);
  const jwtSecret = await resolveJwtSecret(config.jwtSecret, config.dataDir);
  const services = await openServices(infrastructure, { jwtSecret, signingKey: config.signingKey, googleClientId: config.googleClientId, logLevel: config.logLevel, dataDir: config.dataDir, media: config.media, trustProxy: config.trustProxy, readyMaxLagEvents: config.readyMaxLagEvents, instanceUrl: config.instanceUrl, mail: config.mail, publicUrl: config.publicUrl, afterSale: config.afterSale, ...(config.notifier ? {} : { notices: false as const }) });
  const logStream = process.stdout.isTTY ? await terminalLogStream() : undefined;
  const app = await buildApp(services.deps, { webApp: WEB_DIST, rateLimits: config.rateLimits, logStream });
  if (!existsSync(`${WEB_DIST}index.html`)) app.log.warn('web/dist has no built app (npm run build:web): serving the API only');
  if (config.databaseUrl && !config.mail.smtpUrl) app.log.warn({ folder: `${config.dataDir}/mail` }, 'no SMTP_URL: mail is written to files, and nobody receives it');
  if (config.databaseUrl && !config.afterSale.bankAccountConfigured) app.log.warn('no BANK_TRANSFER_DETAILS: invoices tell winners to wire to the demo account');
  app.log.info({ ...infrastructure.description, media: services.deps.mediaStorage.description, mail: services.deps.mailSender.transport.description }, 'storage');

  if (config.seedAdmin) {
    const outcome = await ensureAdmin(services.deps.db, config.seedAdmin);
    if (outcome.created) app.log.info({ email: config.seedAdmin.email }, 'created the SEED_ADMIN_EMAIL administrator');
    else if (!outcome.hasAdminRole) app.log.warn({ email: config.seedAdmin.email }, 'SEED_ADMIN_EMAIL belongs to an account without the ADMIN role; left unchanged');
  }

  let stopping = false;
  const shutDown = async (exitCode: number) => {
    if (stopping) return;
    stopping = true;
    // Requests in flight get 5 s to finish; then every connection is cut, whatever Node thinks of it.
    setTimeout(() => app.server.closeAllConnections(), 5000).unref();
    await app.close();
    await services.stop();
    await infrastructure.close();
    process.exit(exitCode);
  };
  const stop = (signal: string) => {
    if (!stopping) app.log.info({ signal }, 'shutting down');
    void shutDown(0);
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));

  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    const problem = listenProblem(error, config);
    if (!problem) throw error;
    console.error(problem);
    return shutDown(1);
  }
  // The embedded default stocks itself on first start (while already answering); a real
  // deployment only with `npm run seed`.
  services.deps.links.listeningAt(listeningUrl(config, app.server.address()));
  const isEmbedded = !config.databaseUrl && !config.eventStoreUrl;
  const seed = isEmbedded ? await seedDemoMarketplace(services.deps) : undefined;
  console.log(banner(config, app.server.address(), infrastructure.description, seed, services.deps.mailSender.transport.description));
}

/** Where this process answers, as a person on this machine opens it. */
function listeningUrl(config: Config, address: AddressInfo | string | null): string {
  const port = typeof address === 'object' && address ? address.port : config.port;
  const host = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host.includes(':') ? `[${config.host}]` : config.host;
  return `http://${host}:${port}`;
}

function banner(config: Config, address: AddressInfo | string | null, storage: { database: string; eventStore: string }, seed: SeedResult | undefined, mail: string): string {
  const url = listeningUrl(config, address);
  const lines = [
    '',
    `  Provenance is running at ${url}/marketplace`,
    `  API documentation:      ${url}/docs`,
    `  Database:               ${storage.database}; events in the ${storage.eventStore}`,
    `  Mail:                   ${mail}`,
  ];
  if (seed) {
    const show = (account: SeedResult['admin']) => `${account.email} / ${account.password ?? '(password unknown: demo-credentials.json in DATA_DIR is gone)'}`;
    lines.push(`  Demo admin:             ${show(seed.admin)}`, `  Demo buyer:             ${show(seed.buyer)}`);
    if (seed.seeded) lines.push(`  Seeded ${seed.listings} listings with live auctions.`);
  }
  return `${lines.join('\n')}\n`;
}

/** A listen failure a setting fixes: one line saying which; null for anything else. */
function listenProblem(error: unknown, config: Config): string | null {
  switch ((error as NodeJS.ErrnoException).code) {
    case 'EADDRINUSE':
      return `Port ${config.port} on ${config.host} is already in use: stop the program using it, or set PORT to another port (PORT=0 picks a free one).`;
    case 'EACCES':
      return `Port ${config.port} needs privileges this process lacks: set PORT to 1024 or above.`;
    case 'EADDRNOTAVAIL':
    case 'ENOTFOUND':
      return `HOST ${config.host} is not an address of this machine: set HOST to one (127.0.0.1: this machine only; 0.0.0.0: every interface).`;
    default:
      return null;
  }
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof DataDirUnavailableError) console.error(error.message);
  else console.error(error);
  process.exit(1);
});

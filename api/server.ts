import { resolveJwtSecret } from './accounts/jwt-secret';
import { buildApp } from './app';
import { ConfigError, loadConfig } from './config';
import { openInfrastructure } from './infrastructure';
import { openServices } from './services';

/** `npm start`: the whole product on one port, on the embedded default unless configured otherwise. */
async function main(): Promise<void> {
  const config = loadConfig();
  const infrastructure = await openInfrastructure(config);
  const jwtSecret = await resolveJwtSecret(config.jwtSecret, config.dataDir);
  const services = await openServices(infrastructure, { jwtSecret, googleClientId: config.googleClientId, logLevel: config.logLevel, dataDir: config.dataDir });
  const app = await buildApp(services.deps);
  app.log.info(infrastructure.description, 'storage');

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down');
    await app.close();
    await services.stop();
    await infrastructure.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) console.error(error.message);
  else console.error(error);
  process.exit(1);
});

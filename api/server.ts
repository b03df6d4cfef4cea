import { ConfigError, loadConfig } from './config';
import { buildApp } from './app';
import { openInfrastructure } from './infrastructure';

/** `npm start`: the whole product on one port, on the embedded default unless configured otherwise. */
async function main(): Promise<void> {
  const config = loadConfig();
  const infrastructure = await openInfrastructure(config);
  const app = await buildApp({ infrastructure, logLevel: config.logLevel });
  app.log.info(infrastructure.description, 'storage');

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down');
    await app.close();
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

import { resolve } from 'node:path';
import { z } from 'zod';

/**
 * Settings come from the environment (README, "Configuration"). Every one is optional: without
 * any, the product runs embedded, with PGlite and local files under DATA_DIR.
 */
const environmentSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65_535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/ }).optional(),
  EVENTSTORE_URL: z.string().regex(/^(kurrentdb|esdb|kdb)(\+discover)?:\/\//, 'must be a kurrentdb:// or esdb:// connection string').optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export interface Config {
  readonly port: number;
  readonly host: string;
  /** Absolute. */
  readonly dataDir: string;
  readonly databaseUrl: string | undefined;
  readonly eventStoreUrl: string | undefined;
  readonly logLevel: string;
}

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

export function loadConfig(environment: NodeJS.ProcessEnv = process.env): Config {
  // An empty variable means "not set", as a newcomer writing `DATABASE_URL= npm start` expects.
  const present = Object.fromEntries(Object.entries(environment).filter(([, value]) => value !== undefined && value !== ''));
  const parsed = environmentSchema.safeParse(present);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  }
  const env = parsed.data;
  return {
    port: env.PORT,
    host: env.HOST,
    dataDir: resolve(env.DATA_DIR),
    databaseUrl: env.DATABASE_URL,
    eventStoreUrl: env.EVENTSTORE_URL,
    logLevel: env.LOG_LEVEL,
  };
}

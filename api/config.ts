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
  JWT_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  SEED_ADMIN_EMAIL: z.email().optional(),
  SEED_ADMIN_PASSWORD: z.string().min(8).optional(),
  GOOGLE_CLIENT_ID: z.string().min(1).optional(),
  /** Behind a reverse proxy: 'true' (trust it) or a comma-separated list of its addresses/CIDRs. */
  TRUST_PROXY: z.string().min(1).optional(),
});

export interface Config {
  readonly port: number;
  readonly host: string;
  /** Absolute. */
  readonly dataDir: string;
  readonly databaseUrl: string | undefined;
  readonly eventStoreUrl: string | undefined;
  readonly logLevel: string;
  /** Undefined: generated once and kept under DATA_DIR. */
  readonly jwtSecret: string | undefined;
  readonly seedAdmin: { email: string; password: string } | undefined;
  /** Google sign-in is offered only when configured. */
  readonly googleClientId: string | undefined;
  /** Fastify's trustProxy: client addresses (rate limits) come from X-Forwarded-For only when set. */
  readonly trustProxy: boolean | string[];
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
  if (Boolean(env.SEED_ADMIN_EMAIL) !== Boolean(env.SEED_ADMIN_PASSWORD)) {
    throw new ConfigError('Invalid configuration:\n  SEED_ADMIN_EMAIL and SEED_ADMIN_PASSWORD go together');
  }
  return {
    port: env.PORT,
    host: env.HOST,
    dataDir: resolve(env.DATA_DIR),
    databaseUrl: env.DATABASE_URL,
    eventStoreUrl: env.EVENTSTORE_URL,
    logLevel: env.LOG_LEVEL,
    jwtSecret: env.JWT_SECRET,
    seedAdmin: env.SEED_ADMIN_EMAIL && env.SEED_ADMIN_PASSWORD ? { email: env.SEED_ADMIN_EMAIL, password: env.SEED_ADMIN_PASSWORD } : undefined,
    googleClientId: env.GOOGLE_CLIENT_ID,
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
  };
}

function parseTrustProxy(value: string | undefined): boolean | string[] {
  if (value === undefined || value === 'false') return false;
  if (value === 'true') return true;
  return value.split(',').map((part) => part.trim()).filter(Boolean);
}

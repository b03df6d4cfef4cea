import { networkInterfaces } from 'node:os';
import { resolve } from 'node:path';
import { z } from 'zod';
import { KURRENTDB_NAMESPACE } from '../engine/eventstore/kurrentdb/stream-names';
import type { MediaStorageSettings } from './media/storage-port';
import { DEFAULT_MAIL_FROM, type MailSettings } from './mail/transport';
import { DEFAULT_READY_MAX_LAG_EVENTS } from './observability/read-model-lag';
import { DEFAULT_AFTER_SALE_SETTINGS, parseShippingRates, type AfterSaleSettings } from './orders/settings';
import { parseBankAccountDetails } from './payments/bank-transfer';
import { DEFAULT_RATE_LIMITS, parseRateLimit, type RateLimits } from './http/rate-limit-settings';

/** A general request limit, "30/hour" (api/http/rate-limits.ts). */
const rateLimitSetting = z
  .string()
  .refine((text) => parseRateLimit(text) !== undefined, 'must be a count per period, e.g. 30/hour, 60/minute or 100/10 minutes')
  .transform((text) => parseRateLimit(text)!)
  .optional();

/**
 * Settings come from the environment (README, "Configuration"). Every one is optional: without
 * any, the product runs embedded, with PGlite and local files under DATA_DIR.
 */
const environmentSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65_535).default(3000),
  /** This machine only unless told otherwise: the embedded demo's admin password is printed at start. Containers set 0.0.0.0. */
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/ }).optional(),
  EVENTSTORE_URL: z.string().regex(/^(kurrentdb|esdb|kdb)(\+discover)?:\/\//, 'must be a kurrentdb:// or esdb:// connection string').optional(),
  /** Several deployments on one KurrentDB: each keeps to streams named `<namespace>.…`. */
  EVENTSTORE_NAMESPACE: z.string().regex(KURRENTDB_NAMESPACE, "must be 1 to 64 letters, digits, '-' or '_'").optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  JWT_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  /** The Ed25519 key (PKCS #8 PEM; \n for line breaks) that signs checkpoints and receipts; absent: made once under DATA_DIR. */
  SIGNING_KEY: z.string().includes('PRIVATE KEY', { message: 'must be a PKCS #8 PEM private key' }).optional(),
  SEED_ADMIN_EMAIL: z.email().optional(),
  SEED_ADMIN_PASSWORD: z.string().min(8).optional(),
  GOOGLE_CLIENT_ID: z.string().min(1).optional(),
  /** Behind a reverse proxy: 'true' (trust it) or a comma-separated list of its addresses/CIDRs. */
  TRUST_PROXY: z.string().min(1).optional(),
  /** Where media bytes live: local files under DATA_DIR, or an S3-compatible bucket. */
  MEDIA_STORAGE: z.enum(['local', 's3']).default('local'),
  /** Where the public fetches media (a CDN, the bucket's public address); absent: the API's /media. */
  MEDIA_PUBLIC_BASE_URL: z.url({ protocol: /^https?$/ }).optional(),
  S3_BUCKET: z.string().min(3).max(63).optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_ENDPOINT: z.url({ protocol: /^https?$/ }).optional(),
  /** The S3 address clients upload to, when it is not the one the API reaches (MinIO behind Docker's network). */
  S3_PUBLIC_ENDPOINT: z.url({ protocol: /^https?$/ }).optional(),
  S3_FORCE_PATH_STYLE: z.enum(['true', 'false']).optional(),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  RATE_LIMIT_REGISTER: rateLimitSetting,
  RATE_LIMIT_SIGN_IN: rateLimitSetting,
  RATE_LIMIT_BIDS: rateLimitSetting,
  RATE_LIMIT_UPLOADS: rateLimitSetting,
  RATE_LIMIT_BULK_IMPORT: rateLimitSetting,
  RATE_LIMIT_ACCOUNT_MAIL: rateLimitSetting,
  /**
   * Where the other API processes on this database reach this one, e.g. http://api-1:3000; 'auto':
   * http://<this host's first non-loopback IPv4 address>:<PORT> (a container's own address).
   */
  INSTANCE_URL: z.union([z.literal('auto'), z.url({ protocol: /^https?$/ })]).optional(),
  /** The mail server, e.g. smtp://mail:1025 or smtps://user:password@smtp.example.com:465; absent: .eml files under DATA_DIR/mail. */
  SMTP_URL: z.url({ protocol: /^smtps?$/ }).optional(),
  MAIL_FROM: z.string().min(3).max(300).default(DEFAULT_MAIL_FROM),
  /** The address users reach the product at, for the links in mail; absent: the address it listens on. */
  PUBLIC_URL: z.url({ protocol: /^https?$/ }).optional(),
  /** off: this process makes no notices (another process on the database does). */
  NOTIFIER: z.enum(['on', 'off']).default('on'),
  /** The flat shipping charge per category, in dollars: "CLOTHING=25,EQUIPMENT=45,FOOTWEAR=30,ACCESSORIES=15"; categories not named keep their default. */
  SHIPPING_RATES: z
    .string()
    .refine((text) => parseShippingRates(text) !== undefined, 'must be CATEGORY=dollars pairs, e.g. CLOTHING=25,EQUIPMENT=45 (categories: CLOTHING, EQUIPMENT, FOOTWEAR, ACCESSORIES)')
    .transform((text) => parseShippingRates(text)!)
    .optional(),
  /** The account buyers wire to, as label=value pairs: "Beneficiary=Provenance Auctions LLC;Bank=First Bank;Account number=123456". */
  BANK_TRANSFER_DETAILS: z
    .string()
    .refine((text) => parseBankAccountDetails(text) !== undefined, 'must be label=value pairs separated by ";", e.g. Beneficiary=Provenance Auctions LLC;Account number=123456')
    .transform((text) => parseBankAccountDetails(text)!)
    .optional(),
  /** GET /ready fails while more events than this wait in the log for the read models. */
  READY_MAX_LAG_EVENTS: z.coerce.number().int().min(0).max(100_000).default(DEFAULT_READY_MAX_LAG_EVENTS),
});

export interface Config {
  readonly port: number;
  readonly host: string;
  /** Absolute. */
  readonly dataDir: string;
  readonly databaseUrl: string | undefined;
  readonly eventStoreUrl: string | undefined;
  /** The KurrentDB streams of this deployment are named `<namespace>.…` (undefined: as they are). */
  readonly eventStoreNamespace: string | undefined;
  readonly logLevel: string;
  /** Undefined: generated once and kept under DATA_DIR. */
  readonly jwtSecret: string | undefined;
  /** The Ed25519 signing key, PEM; undefined: generated once and kept under DATA_DIR. */
  readonly signingKey: string | undefined;
  readonly seedAdmin: { email: string; password: string } | undefined;
  /** Google sign-in is offered only when configured. */
  readonly googleClientId: string | undefined;
  /** Fastify's trustProxy: client addresses (rate limits) come from X-Forwarded-For only when set. */
  readonly trustProxy: boolean | string[];
  readonly media: MediaStorageSettings;
  /** Per client address (sign-ups, sign-ins) or per account (bids, uploads, bulk imports). */
  readonly rateLimits: RateLimits;
  /** How many events the read models may be behind the log before GET /ready says not ready. */
  readonly readyMaxLagEvents: number;
  /** Where the other API processes reach this one (INSTANCE_URL); absent: no forwarding. */
  readonly instanceUrl: string | undefined;
  /** SMTP_URL and MAIL_FROM. */
  readonly mail: MailSettings;
  /** Where the links in mail lead (PUBLIC_URL); absent: the address the API listens on. */
  readonly publicUrl: string | undefined;
  /** Whether this process makes notices from the log (NOTIFIER). */
  readonly notifier: boolean;
  /** SHIPPING_RATES and BANK_TRANSFER_DETAILS (and whether the latter was set, or the demo account stands in). */
  readonly afterSale: AfterSaleSettings & { readonly bankAccountConfigured: boolean };
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
  if (Boolean(env.S3_ACCESS_KEY_ID) !== Boolean(env.S3_SECRET_ACCESS_KEY)) {
    throw new ConfigError('Invalid configuration:\n  S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together');
  }
  if (env.INSTANCE_URL && !env.DATABASE_URL) {
    throw new ConfigError('Invalid configuration:\n  INSTANCE_URL is for several processes sharing one database: it needs DATABASE_URL');
  }
  if (env.EVENTSTORE_NAMESPACE && !env.EVENTSTORE_URL) {
    throw new ConfigError('Invalid configuration:\n  EVENTSTORE_NAMESPACE needs EVENTSTORE_URL (the KurrentDB whose streams it names)');
  }
  if (env.MEDIA_STORAGE === 's3' && !env.S3_BUCKET) {
    throw new ConfigError('Invalid configuration:\n  MEDIA_STORAGE=s3 needs S3_BUCKET (the bucket media are stored in)');
  }
  return {
    port: env.PORT,
    host: env.HOST,
    dataDir: resolve(env.DATA_DIR),
    databaseUrl: env.DATABASE_URL,
    eventStoreUrl: env.EVENTSTORE_URL,
    eventStoreNamespace: env.EVENTSTORE_NAMESPACE,
    logLevel: env.LOG_LEVEL,
    jwtSecret: env.JWT_SECRET,
    signingKey: env.SIGNING_KEY,
    seedAdmin: env.SEED_ADMIN_EMAIL && env.SEED_ADMIN_PASSWORD ? { email: env.SEED_ADMIN_EMAIL, password: env.SEED_ADMIN_PASSWORD } : undefined,
    googleClientId: env.GOOGLE_CLIENT_ID,
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    media: mediaSettings(env),
    rateLimits: {
      register: env.RATE_LIMIT_REGISTER ?? DEFAULT_RATE_LIMITS.register,
      signIn: env.RATE_LIMIT_SIGN_IN ?? DEFAULT_RATE_LIMITS.signIn,
      bids: env.RATE_LIMIT_BIDS ?? DEFAULT_RATE_LIMITS.bids,
      uploads: env.RATE_LIMIT_UPLOADS ?? DEFAULT_RATE_LIMITS.uploads,
      bulkImport: env.RATE_LIMIT_BULK_IMPORT ?? DEFAULT_RATE_LIMITS.bulkImport,
      accountMail: env.RATE_LIMIT_ACCOUNT_MAIL ?? DEFAULT_RATE_LIMITS.accountMail,
    },
    readyMaxLagEvents: env.READY_MAX_LAG_EVENTS,
    // On the embedded default (this machine only), the log shows mailed links whole: the newcomer's way to a reset link.
    mail: { smtpUrl: env.SMTP_URL, from: env.MAIL_FROM, logWholeLinks: !env.DATABASE_URL },
    notifier: env.NOTIFIER === 'on',
    afterSale: {
      shippingRates: env.SHIPPING_RATES ?? DEFAULT_AFTER_SALE_SETTINGS.shippingRates,
      bankAccount: env.BANK_TRANSFER_DETAILS ?? DEFAULT_AFTER_SALE_SETTINGS.bankAccount,
      bankAccountConfigured: env.BANK_TRANSFER_DETAILS !== undefined,
    },
    publicUrl: env.PUBLIC_URL?.replace(/\/+$/, ''),
    instanceUrl: env.INSTANCE_URL === 'auto' ? `http://${ownAddress()}:${env.PORT}` : env.INSTANCE_URL?.replace(/\/$/, ''),
  };
}

/** This host's first non-loopback IPv4 address: what the other containers on its network reach it at. */
function ownAddress(): string {
  const address = Object.values(networkInterfaces())
    .flat()
    .find((candidate) => candidate?.family === 'IPv4' && !candidate.internal);
  if (!address) throw new ConfigError('Invalid configuration:\n  INSTANCE_URL=auto, but this host has no network address besides loopback');
  return address.address;
}

function mediaSettings(env: z.infer<typeof environmentSchema>): MediaStorageSettings {
  if (env.MEDIA_STORAGE === 'local' || !env.S3_BUCKET) return { kind: 'local', publicBaseUrl: env.MEDIA_PUBLIC_BASE_URL };
  return {
    kind: 's3',
    publicBaseUrl: env.MEDIA_PUBLIC_BASE_URL,
    s3: {
      bucket: env.S3_BUCKET,
      region: env.S3_REGION,
      endpoint: env.S3_ENDPOINT,
      publicEndpoint: env.S3_PUBLIC_ENDPOINT,
      // S3-compatible servers (MinIO) address buckets by path unless set up with their own domain.
      forcePathStyle: env.S3_FORCE_PATH_STYLE === undefined ? env.S3_ENDPOINT !== undefined : env.S3_FORCE_PATH_STYLE === 'true',
      credentials: env.S3_ACCESS_KEY_ID && env.S3_SECRET_ACCESS_KEY ? { accessKeyId: env.S3_ACCESS_KEY_ID, secretAccessKey: env.S3_SECRET_ACCESS_KEY } : undefined,
    },
  };
}

function parseTrustProxy(value: string | undefined): boolean | string[] {
  if (value === undefined || value === 'false') return false;
  if (value === 'true') return true;
  return value.split(',').map((part) => part.trim()).filter(Boolean);
}

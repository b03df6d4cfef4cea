/**
 * The general request limits as settings (RATE_LIMIT_* in README's configuration table): kept
 * apart from the plugin (rate-limits.ts) so that reading the configuration loads no server code.
 */

/** The actions held to a general limit; each has its own counter per client. */
export type RateLimitedAction = 'register' | 'signIn' | 'bids' | 'uploads' | 'bulkImport' | 'accountMail';

export interface RateLimit {
  /** Requests allowed in one window... */
  readonly max: number;
  /** ...of this many milliseconds, counted from the client's first request in it. */
  readonly windowMs: number;
}

export type RateLimits = Readonly<Record<RateLimitedAction, RateLimit>>;

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** README's configuration table states these (RATE_LIMIT_*). */
export const DEFAULT_RATE_LIMITS: RateLimits = {
  register: { max: 30, windowMs: HOUR },
  signIn: { max: 30, windowMs: MINUTE },
  bids: { max: 60, windowMs: MINUTE },
  uploads: { max: 60, windowMs: MINUTE },
  bulkImport: { max: 10, windowMs: MINUTE },
  // Password resets and verification links: each asks for a mail or tries a mailed token.
  accountMail: { max: 20, windowMs: HOUR },
};

const UNITS: ReadonlyArray<[RegExp, number, string]> = [
  [/^(s|sec|seconds?)$/, SECOND, 'second'],
  [/^(m|min|minutes?)$/, MINUTE, 'minute'],
  [/^(h|hours?)$/, HOUR, 'hour'],
];

/** "30/hour", "60/minute", "100/10 minutes": a count of at least 1 per a period of whole units. */
export function parseRateLimit(text: string): RateLimit | undefined {
  const match = /^\s*(\d+)\s*\/\s*(\d*)\s*([a-z]+)\s*$/i.exec(text);
  if (!match) return undefined;
  const [, max, count, unitName] = match;
  const unit = UNITS.find(([pattern]) => pattern.test(unitName!.toLowerCase()));
  const units = count ? Number(count) : 1;
  if (!unit || Number(max) < 1 || units < 1) return undefined;
  return { max: Number(max), windowMs: units * unit[1] };
}

/** "hour", "10 minutes": the window as a refusal names it. */
export function describeWindow(windowMs: number): string {
  const [, size, name] = [...UNITS].reverse().find(([, size]) => windowMs % size === 0) ?? UNITS[0]!;
  const units = windowMs / size;
  return units === 1 ? name : `${units} ${name}s`;
}

/** Every action at one limit: for load tests and test suites, which make many calls from one address. */
export function sameLimitForAll(limit: RateLimit): RateLimits {
  return Object.fromEntries(Object.keys(DEFAULT_RATE_LIMITS).map((action) => [action, limit])) as Record<RateLimitedAction, RateLimit>;
}

import rateLimit, { normalizeIP } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { HttpError } from './errors';
import { describeWindow, type RateLimit, type RateLimitedAction, type RateLimits } from './rate-limit-settings';

/** What a refusal calls the requests it counted. */
const COUNTED: Record<RateLimitedAction, string> = {
  register: 'sign-ups from this address',
  signIn: 'sign-in attempts from this address',
  bids: 'bids',
  uploads: 'upload requests',
  bulkImport: 'bulk imports',
  accountMail: 'password reset and email verification requests',
};

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * A hook counting the request against the action's limit; past it, 429 RATE_LIMITED with
     * Retry-After. Signed-in requests count per account (put it after authentication), others per
     * client address (request.ip: the proxy's own unless TRUST_PROXY names it).
     */
    limitRate(action: RateLimitedAction): preHandlerAsyncHookHandler;
  }
}

/**
 * General request limits (@fastify/rate-limit) on the actions worth abusing: sign-ups, sign-ins,
 * bids, uploads and bulk imports. Counts live in memory, per process, as the sign-in throttle's do
 * (api/accounts/login-throttle.ts, which still counts failed sign-ins on its own).
 */
export const rateLimiting = fp(
  async (app: FastifyInstance, options: { limits: RateLimits }) => {
    await app.register(rateLimit, { global: false });
    // One hook per action, so that the routes of one action (bids and buy-now) share its counter.
    const hooks = new Map<RateLimitedAction, preHandlerAsyncHookHandler>();
    for (const [action, limit] of Object.entries(options.limits) as [RateLimitedAction, RateLimit][]) {
      const window = describeWindow(limit.windowMs);
      hooks.set(
        action,
        app.rateLimit({
          max: limit.max,
          timeWindow: limit.windowMs,
          keyGenerator: clientKey,
          errorResponseBuilder: (_request, context) =>
            new HttpError(429, `Too many ${COUNTED[action]}: at most ${limit.max} per ${window}. Try again in ${context.after}.`, 'RATE_LIMITED'),
        }),
      );
    }
    app.decorate('limitRate', (action: RateLimitedAction) => hooks.get(action)!);
  },
  { name: 'rate-limiting', dependencies: ['authentication'] },
);

/** The account when signed in (one address may hold many bidders: a venue's Wi-Fi), else the address. */
function clientKey(request: FastifyRequest): string {
  if (request.actor) return `user ${request.actor.userId}`;
  // An IPv6 client usually holds a whole /64: counted as one address.
  return `address ${normalizeIP(request.ip, 64)}`;
}

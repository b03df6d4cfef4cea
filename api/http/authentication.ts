import fastifyJwt from '@fastify/jwt';
import type { FastifyInstance, FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import type { Actor } from '../../engine/domain';
import type { SqlClient } from '../../engine/postgres/sql-client';
import { AccountAccessCache } from '../accounts/account-access';
import type { AccessClaims, SignAccessToken } from '../accounts/sessions';
import type { Role } from '../accounts/schema';
import type { Database } from '../database';
import { HttpError } from './errors';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user, set by `authenticate`. */
    actor: Actor | null;
  }
  interface FastifyInstance {
    /** preHandler: 401 unless a valid, current access token is presented. */
    authenticate: preHandlerAsyncHookHandler;
    /** preHandler: `authenticate`, then 403 "Access denied" without one of the roles. */
    requireRole(...roles: Role[]): preHandlerAsyncHookHandler;
    signAccessToken: SignAccessToken;
    /** A bearer token presented elsewhere than in a header (a WebSocket message): its user, or null. */
    verifyAccessToken(token: string): Promise<{ userId: string; expiresAt: Date; isCurrent(): Promise<boolean> } | null>;
    /** What `authenticate` knows of each account; the code that changes an account tells it. */
    accountAccess: AccountAccessCache;
  }
}

declare module '@fastify/jwt' {
  interface FastifyJWT {
    payload: AccessClaims;
  }
}

/** Tokens whose signature and claims were checked, kept by fast-jwt (a hash of each token, its claims). */
const VERIFIED_TOKENS_CACHED = 10_000;

/** RFC 6750's credentials: the scheme in any case, one or more spaces, the token. */
const BEARER = /^Bearer +(\S+)$/i;

/** The bearer token an Authorization header presents, if it presents one. */
export function bearerTokenOf(authorization: string | undefined): string | undefined {
  return BEARER.exec(authorization ?? '')?.[1];
}

/**
 * Bearer access tokens: HS256 only (the algorithm is pinned both ways), subject = user id, roles,
 * expiry. Each request also checks the account: disabled accounts and tokens issued before the
 * last password change (or any other end of all sessions) are refused, and roles come from the
 * account, so a role change applies at once. The account is read from memory, not the database
 * (AccountAccessCache says how changes reach it).
 */
export const authentication = fp(
  async (app: FastifyInstance, options: { secret: string; db: Kysely<Database>; sql: SqlClient }) => {
    await app.register(fastifyJwt, {
      secret: options.secret,
      sign: { algorithm: 'HS256' },
      // fast-jwt's cache of verified tokens (LRU, each entry kept no longer than its token's expiry): a
      // bidder's every request presents the same token, and checking it again cost some 8 µs a request.
      verify: { algorithms: ['HS256'], cache: VERIFIED_TOKENS_CACHED },
    });
    app.decorateRequest('actor', null);
    const accountAccess = AccountAccessCache.reading(options.db);
    await accountAccess.listen(options.sql).catch((error: unknown) => {
      // Not fatal: without the notifications, changes made elsewhere still apply within the cache's TTL.
      app.log.warn({ err: error }, 'not told of account changes made by other processes');
    });
    app.addHook('onClose', () => accountAccess.close());
    app.decorate('accountAccess', accountAccess);
    app.decorate('signAccessToken', ((claims, expiresInSeconds) => app.jwt.sign(claims, { expiresIn: expiresInSeconds })) satisfies SignAccessToken);

    /** The account behind valid claims, if it may still act: active, and the token not older than its sessions' end. */
    const currentAccount = async (claims: AccessClaims) => {
      const user = await accountAccess.lookup(claims.sub);
      return user && user.status === 'ACTIVE' && claims.sv === user.session_version ? user : undefined;
    };
    app.decorate('verifyAccessToken', async (token: string) => {
      let claims: AccessClaims & { exp: number };
      try {
        claims = app.jwt.verify<AccessClaims & { exp: number }>(token);
      } catch {
        return null;
      }
      const user = await currentAccount(claims);
      if (!user) return null;
      return { userId: user.id, expiresAt: new Date(claims.exp * 1000), isCurrent: async () => (await currentAccount(claims)) !== undefined };
    });

    const authenticate = async (request: FastifyRequest, _reply: FastifyReply) => {
      const token = bearerTokenOf(request.headers.authorization);
      if (token === undefined) throw new HttpError(401, 'Authentication required', 'UNAUTHENTICATED');
      let claims: AccessClaims;
      try {
        claims = app.jwt.verify<AccessClaims>(token);
      } catch {
        throw new HttpError(401, 'Invalid access token', 'INVALID_TOKEN');
      }
      const user = await currentAccount(claims);
      if (!user) throw new HttpError(401, 'Invalid access token', 'INVALID_TOKEN');
      request.actor = { userId: user.id, roles: user.roles };
    };
    app.decorate('authenticate', authenticate);
    app.decorate('requireRole', (...roles: Role[]) => async (request: FastifyRequest, reply: FastifyReply) => {
      await authenticate(request, reply);
      if (!roles.some((role) => request.actor!.roles.includes(role))) throw new HttpError(403, 'Access denied', 'FORBIDDEN');
    });
  },
  { name: 'authentication' },
);

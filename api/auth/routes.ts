import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { LoginThrottle } from '../accounts/login-throttle';
import { burnVerification, verifyPassword } from '../accounts/passwords';
import { endAllSessions, endSession, InvalidRefreshTokenError, rotateSession, startSession } from '../accounts/sessions';
import { sendVerificationMail } from '../accounts/recovery';
import { createUser, EmailTakenError, findUserByEmail, normalizeEmail, type User } from '../accounts/users';
import type { AppDependencies } from '../dependencies';
import { HttpError } from '../http/errors';
import { loginRequestSchema, refreshRequestSchema, registerRequestSchema, sessionTokensSchema, type Role } from '../contracts/accounts';
import { passwordProblem } from '../contracts/account-rules';
import { errorResponses } from '../contracts/common';
import { invalid, requiredEmail, requiredName, requiredText } from './field-checks';

const INVALID_CREDENTIALS = 'Invalid email or password';
const REGISTRATION_FAILED = 'Registration failed. Please try again.';
const NOT_AN_ADMIN = 'This account does not have admin access';
/** Who signs in at /admin/login: admins to the admin area, auditors to the audit area. */
const STAFF_ROLES: Role[] = ['ADMIN', 'AUDITOR'];

/** An unknown email costs a verification too, so the answer's timing does not tell which it was. */
async function passwordMatches(user: User | undefined, password: string): Promise<boolean> {
  if (!user) {
    await burnVerification(password);
    return false;
  }
  return verifyPassword(user.password_hash, password);
}

/**
 * Registration, sign-in, refresh and sign-out (/api/auth/...), and the admin area's sign-in and
 * sign-out beside them, so that both sign-ins share one throttle. Answers carry the spec's session
 * shape {accessToken, refreshToken, expiresIn}; refresh tokens rotate on every use.
 */
export const authRoutes: FastifyPluginAsyncZod<{ deps: AppDependencies }> = async (app, { deps }) => {
  const { db } = deps;
  // One per API process: see login-throttle.ts for what that means with several processes. It keys
  // on request.ip, the connecting socket's address: behind a reverse proxy that is the proxy's
  // unless Fastify's trustProxy is set to it.
  const throttle = new LoginThrottle();

  app.post(
    '/api/auth/register',
    {
      onRequest: app.limitRate('register'),
      schema: {
        tags: ['auth'],
        summary: 'Create a buyer account and sign in',
        description: 'Always creates a BUYER account, whatever `role` says, and mails a link to confirm the address. Answers 201 with a new session; 429 with Retry-After past the sign-ups allowed from one address (RATE_LIMIT_REGISTER).',
        body: registerRequestSchema,
        response: { 201: sessionTokensSchema, ...errorResponses(400, 409, 429, 500) },
      },
    },
    async (request, reply) => {
      const body = request.body;
      const firstName = requiredName(body.firstName, 'First name');
      const lastName = requiredName(body.lastName, 'Last name');
      const email = requiredEmail(body.email);
      const problem = passwordProblem(body.password ?? '');
      if (problem) throw invalid(problem);
      try {
        const user = await createUser(db, { firstName, lastName, email, password: body.password!, roles: ['BUYER'] }, deps.clock());
        const tokens = await startSession(db, app.signAccessToken, user, deps.clock());
        // The account stands without it: a link that could not be queued is asked for again from the profile.
        await sendVerificationMail(db, deps.links, user, deps.clock()).catch((error: unknown) => request.log.error({ err: error }, 'registration: could not queue the confirmation link'));
        return reply.code(201).send(tokens);
      } catch (error) {
        if (error instanceof EmailTakenError) throw new HttpError(409, error.message, 'EMAIL_TAKEN');
        // The spec's words for any server failure; the cause stays in the log.
        request.log.error({ err: error }, 'registration failed');
        throw new HttpError(500, REGISTRATION_FAILED, 'REGISTRATION_FAILED');
      }
    },
  );

  app.post(
    '/api/auth/login',
    {
      onRequest: app.limitRate('signIn'),
      schema: {
        tags: ['auth'],
        summary: 'Sign in with email and password',
        description: `Any failure answers 401 "${INVALID_CREDENTIALS}". Repeated failures, or more attempts from one address than RATE_LIMIT_SIGN_IN allows, answer 429 with Retry-After.`,
        body: loginRequestSchema,
        response: { 200: sessionTokensSchema, ...errorResponses(400, 401, 429) },
      },
    },
    async (request, reply) => {
      const user = await verifiedUser(request, reply);
      return reply.send(await startSession(db, app.signAccessToken, user, deps.clock()));
    },
  );

  app.post(
    '/api/admin/auth/login',
    {
      onRequest: app.limitRate('signIn'),
      schema: {
        tags: ['admin'],
        summary: 'Sign in to the admin area (admins) or the audit area (auditors)',
        description:
          `As /api/auth/login, and the account must hold the ADMIN or AUDITOR role: otherwise 403 "${NOT_AN_ADMIN}". ` +
          'Shares the sign-in throttle with /api/auth/login.',
        body: loginRequestSchema,
        response: { 200: sessionTokensSchema, ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request, reply) => {
      const user = await verifiedUser(request, reply);
      if (!user.roles.some((role) => STAFF_ROLES.includes(role))) throw new HttpError(403, NOT_AN_ADMIN, 'NOT_AN_ADMIN');
      return reply.send(await startSession(db, app.signAccessToken, user, deps.clock()));
    },
  );

  app.post(
    '/api/admin/auth/logout',
    {
      onRequest: app.requireRole(...STAFF_ROLES),
      schema: {
        tags: ['admin'],
        summary: 'Sign out of the admin or audit area',
        description:
          'With a refreshToken: ends that session. Without one: ends every session of this account, access tokens included ' +
          '(someone signing out of a shared machine should not leave a session behind).',
        security: [{ bearer: [] }],
        body: z.strictObject({ refreshToken: z.string().min(1).max(512).optional() }).nullish(),
        response: { 204: z.null().describe('Signed out'), ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) => {
      const refreshToken = request.body?.refreshToken;
      if (refreshToken === undefined) await endAllSessions(db, app.accountAccess, request.actor!.userId, deps.clock());
      else await endSession(db, refreshToken, deps.clock(), request.actor!.userId);
      return reply.code(204).send(null);
    },
  );

  /** Email and password checked under the throttle; the account, or 400/401/429 with the spec's words. */
  async function verifiedUser(request: FastifyRequest<{ Body: z.infer<typeof loginRequestSchema> }>, reply: FastifyReply): Promise<User> {
    const email = normalizeEmail(requiredText(request.body.email, 'Email is required'));
    requiredText(request.body.password, 'Password is required');
    const password = request.body.password;
    const now = deps.clock();
    const verdict = throttle.check(email, request.ip, now);
    if (!verdict.allowed) {
      reply.header('retry-after', String(verdict.retryAfterSeconds));
      throw new HttpError(429, 'Too many sign-in attempts. Please try again later.', 'TOO_MANY_ATTEMPTS');
    }
    const user = await findUserByEmail(db, email);
    const matches = await passwordMatches(user, password);
    // A disabled account answers exactly as a wrong password does.
    if (!user || !matches || user.status !== 'ACTIVE') {
      throttle.recordFailure(email, request.ip, now);
      throw new HttpError(401, INVALID_CREDENTIALS, 'INVALID_CREDENTIALS');
    }
    throttle.recordSuccess(email, request.ip);
    return user;
  }

  app.post(
    '/api/auth/refresh',
    {
      schema: {
        tags: ['auth'],
        summary: 'Trade a refresh token for a new session',
        description: 'Each refresh token works once. Presenting one already used ends every session descended from the same sign-in.',
        body: refreshRequestSchema,
        response: { 200: sessionTokensSchema, ...errorResponses(400, 401) },
      },
    },
    async (request, reply) => {
      try {
        return reply.send(await rotateSession(db, app.signAccessToken, request.body.refreshToken, deps.clock()));
      } catch (error) {
        if (error instanceof InvalidRefreshTokenError) throw new HttpError(401, 'Invalid refresh token', 'INVALID_REFRESH_TOKEN');
        throw error;
      }
    },
  );

  app.post(
    '/api/auth/logout',
    {
      schema: {
        tags: ['auth'],
        summary: 'Sign out: end the session the refresh token belongs to',
        description: 'Answers 204 whether or not the token is known: signing out always succeeds for the client.',
        body: refreshRequestSchema,
        response: { 204: z.null().describe('Signed out'), ...errorResponses(400) },
      },
    },
    async (request, reply) => {
      await endSession(db, request.body.refreshToken, deps.clock());
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/api/auth/google',
    {
      schema: {
        tags: ['auth'],
        summary: 'Sign in with a Google ID token (not available)',
        description: 'Answers 501: verifying Google ID tokens is not implemented, and no sign-in is ever faked.',
        body: z.strictObject({ credential: z.string().min(1).max(8192).describe('Google ID token') }),
        response: { ...errorResponses(400, 501) },
      },
    },
    async () => {
      const message = deps.googleClientId ? 'Google sign-in is not available yet' : 'Google sign-in is not configured';
      throw new HttpError(501, message, 'GOOGLE_SIGN_IN_UNAVAILABLE');
    },
  );
};

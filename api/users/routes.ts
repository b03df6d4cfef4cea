import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { LoginThrottle } from '../accounts/login-throttle';
import { verifyPassword } from '../accounts/passwords';
import { pendingEmailOf } from '../accounts/account-tokens';
import { requestEmailChange, tellOfPasswordChange } from '../accounts/recovery';
import { changePassword, EmailTakenError, findUserById, normalizeEmail, updateProfile, type User } from '../accounts/users';
import { invalid, requiredEmail, requiredName, requiredText } from '../auth/field-checks';
import { emailChangeRequestSchema, messageAnswerSchema, passwordChangeRequestSchema, profileChangeRequestSchema, userProfileSchema } from '../contracts/accounts';
import { passwordProblem } from '../contracts/account-rules';
import { errorResponses } from '../contracts/common';
import type { AppDependencies } from '../dependencies';
import { HttpError } from '../http/errors';
import { phoneProblem, toProfile } from './profile';

const PASSWORD_CHANGED = 'Password updated successfully. You will be logged out shortly.';

const userParams = z.strictObject({ userId: z.string().min(1).max(100) });

// Emails and passwords never travel in the URL (it is logged, and kept by proxies and browsers):
// a query string is refused rather than quietly ignored, so a client sending one finds out.
const noQueryString = z.strictObject({});

const errors = errorResponses(400, 401, 403, 404);

/**
 * A user's own profile, email and password (/api/v1/users/{userId}/...). Each route is open to that
 * user and to admins; anyone else gets 403 "Access denied" whether or not the id exists, so the
 * answers do not tell a buyer which ids are accounts.
 */
export const userRoutes: FastifyPluginAsyncZod<{ deps: AppDependencies }> = async (app, { deps }) => {
  const { db } = deps;
  // Guesses at the current password through a stolen access token are throttled like sign-ins.
  const currentPasswordThrottle = new LoginThrottle();

  const selfOrAdmin = async (request: FastifyRequest, _reply: FastifyReply) => {
    const { userId } = request.params as { userId?: string };
    const actor = request.actor!;
    if (actor.userId !== userId && !actor.roles.includes('ADMIN')) throw new HttpError(403, 'Access denied', 'FORBIDDEN');
  };
  // Checked on request, before the body is read or validated: strangers learn nothing from the answers.
  const onRequest = [app.authenticate, selfOrAdmin];

  async function requireUser(userId: string): Promise<User> {
    const user = await findUserById(db, userId);
    if (!user) throw new HttpError(404, 'User not found', 'USER_NOT_FOUND');
    return user;
  }

  const profileOf = async (user: User) => toProfile(user, await pendingEmailOf(db, user.id, deps.clock()));

  app.get(
    '/api/v1/users/:userId/profile',
    {
      onRequest,
      schema: {
        tags: ['users'],
        summary: "A user's profile (that user or an admin)",
        security: [{ bearer: [] }],
        params: userParams,
        response: { 200: userProfileSchema, ...errors },
      },
    },
    async (request) => profileOf(await requireUser(request.params.userId)),
  );

  app.put(
    '/api/v1/users/:userId/profile',
    {
      onRequest,
      schema: {
        tags: ['users'],
        summary: 'Change first name, last name, phone and mail preferences',
        description: 'transactionalOptOut stops OUTBID and ENDING_SOON mail (the notices stay in the app); account mail is always sent. Absent preferences stay as they are.',
        security: [{ bearer: [] }],
        params: userParams,
        body: profileChangeRequestSchema,
        response: { 200: userProfileSchema, ...errors },
      },
    },
    async (request) => {
      const firstName = requiredName(request.body.firstName, 'First name');
      const lastName = requiredName(request.body.lastName, 'Last name');
      const phone = request.body.phone?.trim() || null;
      const problem = phone === null ? null : phoneProblem(phone);
      if (problem) throw invalid(problem);
      const { marketingOptIn, transactionalOptOut } = request.body;
      const updated = await updateProfile(db, request.params.userId, { firstName, lastName, phone, marketingOptIn, transactionalOptOut }, deps.clock());
      if (!updated) throw new HttpError(404, 'User not found', 'USER_NOT_FOUND');
      return profileOf(updated);
    },
  );

  app.put(
    '/api/v1/users/:userId/email',
    {
      onRequest,
      // Each asks for a mail: held to the account mail limit.
      preHandler: app.limitRate('accountMail'),
      schema: {
        tags: ['users'],
        summary: "Ask to change a user's email: it changes once the link mailed to the new address is followed",
        description:
          'The new email goes in the JSON body; a query string is refused. Answers 202 with the profile, whose pendingEmail is the new address; ' +
          'the change applies when the link mailed there is followed (POST /api/auth/email/verify), and the old address is then told.',
        security: [{ bearer: [] }],
        params: userParams,
        querystring: noQueryString,
        body: emailChangeRequestSchema,
        response: { 202: userProfileSchema, ...errors, ...errorResponses(409, 429) },
      },
    },
    async (request, reply) => {
      const newEmail = requiredEmail(requiredText(request.body.newEmail, 'New email is required'));
      const user = await requireUser(request.params.userId);
      if (normalizeEmail(newEmail) === normalizeEmail(user.email)) throw invalid('New email must be different from current email');
      try {
        await requestEmailChange(db, deps.links, { user, newEmail, actorId: request.actor!.userId }, deps.clock());
      } catch (error) {
        if (error instanceof EmailTakenError) throw new HttpError(409, error.message, 'EMAIL_TAKEN');
        throw error;
      }
      return reply.code(202).send(await profileOf(user));
    },
  );

  app.put(
    '/api/v1/users/:userId/password',
    {
      onRequest,
      schema: {
        tags: ['users'],
        summary: "Change a user's password; ends all of that user's sessions",
        description:
          "Both passwords go in the JSON body; a query string is refused. The current password is the account's own, " +
          'also when an admin makes the change (there is no reset without it). Every session of the account ends.',
        security: [{ bearer: [] }],
        params: userParams,
        querystring: noQueryString,
        body: passwordChangeRequestSchema,
        response: { 200: messageAnswerSchema, ...errors, ...errorResponses(429) },
      },
    },
    async (request, reply) => {
      const currentPassword = request.body.currentPassword ?? '';
      if (currentPassword.length === 0) throw invalid('Current password is required');
      const newPassword = request.body.newPassword ?? '';
      // The spec's change-password wording for length, then the full rules as on registration.
      if (newPassword.length < 8) throw invalid('Password must be at least 8 characters long');
      const problem = passwordProblem(newPassword);
      if (problem) throw invalid(problem);

      const user = await requireUser(request.params.userId);
      const now = deps.clock();
      const verdict = currentPasswordThrottle.check(user.id, request.ip, now);
      if (!verdict.allowed) {
        reply.header('retry-after', String(verdict.retryAfterSeconds));
        throw new HttpError(429, 'Too many attempts. Please try again later.', 'TOO_MANY_ATTEMPTS');
      }
      if (!(await verifyPassword(user.password_hash, currentPassword))) {
        currentPasswordThrottle.recordFailure(user.id, request.ip, now);
        throw new HttpError(403, 'Current password is incorrect', 'CURRENT_PASSWORD_INCORRECT');
      }
      currentPasswordThrottle.recordSuccess(user.id, request.ip);
      await changePassword(db, app.accountAccess, { userId: user.id, newPassword, actorId: request.actor!.userId }, now, (trx) => tellOfPasswordChange(trx, deps.links, user, now));
      return { message: PASSWORD_CHANGED };
    },
  );
};

import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { z } from 'zod';
import { AccountTokenRefusedError, type RefusedToken } from '../accounts/account-tokens';
import { confirmEmail, requestPasswordReset, resetPassword, sendVerificationMail } from '../accounts/recovery';
import { EmailTakenError, findUserById, normalizeEmail } from '../accounts/users';
import { passwordProblem } from '../contracts/account-rules';
import { FORGOT_PASSWORD_ANSWER, forgotPasswordRequestSchema, type ForgotPasswordRequest, messageAnswerSchema, resetPasswordRequestSchema, verifyEmailRequestSchema } from '../contracts/accounts';
import { errorResponses } from '../contracts/common';
import type { AppDependencies } from '../dependencies';
import { HttpError } from '../http/errors';
import { invalid, requiredEmail } from './field-checks';

/** Reset links asked for one address, whoever asks: enough for a forgetful owner, too few to flood their inbox. */
const RESETS_PER_ADDRESS = { points: 5, duration: 60 * 60 };

const RESET_REFUSED: Record<RefusedToken, string> = {
  UNKNOWN: 'This password reset link is not valid. Ask for a new one from the sign-in page.',
  USED: 'This password reset link has already been used. Ask for a new one from the sign-in page.',
  EXPIRED: 'This password reset link has expired (links work for 30 minutes). Ask for a new one from the sign-in page.',
  STALE: 'This password reset link was sent to an address your account no longer uses. Ask for a new one from the sign-in page.',
};

const VERIFY_REFUSED: Record<RefusedToken, string> = {
  UNKNOWN: 'This email confirmation link is not valid. Ask for a new one from your profile.',
  USED: 'This email confirmation link has already been used.',
  EXPIRED: 'This email confirmation link has expired. Ask for a new one from your profile.',
  STALE: 'This email confirmation link is for an address your account no longer uses.',
};

/**
 * Accounts people can recover (/api/auth/password/..., /api/auth/email/...): a forgotten password
 * reset through a link mailed to the address, and addresses confirmed the same way. No answer tells
 * whether an address has an account.
 */
export const recoveryRoutes: FastifyPluginAsyncZod<{ deps: AppDependencies }> = async (app, { deps }) => {
  const { db } = deps;
  // The per-client limit is @fastify/rate-limit's (one limit per request); the per-address one a
  // limiter of its own (rate-limiter-flexible), counted whether or not an account uses the address.
  const resetsPerAddress = new RateLimiterMemory(RESETS_PER_ADDRESS);
  const perAddress = async (request: FastifyRequest<{ Body: ForgotPasswordRequest }>, reply: FastifyReply) => {
    const address = normalizeEmail(request.body.email ?? '');
    try {
      await resetsPerAddress.consume(address);
    } catch (refusal) {
      if (!(refusal instanceof RateLimiterRes)) throw refusal;
      const seconds = Math.ceil(refusal.msBeforeNext / 1000);
      reply.header('retry-after', String(seconds));
      throw new HttpError(429, `Too many reset requests for this address: at most ${RESETS_PER_ADDRESS.points} per hour. Try again in ${Math.ceil(seconds / 60)} minutes.`, 'RATE_LIMITED');
    }
  };

  app.post(
    '/api/auth/password/forgot',
    {
      onRequest: app.limitRate('accountMail'),
      preHandler: perAddress,
      schema: {
        tags: ['auth'],
        summary: 'Mail a password reset link',
        description:
          `Answers 202 "${FORGOT_PASSWORD_ANSWER}" whether or not an account uses the address, at once (the work is done after the answer, ` +
          'so its timing tells nothing either). The link works once, for 30 minutes. Limited per client (RATE_LIMIT_ACCOUNT_MAIL) and to 5 per address per hour.',
        body: forgotPasswordRequestSchema,
        response: { 202: messageAnswerSchema, ...errorResponses(400, 429) },
      },
    },
    async (request, reply) => {
      const email = requiredEmail(request.body.email);
      const now = deps.clock();
      await reply.code(202).send({ message: FORGOT_PASSWORD_ANSWER });
      requestPasswordReset(db, deps.links, email, now).catch((error: unknown) => request.log.error({ err: error }, 'password reset: could not queue the link'));
      return reply;
    },
  );

  app.post(
    '/api/auth/password/reset',
    {
      onRequest: app.limitRate('accountMail'),
      schema: {
        tags: ['auth'],
        summary: 'Set a new password with the token of a reset link',
        description: 'The password rules apply. Every session of the account ends (access and refresh tokens). A used, expired or unknown token answers 400.',
        body: resetPasswordRequestSchema,
        response: { 204: z.null().describe('Password set; sign in with it'), ...errorResponses(400, 429) },
      },
    },
    async (request, reply) => {
      const newPassword = request.body.newPassword ?? '';
      const problem = passwordProblem(newPassword);
      if (problem) throw invalid(problem);
      try {
        await resetPassword(db, app.accountAccess, deps.links, request.body.token, newPassword, deps.clock());
      } catch (error) {
        if (error instanceof AccountTokenRefusedError) throw new HttpError(400, RESET_REFUSED[error.reason], `RESET_TOKEN_${error.reason}`);
        throw error;
      }
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/api/auth/email/verify',
    {
      onRequest: app.limitRate('accountMail'),
      schema: {
        tags: ['auth'],
        summary: 'Confirm an address with the token of a mailed link',
        description: 'A verification link marks the address verified; an email-change link moves the account to the new address and tells the old one. A used, expired or unknown token answers 400.',
        body: verifyEmailRequestSchema,
        response: { 204: z.null().describe('Confirmed'), ...errorResponses(400, 409, 429) },
      },
    },
    async (request, reply) => {
      try {
        await confirmEmail(db, app.accountAccess, deps.links, request.body.token, deps.clock());
      } catch (error) {
        if (error instanceof AccountTokenRefusedError) throw new HttpError(400, VERIFY_REFUSED[error.reason], `EMAIL_TOKEN_${error.reason}`);
        if (error instanceof EmailTakenError) throw new HttpError(409, error.message, 'EMAIL_TAKEN');
        throw error;
      }
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/api/auth/email/verify/resend',
    {
      onRequest: [app.authenticate, app.limitRate('accountMail')],
      schema: {
        tags: ['auth'],
        summary: "Mail a new link to confirm the signed-in user's address",
        description: 'Earlier links stop working. 409 when the address is verified already.',
        security: [{ bearer: [] }],
        response: { 202: messageAnswerSchema, ...errorResponses(401, 409, 429) },
      },
    },
    async (request, reply) => {
      const user = await findUserById(db, request.actor!.userId);
      if (!user) throw new HttpError(401, 'Invalid access token', 'INVALID_TOKEN');
      if (user.email_verified_at !== null) throw new HttpError(409, 'Your email address is verified already', 'EMAIL_ALREADY_VERIFIED');
      await sendVerificationMail(db, deps.links, user, deps.clock());
      return reply.code(202).send({ message: `A new confirmation link is on its way to ${user.email}. It works for 48 hours.` });
    },
  );
};

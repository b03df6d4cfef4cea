import type { z } from 'zod';
import type { ForgotPasswordRequest, messageAnswerSchema, ResetPasswordRequest, VerifyEmailRequest } from '../../../../api/contracts/accounts';
import { apiRequest } from '../../lib/api-client';

/**
 * The pages the mailed links open, and the form that mails one: the token of a link travels in the
 * URL's fragment (never sent to a server, so never in a log); the page reads it, then takes it out
 * of the address bar.
 */

/** The token in a fragment such as "#token=abc"; null when there is none. */
export function tokenFromFragment(hash: string): string | null {
  const token = new URLSearchParams(hash.startsWith('#') ? hash.slice(1) : hash).get('token');
  return token && token.trim() !== '' ? token.trim() : null;
}

/** The same answer whether or not an account uses the address; 429 when asked too often. */
export function requestPasswordReset(email: string): Promise<z.infer<typeof messageAnswerSchema>> {
  return apiRequest('/api/auth/password/forgot', { body: { email } satisfies ForgotPasswordRequest });
}

export function resetPassword(token: string, newPassword: string): Promise<void> {
  return apiRequest('/api/auth/password/reset', { body: { token, newPassword } satisfies ResetPasswordRequest });
}

const verifications = new Map<string, Promise<void>>();

/**
 * A token works once: asked twice (React's development double mount starts the page's machine
 * again), the second call would be refused as used. Each token is sent once per page load.
 */
export function verifyEmailOnce(token: string): Promise<void> {
  let verification = verifications.get(token);
  if (!verification) {
    verification = apiRequest<void>('/api/auth/email/verify', { body: { token } satisfies VerifyEmailRequest });
    verifications.set(token, verification);
    // A failure may be a lost connection: Try Again sends it again.
    verification.catch(() => verifications.delete(token));
  }
  return verification;
}

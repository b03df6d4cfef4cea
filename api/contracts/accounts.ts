import { z } from 'zod';

/**
 * Accounts on the wire: sign-up and sign-in, sessions and profiles. The rules the forms check as
 * the user types (password, email format, lengths) are in account-rules.ts.
 */

/** A person's roles: BUYER bids, ADMIN runs the catalogue, AUDITOR reads the log and nothing else. */
export const roleSchema = z.enum(['BUYER', 'ADMIN', 'AUDITOR']);
export type Role = z.infer<typeof roleSchema>;

import { MAX_EMAIL_LENGTH, MAX_NAME_LENGTH, MAX_PASSWORD_LENGTH } from './account-rules';

export const sessionTokensSchema = z.object({
  accessToken: z.string(),
  refreshToken: z.string(),
  expiresIn: z.number().int().describe('seconds until the access token expires'),
});
export type SessionTokens = z.infer<typeof sessionTokensSchema>;

// Fields are optional to the schema so that a missing one gets its own message, checked in order
// by the handler; the schema still refuses wrong types and unknown fields.
export const registerRequestSchema = z.strictObject({
  firstName: z.string().max(MAX_NAME_LENGTH * 10).optional(),
  lastName: z.string().max(MAX_NAME_LENGTH * 10).optional(),
  email: z.string().max(MAX_EMAIL_LENGTH * 4).optional(),
  password: z.string().max(MAX_PASSWORD_LENGTH).optional(),
  role: z.string().max(32).optional().describe('Accepted and ignored: self-registration always creates a BUYER account'),
});
export type RegisterRequest = z.infer<typeof registerRequestSchema>;

export const loginRequestSchema = z.strictObject({
  email: z.string().max(MAX_EMAIL_LENGTH * 4),
  password: z.string().max(MAX_PASSWORD_LENGTH),
});
export type LoginRequest = z.infer<typeof loginRequestSchema>;

export const refreshRequestSchema = z.strictObject({ refreshToken: z.string().min(1).max(512) });

/** A user's profile. Never anything about credentials. */
export const userProfileSchema = z.object({
  id: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  phone: z.string().nullable(),
  status: z.enum(['ACTIVE', 'DISABLED']),
  roles: z.array(roleSchema),
  createdAt: z.string().describe('ISO 8601'),
  marketingOptIn: z.boolean(),
  transactionalOptOut: z.boolean().describe('true: no OUTBID or ENDING_SOON mail (the notices stay in the app); account mail is always sent'),
  emailVerified: z.boolean().describe('The owner has followed the link mailed to `email`'),
  pendingEmail: z.string().nullable().describe('An address asked for and not confirmed yet: the change applies once the link mailed to it is followed'),
});
export type UserProfile = z.infer<typeof userProfileSchema>;

// As on registration, required fields are optional to the schema so a missing one gets its own
// message from the handler.
export const profileChangeRequestSchema = z.strictObject({
  firstName: z.string().max(MAX_NAME_LENGTH * 10).optional(),
  lastName: z.string().max(MAX_NAME_LENGTH * 10).optional(),
  phone: z.string().max(100).nullable().optional().describe('absent, null or blank clears it'),
  marketingOptIn: z.boolean().optional().describe('absent: unchanged'),
  transactionalOptOut: z.boolean().optional().describe('absent: unchanged'),
});
export type ProfileChangeRequest = z.infer<typeof profileChangeRequestSchema>;

export const emailChangeRequestSchema = z.strictObject({ newEmail: z.string().max(MAX_EMAIL_LENGTH * 4).optional() });
export type EmailChangeRequest = z.infer<typeof emailChangeRequestSchema>;

export const passwordChangeRequestSchema = z.strictObject({
  currentPassword: z.string().max(MAX_PASSWORD_LENGTH).optional(),
  newPassword: z.string().max(MAX_PASSWORD_LENGTH).optional(),
});
export type PasswordChangeRequest = z.infer<typeof passwordChangeRequestSchema>;

export const messageAnswerSchema = z.object({ message: z.string() });

/** A one-time token from a link mailed to the user: 32 random bytes, base64url. */
const mailedToken = z.string().min(1).max(200);

export const forgotPasswordRequestSchema = z.strictObject({ email: z.string().max(MAX_EMAIL_LENGTH * 4).optional() });
export type ForgotPasswordRequest = z.infer<typeof forgotPasswordRequestSchema>;

export const resetPasswordRequestSchema = z.strictObject({ token: mailedToken, newPassword: z.string().max(MAX_PASSWORD_LENGTH).optional() });
export type ResetPasswordRequest = z.infer<typeof resetPasswordRequestSchema>;

export const verifyEmailRequestSchema = z.strictObject({ token: mailedToken });
export type VerifyEmailRequest = z.infer<typeof verifyEmailRequestSchema>;

/** The one answer of POST /api/auth/password/forgot, whether or not the address has an account. */
export const FORGOT_PASSWORD_ANSWER = 'If an account uses this address, a link to reset its password is on its way. It works for 30 minutes.';

import { z } from 'zod';

/**
 * Accounts on the wire: sign-up and sign-in, sessions, profiles, and the password rules, which the
 * server enforces and both web forms (register, password change) show as the user types.
 */

export const roleSchema = z.enum(['BUYER', 'ADMIN']);
export type Role = z.infer<typeof roleSchema>;

// Bounds keep absurd inputs away from the database and from argon2; they are far above real use.
export const MAX_NAME_LENGTH = 100;
export const MAX_EMAIL_LENGTH = 254;
export const MAX_PASSWORD_LENGTH = 256;

/** The password rules, in the order and words users read them. */
export const PASSWORD_RULES: ReadonlyArray<{ readonly label: string; readonly test: (password: string) => boolean }> = [
  { label: 'at least 8 characters', test: (p) => p.length >= 8 },
  { label: 'one lowercase letter', test: (p) => /[a-z]/.test(p) },
  { label: 'one uppercase letter', test: (p) => /[A-Z]/.test(p) },
  { label: 'one number', test: (p) => /[0-9]/.test(p) },
  { label: 'one special character (@$!%*?&)', test: (p) => /[@$!%*?&]/.test(p) },
];

/** The rules this password does not meet yet (the live list under a password field). */
export function unmetPasswordRules(password: string): string[] {
  return PASSWORD_RULES.filter((rule) => !rule.test(password)).map((rule) => rule.label);
}

/** null when the password meets every rule, else "Password must contain: ..." listing the unmet ones. */
export function passwordProblem(password: string): string | null {
  const unmet = unmetPasswordRules(password);
  return unmet.length === 0 ? null : `Password must contain: ${unmet.join(', ')}`;
}

const emailFormat = z.email();

/** The address format the server accepts, so a form can say so before sending. */
export function isEmailAddress(text: string): boolean {
  return emailFormat.safeParse(text).success;
}

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
  transactionalOptOut: z.boolean(),
});
export type UserProfile = z.infer<typeof userProfileSchema>;

// As on registration, required fields are optional to the schema so a missing one gets its own
// message from the handler.
export const profileChangeRequestSchema = z.strictObject({
  firstName: z.string().max(MAX_NAME_LENGTH * 10).optional(),
  lastName: z.string().max(MAX_NAME_LENGTH * 10).optional(),
  phone: z.string().max(100).nullable().optional().describe('absent, null or blank clears it'),
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

import { z } from 'zod';
import { MAX_PASSWORD_LENGTH } from '../accounts/users';
import { HttpError } from '../http/errors';

/** The one error shape (api/http/errors.ts), declared so that /docs shows it. */
export const errorResponse = z.object({
  statusCode: z.number().int(),
  error: z.string(),
  message: z.string(),
  code: z.string().optional(),
  errors: z.array(z.object({ field: z.string(), message: z.string() })).optional().describe("A refused form's problems, each naming its field"),
});

/** Spec section 3, auth responses. */
export const sessionTokensResponse = z.object({
  accessToken: z.string(),
  refreshToken: z.string(),
  expiresIn: z.number().int().describe('seconds until the access token expires'),
});

// Bounds keep absurd inputs away from the database and from argon2; they are far above real use.
export const MAX_NAME_LENGTH = 100;
export const MAX_EMAIL_LENGTH = 254;
export { MAX_PASSWORD_LENGTH };

/** Field checks whose failures carry the spec's words rather than the schema validator's. */
export function invalid(message: string): HttpError {
  return new HttpError(400, message, 'VALIDATION_FAILED');
}

/** The trimmed text, or a 400 with `message` when it is missing or blank. */
export function requiredText(value: string | undefined, message: string): string {
  const text = value?.trim() ?? '';
  if (text.length === 0) throw invalid(message);
  return text;
}

const emailFormat = z.email();

/** The trimmed email, or a 400: "Email is required", then "Please enter a valid email address". */
export function requiredEmail(value: string | undefined): string {
  const email = requiredText(value, 'Email is required');
  if (!emailFormat.safeParse(email).success) throw invalid('Please enter a valid email address');
  return email;
}

/** Names are required, trimmed and bounded (register and profile alike). */
export function requiredName(value: string | undefined, label: 'First name' | 'Last name'): string {
  const name = requiredText(value, `${label} is required`);
  if (name.length > MAX_NAME_LENGTH) throw invalid(`${label} must be at most ${MAX_NAME_LENGTH} characters`);
  return name;
}

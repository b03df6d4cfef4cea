import { regexes } from 'zod';

/**
 * The rules a form checks as the user types and the server enforces, apart from the schemas so
 * that a page bundles these few lines and not every account schema.
 */

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

/** The address format the server accepts (zod's own email pattern), so a form can say so before sending. */
export function isEmailAddress(text: string): boolean {
  return regexes.email.test(text);
}

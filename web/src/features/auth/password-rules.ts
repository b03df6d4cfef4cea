/**
 * The register rules of spec section 5, as pure functions: the forms, the live list under the
 * password field and the unit tests all read the same words. The server checks the same rules.
 */

export { PASSWORD_RULES, unmetPasswordRules } from '../../../../api/contracts/accounts';
import { isEmailAddress, passwordProblem } from '../../../../api/contracts/accounts';

export interface RegisterValues {
  readonly firstName: string;
  readonly lastName: string;
  readonly email: string;
  readonly password: string;
  readonly confirmPassword: string;
}

export type RegisterField = keyof RegisterValues;

export interface FieldProblem<Field extends string> {
  readonly field: Field;
  readonly message: string;
}

/** The first unmet register rule, checked in the spec's order (section 5); null when all pass. */
export function registerProblem(values: RegisterValues): FieldProblem<RegisterField> | null {
  if (values.firstName.trim() === '') return { field: 'firstName', message: 'First name is required' };
  if (values.lastName.trim() === '') return { field: 'lastName', message: 'Last name is required' };
  const email = values.email.trim();
  if (email === '') return { field: 'email', message: 'Email is required' };
  if (!isEmailAddress(email)) return { field: 'email', message: 'Please enter a valid email address' };
  const weak = passwordProblem(values.password);
  if (weak) return { field: 'password', message: weak };
  if (values.password !== values.confirmPassword) return { field: 'confirmPassword', message: 'Passwords do not match' };
  return null;
}

export interface LoginValues {
  readonly email: string;
  readonly password: string;
}

export function loginProblem(values: LoginValues): FieldProblem<keyof LoginValues> | null {
  if (values.email.trim() === '') return { field: 'email', message: 'Email is required' };
  if (values.password === '') return { field: 'password', message: 'Password is required' };
  return null;
}

/** Spec section 5, Login: whatever went wrong, the user is told this (the server says the same). */
export const LOGIN_FAILED = 'Invalid email or password';
export const REGISTRATION_FAILED = 'Registration failed. Please try again.';

// Messages that come from the transport or the session's own fallback, not from the server's answer.
const NOT_FROM_THE_SERVER = new Set(['Registration failed', 'Network error', 'Failed to fetch', 'The server took too long to answer', 'Invalid access token']);

/** The server's reason when it gave one the user can act on (e.g. the email is taken), else the spec's words. */
export function registrationFailureMessage(error: string | null | undefined): string {
  if (!error || NOT_FROM_THE_SERVER.has(error) || /^HTTP \d+$/.test(error)) return REGISTRATION_FAILED;
  return error;
}

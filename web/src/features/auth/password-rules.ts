/**
 * The sign-in and register rules as pure functions, so that the forms and the unit tests read the
 * same words. The password rules are the server's own (api/contracts/account-rules.ts).
 */

import { isEmailAddress, passwordProblem } from '../../../../api/contracts/account-rules';

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

/** The first unmet register rule, checked in this order: names, email, password, confirmation; null when all pass. */
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

/** Whatever went wrong with a sign-in, the user is told this (the server says the same): it never tells which part was wrong. */
export const LOGIN_FAILED = 'Invalid email or password';
export const REGISTRATION_FAILED = 'Registration failed. Please try again.';

// Messages that come from the transport or the session's own fallback, not from the server's answer.
const NOT_FROM_THE_SERVER = new Set(['Registration failed', 'Network error', 'Failed to fetch', 'The server took too long to answer', 'Invalid access token']);

/** The server's reason when it gave one the user can act on (e.g. the email is taken), else "Registration failed. Please try again." */
export function registrationFailureMessage(error: string | null | undefined): string {
  if (!error || NOT_FROM_THE_SERVER.has(error) || /^HTTP \d+$/.test(error)) return REGISTRATION_FAILED;
  return error;
}

export interface ForgotPasswordValues {
  readonly email: string;
}

export function forgotPasswordProblem(values: ForgotPasswordValues): FieldProblem<keyof ForgotPasswordValues> | null {
  const email = values.email.trim();
  if (email === '') return { field: 'email', message: 'Email is required' };
  if (!isEmailAddress(email)) return { field: 'email', message: 'Please enter a valid email address' };
  return null;
}

export interface ResetPasswordValues {
  readonly newPassword: string;
  readonly confirmPassword: string;
}

/** The server's password rules, all of them, then the confirmation. */
export function resetPasswordProblem(values: ResetPasswordValues): FieldProblem<keyof ResetPasswordValues> | null {
  const weak = passwordProblem(values.newPassword);
  if (weak) return { field: 'newPassword', message: weak };
  if (values.newPassword !== values.confirmPassword) return { field: 'confirmPassword', message: 'Passwords do not match' };
  return null;
}

/** What the sign-in page says after a password reset: every session has ended, this one included. */
export const PASSWORD_RESET_DONE = 'Your password has been reset. Sign in with your new password.';

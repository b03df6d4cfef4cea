/** The email-change and password-change rules as pure checks: the first problem, or null. */

import { isEmailAddress, passwordProblem } from '../../../../api/contracts/account-rules';

export interface EmailChangeValues {
  readonly newEmail: string;
  readonly confirmEmail: string;
}

export type EmailChangeProblem = { field: keyof EmailChangeValues; message: string } | null;

export function emailChangeProblem(currentEmail: string, values: EmailChangeValues): EmailChangeProblem {
  const next = values.newEmail.trim();
  if (next === '') return { field: 'newEmail', message: 'New email is required' };
  if (!isEmailAddress(next)) return { field: 'newEmail', message: 'Please enter a valid email address' };
  if (next.toLowerCase() !== values.confirmEmail.trim().toLowerCase()) return { field: 'confirmEmail', message: 'Email addresses do not match' };
  if (next.toLowerCase() === currentEmail.trim().toLowerCase()) return { field: 'newEmail', message: 'New email must be different from current email' };
  return null;
}

export interface PasswordChangeValues {
  readonly currentPassword: string;
  readonly newPassword: string;
  readonly confirmPassword: string;
}

export type PasswordChangeProblem = { field: keyof PasswordChangeValues; message: string } | null;

export function passwordChangeProblem(values: PasswordChangeValues): PasswordChangeProblem {
  // The current password is required and sent: the server checks it before changing anything (design.md).
  if (values.currentPassword === '') return { field: 'currentPassword', message: 'Current password is required' };
  // The server's rules, all of them: a new password the server would refuse is refused here first.
  const weak = passwordProblem(values.newPassword);
  if (weak) return { field: 'newPassword', message: weak };
  if (values.newPassword !== values.confirmPassword) return { field: 'confirmPassword', message: 'Passwords do not match' };
  return null;
}

export interface ProfileFormValues {
  readonly firstName: string;
  readonly lastName: string;
  readonly phone: string;
  readonly marketingOptIn: boolean;
  readonly transactionalOptOut: boolean;
}

export function profileProblem(values: Pick<ProfileFormValues, 'firstName' | 'lastName'>): { field: keyof ProfileFormValues; message: string } | null {
  if (values.firstName.trim() === '') return { field: 'firstName', message: 'First name is required' };
  if (values.lastName.trim() === '') return { field: 'lastName', message: 'Last name is required' };
  return null;
}

/** "Failed to update email: <server reason>", or the prefix alone when the server gave none. */
export function failureWithReason(prefix: string, reason: string | null | undefined): string {
  return reason ? `${prefix}: ${reason}` : prefix;
}

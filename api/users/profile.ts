import type { UserProfile } from '../contracts/accounts';
import type { User } from '../accounts/users';

/** `pendingEmail`: an email change asked for and not confirmed yet (account-tokens.ts pendingEmailOf). */
export function toProfile(user: User, pendingEmail: string | null): UserProfile {
  return {
    id: user.id,
    email: user.email,
    firstName: user.first_name,
    lastName: user.last_name,
    phone: user.phone,
    status: user.status,
    roles: user.roles,
    createdAt: new Date(user.created_at).toISOString(),
    marketingOptIn: user.marketing_opt_in,
    transactionalOptOut: user.transactional_opt_out,
    emailVerified: user.email_verified_at !== null,
    pendingEmail,
  };
}

/** Loose on purpose: digits with the usual separators and an optional leading +, 7 to 15 digits (E.164's span). */
const PHONE_PATTERN = /^\+?[0-9 ().-]+$/;

/** null when the (trimmed, non-blank) text looks like a phone number, else the message saying it does not. */
export function phoneProblem(phone: string): string | null {
  const digits = phone.replace(/\D/g, '').length;
  return PHONE_PATTERN.test(phone) && digits >= 7 && digits <= 15 ? null : 'Please enter a valid phone number';
}

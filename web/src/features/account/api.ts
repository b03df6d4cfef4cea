import type { z } from 'zod';
import type {
  EmailChangeRequest,
  messageAnswerSchema,
  PasswordChangeRequest,
  ProfileChangeRequest,
  UserProfile,
} from '../../../../api/contracts/accounts';
import type { UserBid } from '../../../../api/contracts/bids';
import { apiRequest } from '../../lib/api-client';
import type { ProfileFormValues } from './security-rules';

export type { UserBid };

/** The account screens' calls: the profile, the sign-in email, the password and the user's bids, each with the session's token. */

const userPath = (userId: string) => `/api/v1/users/${encodeURIComponent(userId)}`;

export function fetchProfile(userId: string, signal?: AbortSignal): Promise<UserProfile> {
  return apiRequest<UserProfile>(`${userPath(userId)}/profile`, { auth: true, ...(signal ? { signal } : {}) });
}

export function saveProfile(userId: string, values: ProfileFormValues): Promise<UserProfile> {
  return apiRequest<UserProfile>(`${userPath(userId)}/profile`, {
    method: 'PUT',
    auth: true,
    body: {
      firstName: values.firstName.trim(),
      lastName: values.lastName.trim(),
      phone: values.phone.trim() || null,
      marketingOptIn: values.marketingOptIn,
      transactionalOptOut: values.transactionalOptOut,
    } satisfies ProfileChangeRequest,
  });
}

/** 202 with the profile whose pendingEmail is set: the address changes once the link mailed to it is followed. */
export function changeEmail(userId: string, newEmail: string): Promise<UserProfile> {
  return apiRequest<UserProfile>(`${userPath(userId)}/email`, { method: 'PUT', auth: true, body: { newEmail: newEmail.trim() } satisfies EmailChangeRequest });
}

/** Both passwords in the JSON body (design.md: the current password is required and sent). */
export function changePassword(userId: string, currentPassword: string, newPassword: string): Promise<z.infer<typeof messageAnswerSchema>> {
  return apiRequest(`${userPath(userId)}/password`, { method: 'PUT', auth: true, body: { currentPassword, newPassword } satisfies PasswordChangeRequest });
}

/** The bid history call's default limit: the dashboard reads that many of the user's most recent bids. */
export const RECENT_BIDS_LIMIT = 20;

export function fetchMyBids(signal?: AbortSignal): Promise<UserBid[]> {
  return apiRequest<UserBid[]>(`/api/bids/user/history?limit=${RECENT_BIDS_LIMIT}&offset=0`, { auth: true, ...(signal ? { signal } : {}) });
}

import { apiRequest } from '../../lib/api-client';
import type { User } from '../../lib/auth/auth-machine';

/** The account screens' calls (spec section 7, "User" and "Bids"); the session's token is sent. */

const userPath = (userId: string) => `/api/v1/users/${encodeURIComponent(userId)}`;

export interface ProfileValues {
  readonly firstName: string;
  readonly lastName: string;
  readonly phone: string;
}

export function fetchProfile(userId: string, signal?: AbortSignal): Promise<User> {
  return apiRequest<User>(`${userPath(userId)}/profile`, { auth: true, ...(signal ? { signal } : {}) });
}

export function saveProfile(userId: string, values: ProfileValues): Promise<User> {
  return apiRequest<User>(`${userPath(userId)}/profile`, {
    method: 'PUT',
    auth: true,
    body: { firstName: values.firstName.trim(), lastName: values.lastName.trim(), phone: values.phone.trim() || null },
  });
}

export function changeEmail(userId: string, newEmail: string): Promise<User> {
  return apiRequest<User>(`${userPath(userId)}/email`, { method: 'PUT', auth: true, body: { newEmail: newEmail.trim() } });
}

/** Both passwords in the JSON body (design.md: the current password is required and sent). */
export function changePassword(userId: string, currentPassword: string, newPassword: string): Promise<{ message: string }> {
  return apiRequest<{ message: string }>(`${userPath(userId)}/password`, { method: 'PUT', auth: true, body: { currentPassword, newPassword } });
}

/** GET /api/bids/user/history: one of the caller's bids with the state of its auction. */
export interface UserBid {
  readonly id: string;
  readonly auctionId: string;
  readonly amount: number;
  readonly maxAmount: number | null;
  readonly placedAt: string;
  readonly status: 'ACCEPTED' | 'RETRACTED';
  readonly kind: 'BID' | 'AUTO' | 'MAXIMUM' | 'BUY_NOW';
  readonly listingId: string | null;
  readonly listingTitle: string | null;
  readonly listingSlug: string | null;
  readonly auctionStatus: string | null;
  readonly currentPrice: number | null;
  readonly endsAt: string | null;
  readonly isLeading: boolean;
  readonly result: string | null;
  readonly isWinner: boolean;
}

/** Spec section 9: the bid history call's default limit. */
export const RECENT_BIDS_LIMIT = 20;

export function fetchMyBids(signal?: AbortSignal): Promise<UserBid[]> {
  return apiRequest<UserBid[]>(`/api/bids/user/history?limit=${RECENT_BIDS_LIMIT}&offset=0`, { auth: true, ...(signal ? { signal } : {}) });
}

/**
 * A call made by a machine's promise actor with the actor's signal. React's StrictMode stops and
 * restarts a component's machine once (@xstate/react rehydrates it and runs the call again):
 * the first, aborted call must then neither resolve nor fail, or its AbortError would reach the
 * restarted machine as a failure.
 */
export async function unlessAborted<T>(signal: AbortSignal, call: (signal: AbortSignal) => Promise<T>): Promise<T> {
  try {
    return await call(signal);
  } catch (error) {
    if (signal.aborted) return new Promise<T>(() => {});
    throw error;
  }
}

import type { Watchlist } from '../../../../api/contracts/watchlist';
import { ApiError, apiRequest } from '../api-client';

/** The signed-in user's watchlist calls: the whole list, and following or not following one listing (both idempotent). */

const WATCHLIST_PATH = '/api/v1/users/me/watchlist';
const itemPath = (listingId: string) => `${WATCHLIST_PATH}/${encodeURIComponent(listingId)}`;

export function fetchWatchlist(signal?: AbortSignal): Promise<Watchlist> {
  return apiRequest<Watchlist>(WATCHLIST_PATH, { auth: true, ...(signal ? { signal } : {}) });
}

export function saveFollow(listingId: string, follow: boolean): Promise<void> {
  return apiRequest<void>(itemPath(listingId), { method: follow ? 'PUT' : 'DELETE', auth: true });
}

export interface MergeResult {
  /** Kept by the account now, or gone from the catalogue (404): either way no longer this device's to keep. */
  readonly settled: readonly string[];
  /** Refused for another reason (or no answer): kept on this device, tried again at the next sign-in. */
  readonly failed: readonly string[];
}

/** Adds the hearts given on this device to the account, one after the other (a handful, and the server is not hurried). */
export async function mergeLocalHearts(listingIds: readonly string[], follow: (listingId: string) => Promise<void>): Promise<MergeResult> {
  const settled: string[] = [];
  const failed: string[] = [];
  for (const listingId of listingIds) {
    try {
      await follow(listingId);
      settled.push(listingId);
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) settled.push(listingId);
      else failed.push(listingId);
    }
  }
  return { settled, failed };
}

/** The audit screens' addresses: the one way to link to them. */

/** The event log browser, where an auditor lands after signing in. */
export const AUDIT_LOG_PATH = '/audit';

/** An auction's timeline; with `step`, opened at that step (the API's step number, from 0). */
export function auctionTimelinePath(auctionId: string, step?: number): string {
  const path = `/admin/auctions/${encodeURIComponent(auctionId)}/timeline`;
  return step === undefined ? path : `${path}?step=${step}`;
}

import { toMillis, type Instant } from '../shared/time';

/**
 * When an auction takes bids, as of a given instant. Kept apart from the summary's fold so that a
 * client (through api/contracts) can ask the same questions without the rest of the engine.
 */

type AuctionStatus = 'PENDING' | 'ACTIVE' | 'ENDED' | 'CANCELLED';

interface Timing {
  readonly status: AuctionStatus;
  readonly startsAt: Instant;
  readonly endsAt: Instant;
}

/**
 * The status as of `now`. The engine opens a scheduled auction with the first bid after its start
 * (or the scheduler's OpenAuction), so between the start and that event the auction is live
 * although no event has said so yet. Any other status is the one recorded, even past the end.
 */
export function effectiveStatus<Status extends AuctionStatus>(auction: Timing & { readonly status: Status }, now: Instant): Status | 'ACTIVE' {
  const at = toMillis(now);
  if (auction.status === 'PENDING' && at >= toMillis(auction.startsAt) && at < toMillis(auction.endsAt)) return 'ACTIVE';
  return auction.status;
}

/** Bids are taken at `now`: live (see effectiveStatus) and before the current end. */
export function takesBidsAt(auction: Timing, now: Instant): boolean {
  return effectiveStatus(auction, now) === 'ACTIVE' && toMillis(now) < toMillis(auction.endsAt);
}

/** Over by `now`: closed, or past its current end although the closing event has not come yet. A cancelled auction did not end. */
export function hasEndedAt(auction: Timing, now: Instant): boolean {
  return auction.status === 'ENDED' || (auction.status !== 'CANCELLED' && toMillis(now) >= toMillis(auction.endsAt));
}

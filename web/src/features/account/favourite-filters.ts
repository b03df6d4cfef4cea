import type { FollowedItem } from '../../lib/watchlist/followed';

const endedBy = (item: FollowedItem, now: number) => item.endsAt !== null && Date.parse(item.endsAt) <= now;

/** The auction takes bids (as far as known: a heart kept on this device knows only its listing's status when saved). */
function running(item: FollowedItem): boolean {
  return item.savedLocally ? item.listingStatus === 'LIVE' : item.auctionStatus === 'ACTIVE';
}

/** "Now live": followed lots whose auction is running and has not ended yet. */
export function liveNow(items: readonly FollowedItem[], now: number): FollowedItem[] {
  return items.filter((item) => running(item) && !endedBy(item, now));
}

const AFTER_THE_AUCTION: Readonly<Record<string, string>> = { SOLD: 'Sold', UNSOLD: 'Not sold', WITHDRAWN: 'Withdrawn' };

/** Where a followed lot stands, in a word or two (never by colour alone). */
export function followedStatus(item: FollowedItem, now: number): string {
  const settled = AFTER_THE_AUCTION[item.listingStatus];
  if (settled) return settled;
  if (running(item)) return endedBy(item, now) ? 'Ended' : 'Live';
  switch (item.auctionStatus) {
    case 'PENDING':
      return 'Starts soon';
    case 'ENDED':
      return 'Ended';
    case 'CANCELLED':
      return 'Cancelled';
    default:
      return item.savedLocally ? 'Saved on this device' : 'No auction';
  }
}

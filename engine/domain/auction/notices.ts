import { assertNever } from '../shared/errors';
import type { AuctionEvent } from './messages';

/** What a bidder is told about a lot, as the log tells it. */
export type AuctionNoticeKind = 'OUTBID' | 'WON' | 'LOST';

export interface AuctionNotice {
  readonly kind: AuctionNoticeKind;
  readonly recipientId: string;
}

/** What the notices of one event depend on, besides the event: the auction as it stood before it. */
export interface NoticeContext {
  /** Who led before the event; null before the first bid. */
  readonly leaderBefore: string | null;
  /** Everyone who has bid on the auction (automatic bids count: they were the bidder's). */
  readonly bidders: Iterable<string>;
}

/** A lot ending within this long is ENDING_SOON for those who follow it or bid on it (once per lot per person). */
export const ENDING_SOON_WINDOW_MS = 60 * 60_000;

/**
 * Who is told what when `event` happens. OUTBID: the leader before a bid, when the lead passed to
 * someone else (a bid over their maximum, or another's proxy answering it). A retraction that moves
 * the lead outbids nobody: nobody bid. WON: the winner of a sold lot. LOST: every other bidder of a
 * closed lot, all of them when the reserve was not met.
 */
export function auctionNotices(event: AuctionEvent, context: NoticeContext): AuctionNotice[] {
  switch (event.type) {
    case 'BidPlaced':
    case 'MaximumBidRaised': {
      const leaderAfter = event.data.standing.leaderId;
      const { leaderBefore } = context;
      return leaderBefore !== null && leaderAfter !== leaderBefore ? [{ kind: 'OUTBID', recipientId: leaderBefore }] : [];
    }
    case 'AuctionClosed': {
      const { result, winnerId } = event.data;
      if (result === 'NO_BIDS') return [];
      const notices: AuctionNotice[] = result === 'SOLD' && winnerId !== null ? [{ kind: 'WON', recipientId: winnerId }] : [];
      for (const bidder of new Set(context.bidders)) if (bidder !== winnerId || result !== 'SOLD') notices.push({ kind: 'LOST', recipientId: bidder });
      return notices;
    }
    case 'AuctionScheduled':
    case 'AuctionOpened':
    case 'AuctionExtended':
    case 'BidRetracted':
    case 'AuctionCancelled':
      return [];
    default:
      return assertNever(event);
  }
}

/** Everyone an accepted bid event shows as bidding: the bidder and those whose proxies answered. */
export function biddersIn(event: Extract<AuctionEvent, { type: 'BidPlaced' | 'MaximumBidRaised' }>): string[] {
  return [event.data.bidderId, ...event.data.autoBids.map((auto) => auto.bidderId)];
}

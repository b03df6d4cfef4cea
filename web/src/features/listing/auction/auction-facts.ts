import { effectiveStatus, hasEndedAt, takesBidsAt, type AuctionStatus } from '../../../../../api/contracts/auctions';
import { BID_HISTORY_SIZE, type Auction, type Bid, type PlacedBid, type Purchase } from '../api';
import type { LiveMessage } from './live-messages';

/**
 * The auction as the panel knows it. Every answer of the API about the auction and every live
 * message carries the auction's summary with its version; the panel keeps the newest and needs no
 * rules of its own to merge them. Only the answers to the user's own bid or purchase carry a few
 * figures without a version: they show at once, until a newer summary replaces them.
 */

/** The countdown refreshes every 60 s; in the final minute every second, so that the end shows on time. */
export const COUNTDOWN_REFRESH_MS = 60_000;
export const FINAL_MINUTE_REFRESH_MS = 1000;

export interface AuctionFacts {
  readonly auction: Auction;
  /** Newest first, at most BID_HISTORY_SIZE. */
  readonly bids: readonly Bid[];
  /** Said by the live message that cancelled the auction (the summary does not keep it). */
  readonly cancelReason: string | null;
}

/** What the API answered on a re-read: the auction (null: the listing has none now) and its recent bids. */
export interface Snapshot {
  readonly auction: Auction | null;
  readonly bids: readonly Bid[];
}

/** Of two summaries of one auction, the one that has seen more of its events. */
export function newer(known: Auction, incoming: Auction): Auction {
  return incoming.version > known.version ? incoming : known;
}

function iso(now: number): string {
  return new Date(now).toISOString();
}

/** The status as the time passes: a scheduled auction whose start has come is live. */
export function statusAt(auction: Auction, now: number): AuctionStatus {
  return effectiveStatus(auction, iso(now));
}

export function takesBids(auction: Auction, now: number): boolean {
  return takesBidsAt(auction, iso(now));
}

export function hasEnded(auction: Auction, now: number): boolean {
  return hasEndedAt(auction, iso(now));
}

export function isLeader(auction: Auction, userId: string | null): boolean {
  return userId !== null && auction.currentLeaderId === userId;
}

/**
 * How long until the countdown next refreshes: every 60 s, but arriving exactly at the final
 * minute (and at a pending start), then every second until the end.
 */
export function countdownDelay(auction: Pick<Auction, 'startsAt' | 'endsAt'>, now: number): number {
  const left = Date.parse(auction.endsAt) - now;
  let delay = left <= COUNTDOWN_REFRESH_MS ? Math.min(FINAL_MINUTE_REFRESH_MS, left) : Math.min(COUNTDOWN_REFRESH_MS, left - COUNTDOWN_REFRESH_MS);
  const untilStart = Date.parse(auction.startsAt) - now;
  if (untilStart > 0) delay = Math.min(delay, untilStart);
  return Math.max(1, delay);
}

/** Newest first, one entry per bid id (the later copy wins), at most `BID_HISTORY_SIZE`. */
export function mergeBids(preferred: readonly Bid[], others: readonly Bid[]): Bid[] {
  const byId = new Map<string, Bid>();
  for (const bid of [...others, ...preferred]) byId.set(bid.id, bid);
  return [...byId.values()].sort((a, b) => Date.parse(b.placedAt) - Date.parse(a.placedAt)).slice(0, BID_HISTORY_SIZE);
}

/** A re-read of the API (after a reconnect or a retraction): the read models may lag the live feed, so the newer summary stays. */
export function withSnapshot(facts: AuctionFacts, snapshot: Snapshot): AuctionFacts {
  return {
    ...facts,
    auction: snapshot.auction ? newer(facts.auction, snapshot.auction) : facts.auction,
    bids: mergeBids(snapshot.bids, facts.bids),
  };
}

/** What a live message changes: the auction (when newer) and the history. */
export function withLiveMessage(facts: AuctionFacts, message: LiveMessage): AuctionFacts {
  if (message.type === 'subscribed' || message.type === 'unsubscribed' || message.type === 'error') return facts;
  // A signed-in user's own news: never on the panel's socket, which does not authenticate.
  if (message.type === 'authenticated' || message.type === 'unauthenticated' || message.type === 'notification' || message.type === 'unread_count') return facts;
  const next = { ...facts, auction: newer(facts.auction, message.auction) };
  switch (message.type) {
    case 'bid_placed': {
      const bid: Bid = { id: message.bidData.bidId, ...message.bidData };
      return { ...next, bids: mergeBids([bid], facts.bids) };
    }
    case 'bid_retracted':
      return { ...next, bids: facts.bids.map((bid) => (bid.id === message.bidId ? { ...bid, status: 'RETRACTED' } : bid)) };
    case 'auction_cancelled':
      return { ...next, cancelReason: message.reason };
    case 'auction_opened':
    case 'auction_extended':
    case 'auction_closed':
      return next;
    default: {
      const never: never = message;
      return never;
    }
  }
}

/**
 * The answer to the user's own bid. Its figures have no version: they show unless the panel
 * already knows a higher price (a later bid came live first), and the next summary replaces them.
 * A raised maximum (kind MAXIMUM) is private: it is not a bid in the public history.
 */
export function withPlacedBid(facts: AuctionFacts, placed: PlacedBid): AuctionFacts {
  const { auction } = facts;
  const answer = placed.auction;
  const endsAt = Date.parse(answer.endsAt) > Date.parse(auction.endsAt) ? answer.endsAt : auction.endsAt;
  const ahead = answer.currentPrice >= auction.currentPrice;
  if (placed.kind === 'MAXIMUM') return { ...facts, auction: { ...auction, endsAt } };
  const isNew = !facts.bids.some((bid) => bid.id === placed.id);
  const own: Bid = { id: placed.id, bidderId: placed.bidderId, amount: placed.amount, placedAt: placed.placedAt, status: placed.status, kind: placed.kind };
  return {
    ...facts,
    auction: {
      ...auction,
      ...(ahead ? { currentPrice: answer.currentPrice, currentLeaderId: answer.currentLeaderId, minimumBid: answer.minimumBid } : {}),
      // The first bid opens a scheduled auction; an end already known stays.
      status: ahead && auction.status === 'PENDING' ? answer.status : auction.status,
      endsAt,
      bidCount: auction.bidCount + (isNew ? 1 : 0),
      // A bid withdraws buy-now (with a reserve the server may still offer it: the next summary says so).
      buyNowAvailable: false,
    },
    bids: mergeBids([own], facts.bids),
  };
}

/** A buy-now purchase closes the auction at once, sold to this user. */
export function withPurchase(facts: AuctionFacts, purchase: Purchase): AuctionFacts {
  return {
    ...facts,
    auction: {
      ...facts.auction,
      status: 'ENDED',
      isActive: false,
      result: 'SOLD',
      winnerId: purchase.buyerId,
      finalPrice: purchase.amount,
      currentPrice: purchase.amount,
      currentLeaderId: purchase.buyerId,
      buyNowAvailable: false,
      endsAt: purchase.purchasedAt,
    },
  };
}

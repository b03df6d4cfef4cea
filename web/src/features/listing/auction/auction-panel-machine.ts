import { assign, emit, enqueueActions, fromCallback, fromPromise, raise, setup } from 'xstate';
import { formatUsd } from '../../../lib/money';
import { formatTimeLeft } from '../../../lib/time-left';
import { BID_HISTORY_SIZE, type Auction, type Bid, type BidRequest, type PlacedBid, type Purchase } from '../api';
import { NORMAL_CLOSURE, type FeedEvent, type FeedInput, type LiveAuctionData, type LiveMessage } from './live-messages';

/** Spec section 9: up to 5 reconnect attempts, 3000 ms apart. */
export const MAX_RECONNECT_ATTEMPTS = 5;
export const RECONNECT_DELAY_MS = 3000;
/** Spec section 9: the countdown refreshes every 60 s; in the final minute every second, so that the end shows on time. */
export const COUNTDOWN_REFRESH_MS = 60_000;
export const FINAL_MINUTE_REFRESH_MS = 1000;

export const BID_SUCCESS_MESSAGE = 'Bid placed successfully! Updates will appear automatically.';

/** The auction as the panel knows it: the last answer of the API, moved on by live messages. */
export interface AuctionFacts {
  readonly auctionId: string;
  readonly status: string;
  readonly startsAt: string;
  readonly endsAt: string;
  readonly currentPrice: number;
  readonly currentLeaderId: string | null;
  readonly minimumBid: number;
  readonly bidCount: number;
  readonly reserveMet: boolean | null;
  readonly result: string | null;
  readonly finalPrice: number | null;
  readonly cancelReason: string | null;
  /** Dollars; null when the lot has no buy-now price. */
  readonly buyNowPrice: number | null;
  /** Offered now: until the first bid (with a reserve: until it is met). */
  readonly buyNowAvailable: boolean;
}

export interface Banner {
  readonly kind: 'error' | 'success' | 'info';
  readonly text: string;
}

export interface PanelContext {
  /** The listing's slug or id: the auction is re-read through it. */
  readonly listingKey: string;
  readonly auction: AuctionFacts;
  /** Newest first, at most BID_HISTORY_SIZE. */
  readonly bids: readonly Bid[];
  /** The signed-in user, to show "You" and to know whether a bid needs a sign-in first. */
  readonly userId: string | null;
  /** The clock the countdown was last refreshed at. */
  readonly now: number;
  /** Reconnect attempts since the last successful connection. */
  readonly attempts: number;
  /** A retraction changed the price: the next re-read must not bring back the old one. */
  readonly retracted: boolean;
  readonly amount: string;
  readonly maxAmount: string;
  readonly banner: Banner | null;
}

export interface PanelInput {
  readonly listingKey: string;
  readonly auction: Auction;
  readonly userId: string | null;
}

export type PanelEvent =
  | FeedEvent
  | { type: 'AMOUNT.CHANGE'; value: string }
  | { type: 'MAX.CHANGE'; value: string }
  | { type: 'BID.SUBMIT' }
  | { type: 'BUY_NOW.REQUEST' }
  | { type: 'BUY_NOW.CONFIRM' }
  | { type: 'BUY_NOW.CANCEL' }
  | { type: 'BANNER.SHOW'; banner: Banner }
  | { type: 'BANNER.DISMISS' }
  | { type: 'USER.CHANGE'; userId: string | null }
  | { type: 'RECONNECT' }
  | { type: 'SYNC' }
  | { type: 'CLOCK.RESET' };

/** Told to the page: a signed-out visitor pressed Place Bid (or Buy now). */
export type PanelEmitted = { type: 'signInRequired'; action: 'bid' | 'buyNow'; amount: number };

export interface Snapshot {
  readonly auction: Auction | null;
  readonly bids: readonly Bid[];
}

export function factsOf(auction: Auction): AuctionFacts {
  return {
    auctionId: auction.auctionId,
    status: auction.status,
    startsAt: auction.startsAt,
    endsAt: auction.endsAt,
    currentPrice: auction.currentPrice,
    currentLeaderId: auction.currentLeaderId,
    minimumBid: auction.minimumBid,
    bidCount: auction.bidCount,
    reserveMet: auction.reserveMet,
    result: auction.result,
    finalPrice: auction.finalPrice,
    cancelReason: null,
    buyNowPrice: auction.buyNowPrice,
    buyNowAvailable: auction.buyNowAvailable,
  };
}

const TERMINAL = new Set(['ENDED', 'CANCELLED']);

/** The status as of `now`: a scheduled auction whose start has come takes bids before any event says so. */
export function effectiveStatus(auction: AuctionFacts, now: number): string {
  if (auction.status === 'PENDING' && now >= Date.parse(auction.startsAt) && now < Date.parse(auction.endsAt)) return 'ACTIVE';
  return auction.status;
}

/** Spec section 4: ACTIVE "Live Auction", PENDING "Starting Soon", anything else raw. */
export function statusLabel(status: string): string {
  if (status === 'ACTIVE') return 'Live Auction';
  if (status === 'PENDING') return 'Starting Soon';
  return status;
}

/** Bidding only while active and the time left is not "Ended" (spec section 4). */
export function canBid(context: Pick<PanelContext, 'auction' | 'now'>): boolean {
  return effectiveStatus(context.auction, context.now) === 'ACTIVE' && formatTimeLeft(context.auction.endsAt, context.now) !== 'Ended';
}

/**
 * How long until the countdown next refreshes: every 60 s, but arriving exactly at the final
 * minute (and at a pending start), then every second until the end.
 */
export function countdownDelay(auction: AuctionFacts, now: number): number {
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

/**
 * A re-read of the API after a reconnect or a retraction. The read models can lag the live feed,
 * so a live price higher than the one read is kept (prices only fall by retraction, which the
 * live message has applied already), and an end already announced live is never undone.
 */
export function applySnapshot(context: PanelContext, snapshot: Snapshot): Pick<PanelContext, 'auction' | 'bids' | 'retracted'> {
  const bids = mergeBids(snapshot.bids, context.bids);
  if (!snapshot.auction) return { auction: context.auction, bids, retracted: false };
  const read = factsOf(snapshot.auction);
  const live = context.auction;
  const keepLivePrice = context.retracted || live.currentPrice > read.currentPrice;
  const keepLiveStatus = TERMINAL.has(live.status) && !TERMINAL.has(read.status);
  const auction: AuctionFacts = {
    ...read,
    ...(keepLivePrice ? { currentPrice: live.currentPrice, currentLeaderId: live.currentLeaderId, minimumBid: live.minimumBid } : {}),
    ...(keepLiveStatus ? { status: live.status, result: live.result, finalPrice: live.finalPrice, cancelReason: live.cancelReason } : {}),
    endsAt: Date.parse(live.endsAt) > Date.parse(read.endsAt) ? live.endsAt : read.endsAt,
    bidCount: Math.max(read.bidCount, live.bidCount),
  };
  return { auction, bids, retracted: false };
}

function withLiveData(auction: AuctionFacts, data: LiveAuctionData): AuctionFacts {
  return {
    ...auction,
    currentPrice: data.currentPrice,
    currentLeaderId: data.currentLeaderId,
    minimumBid: data.minimumBid,
    status: TERMINAL.has(auction.status) ? auction.status : data.status,
    endsAt: data.endsAt ?? auction.endsAt,
  };
}

/** The amount typed, as dollars; null when it is not a positive number. */
export function parseAmount(text: string): number | null {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  const value = Number(trimmed);
  return Number.isFinite(value) && value > 0 ? value : null;
}

/** A fresh Idempotency-Key per attempt; randomUUID needs a secure context, so fall back to random bytes. */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

function failureReason(error: unknown): string {
  return error instanceof Error && error.message ? `Failed to place bid: ${error.message}` : 'Failed to place bid';
}

/**
 * The auction panel (spec section 4, "Auction"): the live feed with its reconnect policy, a re-read
 * of the auction and its recent bids whenever the feed (re)subscribes, the countdown, and placing
 * bids. Four regions run side by side. The calls are actors the page provides and tests replace.
 */
export const auctionPanelMachine = setup({
  types: {
    context: {} as PanelContext,
    events: {} as PanelEvent,
    input: {} as PanelInput,
    emitted: {} as PanelEmitted,
  },
  actors: {
    liveFeed: fromCallback<{ type: 'NONE' }, FeedInput>(() => () => undefined),
    loadSnapshot: fromPromise<Snapshot, { listingKey: string; auctionId: string }>(async () => {
      throw new Error('loadSnapshot not provided');
    }),
    placeBid: fromPromise<PlacedBid, BidRequest>(async () => {
      throw new Error('placeBid not provided');
    }),
    buyNow: fromPromise<Purchase, { auctionId: string; idempotencyKey: string }>(async () => {
      throw new Error('buyNow not provided');
    }),
  },
  delays: {
    reconnectDelay: RECONNECT_DELAY_MS,
    countdownDelay: ({ context }) => countdownDelay(context.auction, Date.now()),
  },
  guards: {
    normalClose: ({ event }) => event.type === 'FEED.CLOSED' && event.code === NORMAL_CLOSURE,
    mayRetry: ({ context }) => context.attempts < MAX_RECONNECT_ATTEMPTS,
    clockStopped: ({ context }) => TERMINAL.has(context.auction.status) || Date.now() >= Date.parse(context.auction.endsAt),
  },
  actions: {
    tick: assign({ now: () => Date.now() }),
  },
}).createMachine({
  id: 'auctionPanel',
  type: 'parallel',
  context: ({ input }) => ({
    listingKey: input.listingKey,
    auction: factsOf(input.auction),
    bids: [],
    userId: input.userId,
    now: Date.now(),
    attempts: 0,
    retracted: false,
    amount: String(input.auction.minimumBid),
    maxAmount: '',
    banner: null,
  }),
  on: {
    'FEED.MESSAGE': {
      actions: enqueueActions(({ context, event, enqueue }) => {
        enqueue.assign(onLiveMessage(context, event.message));
        if (event.message.type === 'bid_retracted') enqueue.raise({ type: 'SYNC' });
        if (event.message.type === 'auction_extended' || event.message.type === 'bid_placed' || event.message.type === 'auction_opened') {
          enqueue.raise({ type: 'CLOCK.RESET' });
        }
      }),
    },
    'USER.CHANGE': { actions: assign({ userId: ({ event }) => event.userId }) },
    'BANNER.SHOW': { actions: assign({ banner: ({ event }) => event.banner }) },
    'BANNER.DISMISS': { actions: assign({ banner: null }) },
    'AMOUNT.CHANGE': { actions: assign({ amount: ({ event }) => event.value }) },
    'MAX.CHANGE': { actions: assign({ maxAmount: ({ event }) => event.value }) },
  },
  states: {
    connection: {
      initial: 'online',
      states: {
        online: {
          invoke: { src: 'liveFeed', input: ({ context }) => ({ auctionId: context.auction.auctionId }) },
          initial: 'connecting',
          states: {
            connecting: {
              on: {
                // Subscribed: the counter resets, and what was missed while away is read again.
                'FEED.SUBSCRIBED': { target: 'live', actions: [assign({ attempts: 0 }), raise({ type: 'SYNC' })] },
              },
            },
            live: {},
          },
          on: {
            'FEED.CLOSED': [
              { guard: 'normalClose', target: 'closed' },
              { guard: 'mayRetry', target: 'waiting' },
              { target: 'gaveUp' },
            ],
          },
        },
        waiting: {
          after: { reconnectDelay: { target: 'online', actions: assign({ attempts: ({ context }) => context.attempts + 1 }) } },
        },
        gaveUp: {
          on: { RECONNECT: { target: 'online', actions: assign({ attempts: 0 }) } },
        },
        closed: {
          on: { RECONNECT: { target: 'online', actions: assign({ attempts: 0 }) } },
        },
      },
    },
    sync: {
      initial: 'loading',
      states: {
        loading: {
          invoke: {
            src: 'loadSnapshot',
            input: ({ context }) => ({ listingKey: context.listingKey, auctionId: context.auction.auctionId }),
            onDone: { target: 'idle', actions: [assign(({ context, event }) => applySnapshot(context, event.output)), raise({ type: 'CLOCK.RESET' })] },
            // The panel keeps what it has; the next reconnect or message tries again.
            onError: { target: 'idle' },
          },
          // A newer re-read replaces one under way (re-entering restarts the call).
          on: { SYNC: { target: 'loading', reenter: true } },
        },
        idle: { on: { SYNC: 'loading' } },
      },
    },
    clock: {
      initial: 'ticking',
      states: {
        ticking: {
          always: { guard: 'clockStopped', target: 'stopped', actions: 'tick' },
          after: { countdownDelay: { target: 'ticking', reenter: true, actions: 'tick' } },
          // A new end (soft close) or start re-arms the countdown from now. The transitions stay
          // inside this region: a re-entering transition declared on a region resets its siblings.
          on: { 'CLOCK.RESET': { target: 'ticking', reenter: true, actions: 'tick' } },
        },
        stopped: { on: { 'CLOCK.RESET': { target: 'ticking', actions: 'tick' } } },
      },
    },
    bidding: {
      initial: 'idle',
      states: {
        idle: {
          on: {
            'BID.SUBMIT': [
              {
                guard: ({ context }) => !canBid({ auction: context.auction, now: Date.now() }),
                actions: ['tick', assign({ banner: { kind: 'error', text: 'Bidding is closed for this auction' } })],
              },
              {
                guard: ({ context }) => parseAmount(context.amount) === null,
                actions: assign({ banner: { kind: 'error', text: 'Please enter a valid bid amount' } }),
              },
              {
                // Spec section 5: checked here, without calling the server.
                guard: ({ context }) => parseAmount(context.amount)! <= context.auction.currentPrice,
                actions: assign(({ context }) => ({
                  banner: { kind: 'error', text: `Bid must be higher than current price of ${formatUsd(context.auction.currentPrice)}` } as const,
                })),
              },
              {
                guard: ({ context }) => context.maxAmount.trim() !== '' && (parseAmount(context.maxAmount) ?? 0) < parseAmount(context.amount)!,
                actions: assign({ banner: { kind: 'error', text: 'Maximum bid must be at least the bid amount' } }),
              },
              {
                // The typed amount stays; the page opens the sign-in modal.
                guard: ({ context }) => context.userId === null,
                actions: [assign({ banner: null }), emit(({ context }) => ({ type: 'signInRequired' as const, action: 'bid' as const, amount: parseAmount(context.amount)! }))],
              },
              { target: 'placing', actions: assign({ banner: null }) },
            ],
            'BUY_NOW.REQUEST': [
              {
                guard: ({ context }) => !canBid({ auction: context.auction, now: Date.now() }) || !context.auction.buyNowAvailable,
                actions: ['tick', assign({ banner: { kind: 'error', text: 'Buy now is not available for this auction' } })],
              },
              {
                guard: ({ context }) => context.userId === null,
                actions: [assign({ banner: null }), emit(({ context }) => ({ type: 'signInRequired' as const, action: 'buyNow' as const, amount: context.auction.buyNowPrice! }))],
              },
              // Buying commits money at once: one more press, on a button that names the price.
              { target: 'confirmingBuyNow', actions: assign({ banner: null }) },
            ],
          },
        },
        confirmingBuyNow: {
          on: {
            'BUY_NOW.CONFIRM': 'buyingNow',
            'BUY_NOW.CANCEL': 'idle',
          },
          // The offer went away while the buyer hesitated (a bid, the end): back to bidding.
          always: { guard: ({ context }) => !context.auction.buyNowAvailable || !canBid({ auction: context.auction, now: Date.now() }), target: 'idle' },
        },
        buyingNow: {
          invoke: {
            src: 'buyNow',
            input: ({ context }) => ({ auctionId: context.auction.auctionId, idempotencyKey: newIdempotencyKey() }),
            onDone: {
              target: 'idle',
              actions: [assign(({ context, event }) => onBoughtNow(context, event.output)), raise({ type: 'CLOCK.RESET' })],
            },
            onError: {
              target: 'idle',
              actions: assign({
                banner: ({ event }) => ({ kind: 'error', text: event.error instanceof Error && event.error.message ? `Failed to buy now: ${event.error.message}` : 'Failed to buy now' }),
              }),
            },
          },
        },
        placing: {
          invoke: {
            src: 'placeBid',
            input: ({ context }) => ({
              auctionId: context.auction.auctionId,
              amount: parseAmount(context.amount)!,
              maxAmount: context.maxAmount.trim() === '' ? null : parseAmount(context.maxAmount),
              idempotencyKey: newIdempotencyKey(),
            }),
            onDone: {
              target: 'idle',
              actions: [assign(({ context, event }) => onBidPlaced(context, event.output)), raise({ type: 'CLOCK.RESET' })],
            },
            onError: { target: 'idle', actions: assign({ banner: ({ event }) => ({ kind: 'error', text: failureReason(event.error) }) }) },
          },
        },
      },
    },
  },
});

/** A buy-now purchase closes the auction at once, sold to this user. */
export function onBoughtNow(context: PanelContext, purchase: Purchase): Partial<PanelContext> {
  return {
    auction: {
      ...context.auction,
      status: 'ENDED',
      result: 'SOLD',
      finalPrice: purchase.amount,
      currentPrice: purchase.amount,
      currentLeaderId: purchase.buyerId,
      buyNowAvailable: false,
      endsAt: purchase.purchasedAt,
    },
    banner: { kind: 'success', text: `You bought this item for ${formatUsd(purchase.amount)}.` },
  };
}

/** What a live message changes (spec section 4): price, leader, minimum, end, and the history. */
export function onLiveMessage(context: PanelContext, message: LiveMessage): Partial<PanelContext> {
  const { auction } = context;
  switch (message.type) {
    case 'bid_placed': {
      const next = withLiveData(auction, message.auctionData);
      const bid: Bid = { id: message.bidData.bidId, ...message.bidData };
      const isNew = !context.bids.some((known) => known.id === bid.id);
      const typed = parseAmount(context.amount);
      return {
        // A bid withdraws buy-now (with a reserve the server may still offer it: the next re-read says so).
        auction: { ...next, bidCount: auction.bidCount + (isNew ? 1 : 0), buyNowAvailable: false },
        bids: [bid, ...context.bids.filter((known) => known.id !== bid.id)].slice(0, BID_HISTORY_SIZE),
        // An amount the new price has overtaken is replaced by the new minimum; a higher one is kept.
        amount: typed === null || typed <= next.currentPrice ? String(next.minimumBid) : context.amount,
      };
    }
    case 'auction_opened':
      return { auction: { ...auction, status: TERMINAL.has(auction.status) ? auction.status : 'ACTIVE' } };
    case 'auction_extended':
      return { auction: { ...auction, endsAt: message.endsAt } };
    case 'auction_closed':
      return { auction: { ...auction, status: 'ENDED', result: message.result, finalPrice: message.finalPrice, endsAt: earlier(auction.endsAt, message.closedAt) } };
    case 'auction_cancelled':
      return { auction: { ...auction, status: 'CANCELLED', cancelReason: message.reason } };
    case 'bid_retracted':
      return {
        auction: withLiveData(auction, message.auctionData),
        bids: context.bids.map((bid) => (bid.id === message.bidId ? { ...bid, status: 'RETRACTED' } : bid)),
        retracted: true,
      };
    case 'subscribed':
    case 'unsubscribed':
    case 'error':
      return {};
    default: {
      const never: never = message;
      return never;
    }
  }
}

function earlier(a: string, b: string): string {
  return Date.parse(a) <= Date.parse(b) ? a : b;
}

/** Spec section 4: after a successful bid the input is set to the bid plus 1. */
function onBidPlaced(context: PanelContext, placed: PlacedBid): Partial<PanelContext> {
  const live = context.auction;
  // The live feed may already have moved past this answer.
  const auction =
    placed.auction.currentPrice >= live.currentPrice
      ? withLiveData(live, placed.auction)
      : { ...live, endsAt: Date.parse(placed.auction.endsAt) > Date.parse(live.endsAt) ? placed.auction.endsAt : live.endsAt };
  // A raised maximum is private (kind MAXIMUM): it is not a bid in the public history.
  const own: Bid = { id: placed.id, bidderId: placed.bidderId, amount: placed.amount, placedAt: placed.placedAt, status: placed.status, kind: placed.kind };
  const bids = placed.kind === 'BID' ? mergeBids([own], context.bids) : context.bids;
  const isNew = placed.kind === 'BID' && !context.bids.some((bid) => bid.id === placed.id);
  return {
    auction: { ...auction, bidCount: auction.bidCount + (isNew ? 1 : 0) },
    bids,
    amount: String(placed.amount + 1),
    maxAmount: '',
    banner: { kind: 'success', text: BID_SUCCESS_MESSAGE },
  };
}

/** "Bidder •••3f2a", or "You" for the signed-in user's own bids. */
export function bidderLabel(bidderId: string, userId: string | null): string {
  if (userId !== null && bidderId === userId) return 'You';
  return `Bidder •••${bidderId.replace(/-/g, '').slice(-4)}`;
}

import { assign, emit, enqueueActions, fromCallback, fromPromise, raise, setup } from 'xstate';
import type { Auction, BidReceipt, BidRequest, PlacedBid, Purchase } from '../api';
import { countdownDelay, hasEnded, isLeader, takesBids, withLiveMessage, withPlacedBid, withPurchase, withSnapshot, type AuctionFacts, type Snapshot } from './auction-facts';
import { amountAfterChange, bidFormProblem, newIdempotencyKey, parseAmount, parseMaximum, suggestedAmount, type BidForm } from './bid-form';
import { NORMAL_CLOSURE } from '../../../lib/live-socket';
import type { FeedEvent, FeedInput } from './live-messages';
import { BIDDING_CLOSED_MESSAGE, BUY_NOW_UNAVAILABLE_MESSAGE, failureMessage, placedBidMessage, purchaseMessage } from './panel-labels';

/** Up to 5 reconnect attempts, 3000 ms apart; then the user may press Reconnect. */
export const MAX_RECONNECT_ATTEMPTS = 5;
export const RECONNECT_DELAY_MS = 3000;

export interface Banner {
  readonly kind: 'error' | 'success' | 'info';
  readonly text: string;
}

export interface PanelContext extends AuctionFacts, BidForm {
  /** The listing's slug or id: the auction is re-read through it. */
  readonly listingKey: string;
  /** The signed-in user, to show "You" and to know whether a bid needs a sign-in first. */
  readonly userId: string | null;
  /** The clock the countdown was last refreshed at. */
  readonly now: number;
  /** Reconnect attempts since the last successful connection. */
  readonly attempts: number;
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

/** Told to the page: a signed-out visitor pressed Place Bid (or Buy now); the user's bid or purchase was accepted, with its signed receipt. */
export type PanelEmitted = { type: 'signInRequired'; action: 'bid' | 'buyNow'; amount: number } | { type: 'receiptIssued'; receipt: BidReceipt };

/** Bidding is open now, by the engine's rules (a scheduled auction whose start has come is live). */
export function canBid(context: Pick<PanelContext, 'auction' | 'now'>): boolean {
  return takesBids(context.auction, context.now);
}

const closedBanner: Banner = { kind: 'error', text: BIDDING_CLOSED_MESSAGE };

/**
 * The auction panel: the live feed with its reconnect policy, a re-read of the auction and its
 * recent bids whenever the feed (re)subscribes, the countdown, and placing bids. Four regions run
 * side by side. The calls are actors the page provides and tests replace.
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
    clockStopped: ({ context }) => context.auction.status === 'CANCELLED' || hasEnded(context.auction, Date.now()),
    biddingClosed: ({ context }) => !takesBids(context.auction, Date.now()),
    formInvalid: ({ context }) => bidFormProblem(context, context.auction) !== null,
    signedOut: ({ context }) => context.userId === null,
    buyNowUnavailable: ({ context }) => !context.auction.buyNowAvailable || !takesBids(context.auction, Date.now()),
  },
  actions: {
    tick: assign({ now: () => Date.now() }),
  },
}).createMachine({
  id: 'auctionPanel',
  type: 'parallel',
  context: ({ input }) => ({
    listingKey: input.listingKey,
    auction: input.auction,
    bids: [],
    cancelReason: null,
    userId: input.userId,
    now: Date.now(),
    attempts: 0,
    amount: suggestedAmount(input.auction, input.userId),
    maxAmount: '',
    banner: null,
  }),
  on: {
    'FEED.MESSAGE': {
      actions: enqueueActions(({ context, event, enqueue }) => {
        const { message } = event;
        const facts = withLiveMessage(context, message);
        enqueue.assign({ ...facts, amount: amountAfterChange(context.amount, facts.auction, context.userId) });
        // A retraction changes the history in ways only a re-read shows.
        if (message.type === 'bid_retracted') enqueue.raise({ type: 'SYNC' });
        if (message.type === 'auction_extended' || message.type === 'bid_placed' || message.type === 'auction_opened') {
          enqueue.raise({ type: 'CLOCK.RESET' });
        }
      }),
    },
    'USER.CHANGE': {
      actions: assign(({ context, event }) => ({
        userId: event.userId,
        // An untouched suggestion follows the user: the leader, signed in, is offered no bid against themselves.
        amount: context.amount === suggestedAmount(context.auction, context.userId) ? suggestedAmount(context.auction, event.userId) : context.amount,
      })),
    },
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
            onDone: {
              target: 'idle',
              actions: [
                assign(({ context, event }) => {
                  const facts = withSnapshot(context, event.output);
                  return { ...facts, amount: amountAfterChange(context.amount, facts.auction, context.userId) };
                }),
                raise({ type: 'CLOCK.RESET' }),
              ],
            },
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
              { guard: 'biddingClosed', actions: ['tick', assign({ banner: closedBanner })] },
              // Checked here, without calling the server.
              { guard: 'formInvalid', actions: assign({ banner: ({ context }) => ({ kind: 'error', text: bidFormProblem(context, context.auction)! }) }) },
              {
                // The typed amount stays; the page opens the sign-in modal.
                guard: 'signedOut',
                actions: [assign({ banner: null }), emit(({ context }) => ({ type: 'signInRequired' as const, action: 'bid' as const, amount: parseAmount(context.amount)! }))],
              },
              { target: 'placing', actions: assign({ banner: null }) },
            ],
            'BUY_NOW.REQUEST': [
              { guard: 'buyNowUnavailable', actions: ['tick', assign({ banner: { kind: 'error', text: BUY_NOW_UNAVAILABLE_MESSAGE } })] },
              {
                guard: 'signedOut',
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
          always: { guard: 'buyNowUnavailable', target: 'idle' },
        },
        buyingNow: {
          invoke: {
            src: 'buyNow',
            input: ({ context }) => ({ auctionId: context.auction.auctionId, idempotencyKey: newIdempotencyKey() }),
            onDone: {
              target: 'idle',
              actions: [
                assign(({ context, event }) => ({ ...withPurchase(context, event.output), banner: { kind: 'success', text: purchaseMessage(event.output) } as const })),
                raise({ type: 'CLOCK.RESET' }),
                emit(({ event }) => ({ type: 'receiptIssued' as const, receipt: event.output.receipt })),
              ],
            },
            onError: { target: 'idle', actions: assign({ banner: ({ event }) => ({ kind: 'error', text: failureMessage('Failed to buy now', event.error) }) }) },
          },
        },
        placing: {
          invoke: {
            src: 'placeBid',
            input: ({ context }) => ({
              auctionId: context.auction.auctionId,
              amount: parseAmount(context.amount)!,
              maxAmount: parseMaximum(context),
              idempotencyKey: newIdempotencyKey(),
            }),
            onDone: {
              target: 'idle',
              actions: [
                assign(({ context, event }) => {
                  const facts = withPlacedBid(context, event.output);
                  // The input never suggests a bid against oneself: leading, it stays empty.
                  const amount = isLeader(facts.auction, context.userId) ? '' : String(event.output.amount + 1);
                  return { ...facts, amount, maxAmount: '', banner: { kind: 'success', text: placedBidMessage(event.output) } as const };
                }),
                raise({ type: 'CLOCK.RESET' }),
                emit(({ event }) => ({ type: 'receiptIssued' as const, receipt: event.output.receipt })),
              ],
            },
            onError: { target: 'idle', actions: assign({ banner: ({ event }) => ({ kind: 'error', text: failureMessage('Failed to place bid', event.error) }) }) },
          },
        },
      },
    },
  },
});

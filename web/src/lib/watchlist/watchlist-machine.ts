import { assign, fromPromise, setup } from 'xstate';
import type { Watchlist, WatchlistItem } from '../../../../api/contracts/watchlist';
import { errorMessage } from '../api-client';
import type { LocalHeart } from './local-hearts';
import type { MergeResult } from './watchlist-api';

/** A followed listing as every page shows it: the account's watchlist item, or a heart kept on this device in the same shape. */
export interface FollowedItem extends Omit<WatchlistItem, 'listingStatus'> {
  /** A public listing's status from the server; a heart's listing as it was when saved. */
  readonly listingStatus: WatchlistItem['listingStatus'] | LocalHeart['status'];
  /** Kept on this device (signed out): its price and statuses are as they were when saved; its auction's own status was not known. */
  readonly savedLocally: boolean;
}

/** What a heart knows of its listing when pressed: enough to show it at once among the followed items. */
export type FollowTarget = Omit<LocalHeart, 'savedAt'>;

/** A heart's listing as a followed item, added at `addedAt`. */
export function followedItem(target: FollowTarget, addedAt: string, savedLocally: boolean): FollowedItem {
  return {
    listingId: target.id,
    slug: target.slug ?? '',
    title: target.title,
    imageUrl: target.imageUrl,
    listingStatus: target.status,
    auctionStatus: null,
    currentPrice: target.price,
    endsAt: target.endsAt,
    addedAt,
    savedLocally,
  };
}

export function itemFromHeart(heart: LocalHeart): FollowedItem {
  return followedItem(heart, heart.savedAt, true);
}

/** One change sent to the server: follow (with the item shown meanwhile) or stop following. */
export type FollowChange =
  | { readonly listingId: string; readonly follow: true; readonly item: FollowedItem }
  | { readonly listingId: string; readonly follow: false; readonly title: string };

export interface WatchlistContext {
  readonly userId: string | null;
  /** Hearts given on this device, to add to the account at sign-in. */
  readonly toMerge: readonly string[];
  /** What the hearts and pages show: the server's list with the changes not answered yet applied. */
  readonly items: readonly FollowedItem[];
  /** What the server is known to hold: a refused change goes back to it. */
  readonly confirmed: readonly FollowedItem[];
  /** Changes for the server, oldest first, sent one at a time (so they land in the order they were made); the first is on its way. */
  readonly queue: readonly FollowChange[];
  readonly loaded: boolean;
  readonly error: string | null;
}

export type WatchlistEvent =
  | { type: 'SIGNED_IN'; userId: string; hearts: readonly LocalHeart[] }
  | { type: 'SIGNED_OUT' }
  | { type: 'TOGGLE'; target: FollowTarget }
  | { type: 'UNFOLLOW'; listingId: string }
  | { type: 'RELOAD' }
  | { type: 'DISMISS' };

const byListing = (listingId: string) => (item: FollowedItem) => item.listingId === listingId;
const without = (items: readonly FollowedItem[], listingId: string) => items.filter((item) => item.listingId !== listingId);

/** Newest added first, as the server answers. */
function sortedByAdded(items: readonly FollowedItem[]): FollowedItem[] {
  return [...items].sort((a, b) => Date.parse(b.addedAt) - Date.parse(a.addedAt));
}

function applied(items: readonly FollowedItem[], change: FollowChange): readonly FollowedItem[] {
  if (!change.follow) return without(items, change.listingId);
  return items.some(byListing(change.listingId)) ? items : [change.item, ...items];
}

/** The server's list with the changes it has not answered yet: a reload never undoes a heart just pressed. */
export function withPending(loaded: readonly FollowedItem[], queue: readonly FollowChange[]): readonly FollowedItem[] {
  return queue.reduce(applied, loaded);
}

/**
 * A change the server refused: the listing goes back to what the server holds, unless a later
 * change to it is still waiting (that one decides, and rolls back itself if refused).
 */
export function afterRefusal(context: Pick<WatchlistContext, 'items' | 'confirmed' | 'queue'>, change: FollowChange): readonly FollowedItem[] {
  if (context.queue.slice(1).some((later) => later.listingId === change.listingId)) return context.items;
  const held = context.confirmed.find(byListing(change.listingId));
  const rest = without(context.items, change.listingId);
  return held ? sortedByAdded([...rest, held]) : rest;
}

function refusalMessage(change: FollowChange, error: unknown): string {
  const reason = errorMessage(error, 'Network error');
  return change.follow ? `Could not add “${change.item.title}” to your favourites: ${reason}` : `Could not remove “${change.title}” from your favourites: ${reason}`;
}

function mergeFailureMessage(failed: number): string {
  const items = failed === 1 ? '1 item you followed on this device' : `${failed} items you followed on this device`;
  return `${items} could not be added to your account. They stay on this device and are tried again when you next sign in.`;
}

const fromServer = (watchlist: Watchlist): FollowedItem[] => watchlist.content.map((item) => ({ ...item, savedLocally: false }));

const signedOutContext: WatchlistContext = { userId: null, toMerge: [], items: [], confirmed: [], queue: [], loaded: false, error: null };

/**
 * The signed-in user's watchlist (the hearts), kept on the server: at sign-in (and when a session
 * is restored) the hearts given on this device are added to the account and then forgotten here;
 * the list is read; each heart pressed shows at once and is sent in order, and a refusal puts the
 * listing back as the server holds it, with a message. Signed out, the machine rests: the hearts
 * are this device's (local-hearts.ts).
 *
 * The calls are actors the app provides (followed.tsx) and tests replace; `forgetLocalHearts` too.
 */
export const watchlistMachine = setup({
  types: {
    context: {} as WatchlistContext,
    events: {} as WatchlistEvent,
  },
  actors: {
    mergeHearts: fromPromise<MergeResult, { listingIds: readonly string[] }>(async () => {
      throw new Error('mergeHearts not provided');
    }),
    loadWatchlist: fromPromise<Watchlist>(async () => {
      throw new Error('loadWatchlist not provided');
    }),
    saveChange: fromPromise<void, FollowChange>(async () => {
      throw new Error('saveChange not provided');
    }),
  },
  actions: {
    forgetLocalHearts: (_, _params: { listingIds: readonly string[] }) => {},
  },
  guards: {
    otherUser: ({ context, event }) => event.type === 'SIGNED_IN' && event.userId !== context.userId,
    // Not before this device's hearts are in the account: a heart taken back meanwhile must reach the server after them.
    mayNowSend: ({ context }) => context.queue.length > 0 && context.toMerge.length === 0,
  },
}).createMachine({
  id: 'watchlist',
  initial: 'signedOut',
  context: signedOutContext,
  states: {
    signedOut: {
      entry: assign(signedOutContext),
      on: { SIGNED_IN: 'signedIn' },
    },
    signedIn: {
      type: 'parallel',
      // Entered by SIGNED_IN only: the hearts of this device show while they are added to the account.
      entry: assign(({ event }) => {
        const { userId, hearts } = event as Extract<WatchlistEvent, { type: 'SIGNED_IN' }>;
        return { ...signedOutContext, userId, toMerge: hearts.map((heart) => heart.id), items: hearts.map(itemFromHeart) };
      }),
      on: {
        SIGNED_IN: { guard: 'otherUser', target: 'signedIn', reenter: true },
        SIGNED_OUT: 'signedOut',
        TOGGLE: {
          actions: assign(({ context, event }) => {
            const followed = context.items.find(byListing(event.target.id));
            const change: FollowChange = followed
              ? { listingId: event.target.id, follow: false, title: followed.title }
              : { listingId: event.target.id, follow: true, item: followedItem(event.target, new Date().toISOString(), false) };
            return { items: applied(context.items, change), queue: [...context.queue, change], error: null };
          }),
        },
        UNFOLLOW: {
          actions: assign(({ context, event }) => {
            const followed = context.items.find(byListing(event.listingId));
            if (!followed) return {};
            const change: FollowChange = { listingId: event.listingId, follow: false, title: followed.title };
            return { items: applied(context.items, change), queue: [...context.queue, change], error: null };
          }),
        },
        DISMISS: { actions: assign({ error: null }) },
      },
      states: {
        list: {
          initial: 'merging',
          states: {
            merging: {
              invoke: {
                src: 'mergeHearts',
                input: ({ context }) => ({ listingIds: context.toMerge }),
                onDone: {
                  target: 'loading',
                  actions: [
                    // Forgotten here only once the account holds them (or they no longer exist).
                    { type: 'forgetLocalHearts', params: ({ event }) => ({ listingIds: event.output.settled }) },
                    assign(({ event }) => ({ toMerge: [], error: event.output.failed.length > 0 ? mergeFailureMessage(event.output.failed.length) : null })),
                  ],
                },
                onError: { target: 'loading', actions: assign(({ context }) => ({ toMerge: [], error: mergeFailureMessage(context.toMerge.length) })) },
              },
            },
            loading: {
              invoke: {
                src: 'loadWatchlist',
                onDone: {
                  target: 'ready',
                  actions: assign(({ context, event }) => {
                    const confirmed = fromServer(event.output);
                    return { confirmed, items: withPending(confirmed, context.queue), loaded: true };
                  }),
                },
                onError: { target: 'failed', actions: assign({ error: ({ event }) => `Failed to load your favourites: ${errorMessage(event.error, 'Network error')}` }) },
              },
            },
            ready: { on: { RELOAD: 'loading' } },
            failed: { on: { RELOAD: { target: 'loading', actions: assign({ error: null }) } } },
          },
        },
        saving: {
          initial: 'idle',
          states: {
            idle: { always: { guard: 'mayNowSend', target: 'sending' } },
            sending: {
              invoke: {
                src: 'saveChange',
                input: ({ context }) => context.queue[0]!,
                onDone: {
                  target: 'idle',
                  actions: assign(({ context }) => {
                    const [change, ...rest] = context.queue;
                    return { confirmed: applied(context.confirmed, change!), queue: rest };
                  }),
                },
                onError: {
                  target: 'idle',
                  actions: assign(({ context, event }) => {
                    const [change, ...rest] = context.queue;
                    return { items: afterRefusal(context, change!), queue: rest, error: refusalMessage(change!, event.error) };
                  }),
                },
              },
            },
          },
        },
      },
    },
  },
});

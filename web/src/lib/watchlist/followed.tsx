import { createActorContext } from '@xstate/react';
import { useEffect, useMemo, useSyncExternalStore, type ReactNode } from 'react';
import { fromPromise, type SnapshotFrom } from 'xstate';
import type { Watchlist } from '../../../../api/contracts/watchlist';
import { useAccessToken, useAuth } from '../auth/session';
import { localHearts } from './local-hearts';
import { fetchWatchlist, mergeLocalHearts, saveFollow } from './watchlist-api';
import { itemFromHeart, watchlistMachine, type FollowChange, type FollowedItem, type FollowTarget } from './watchlist-machine';

export type { FollowedItem, FollowTarget };

/**
 * The one home of "is this followed, follow it": the hearts on cards and listing pages, the
 * followed-items pages and the header all read and change it here. Signed out, the hearts are this
 * device's; signed in, the account's watchlist on the server (watchlist-machine.ts).
 */

const appWatchlist = watchlistMachine.provide({
  actors: {
    mergeHearts: fromPromise(({ input }: { input: { listingIds: readonly string[] } }) => mergeLocalHearts(input.listingIds, (listingId) => saveFollow(listingId, true))),
    loadWatchlist: fromPromise<Watchlist>(({ signal }) => fetchWatchlist(signal)),
    saveChange: fromPromise(({ input }: { input: FollowChange }) => saveFollow(input.listingId, input.follow)),
  },
  actions: {
    forgetLocalHearts: (_, { listingIds }) => localHearts.forget(listingIds),
  },
});

const Watchlist = createActorContext(appWatchlist);

/** Inside the SessionProvider: the watchlist follows who is signed in. */
export function FollowedProvider({ children }: { children: ReactNode }) {
  return (
    <Watchlist.Provider>
      <FollowsTheSession />
      {children}
    </Watchlist.Provider>
  );
}

/** Tells the watchlist who is signed in, once their token is usable (a restored, expired one is refreshed first). */
function FollowsTheSession() {
  const actor = Watchlist.useActorRef();
  const { status, user } = useAuth();
  const usable = useAccessToken() !== null;
  const userId = usable ? (user?.id ?? null) : null;
  const signedOut = status === 'signedOut';
  useEffect(() => {
    if (userId) actor.send({ type: 'SIGNED_IN', userId, hearts: localHearts.read() });
    else if (signedOut) actor.send({ type: 'SIGNED_OUT' });
  }, [actor, userId, signedOut]);
  return null;
}

export interface FollowedView {
  /** Newest added first. */
  readonly items: readonly FollowedItem[];
  /** 'device': signed out, the hearts kept here; 'loading': the account's list is being read. */
  readonly source: 'device' | 'loading' | 'account' | 'failed';
  /** A refused heart, a list that could not be read, hearts that could not be added: shown until dismissed. */
  readonly error: string | null;
}

function serverView(snapshot: SnapshotFrom<typeof appWatchlist>): FollowedView | null {
  if (snapshot.matches('signedOut')) return null;
  const { items, error, loaded } = snapshot.context;
  const source = snapshot.matches({ signedIn: { list: 'failed' } }) ? 'failed' : loaded ? 'account' : 'loading';
  return { items, source, error };
}

function sameView(a: FollowedView | null, b: FollowedView | null): boolean {
  return a === b || (a !== null && b !== null && a.items === b.items && a.source === b.source && a.error === b.error);
}

export function useFollowed(): FollowedView {
  const server = Watchlist.useSelector(serverView, sameView);
  const hearts = useSyncExternalStore(localHearts.subscribe, localHearts.read);
  const onDevice = useMemo<FollowedView>(() => ({ items: hearts.map(itemFromHeart), source: 'device', error: null }), [hearts]);
  return server ?? onDevice;
}

/** For every heart on a page: reads one answer, not the whole list. */
export function useIsFollowed(listingId: string): boolean {
  const onServer = Watchlist.useSelector((snapshot) => (snapshot.matches('signedOut') ? null : snapshot.context.items.some((item) => item.listingId === listingId)));
  const onDevice = useSyncExternalStore(localHearts.subscribe, () => localHearts.read().some((heart) => heart.id === listingId));
  return onServer ?? onDevice;
}

export function useFollowActions() {
  const actor = Watchlist.useActorRef();
  return useMemo(() => {
    const signedIn = () => !actor.getSnapshot().matches('signedOut');
    return {
      /** The heart: follow, or stop following. */
      toggle(target: FollowTarget) {
        if (signedIn()) actor.send({ type: 'TOGGLE', target });
        else localHearts.toggle(target);
      },
      unfollow(listingId: string) {
        if (signedIn()) actor.send({ type: 'UNFOLLOW', listingId });
        else localHearts.forget([listingId]);
      },
      /** Reads the account's list again (prices and statuses move); nothing to do signed out. */
      reload() {
        actor.send({ type: 'RELOAD' });
      },
      dismiss() {
        actor.send({ type: 'DISMISS' });
      },
    };
  }, [actor]);
}

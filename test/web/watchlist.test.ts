import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { Watchlist, WatchlistItem } from '../../api/contracts/watchlist';
import { ApiError } from '../../web/src/lib/api-client';
import type { LocalHeart } from '../../web/src/lib/watchlist/local-hearts';
import { mergeLocalHearts, type MergeResult } from '../../web/src/lib/watchlist/watchlist-api';
import { afterRefusal, followedItem, watchlistMachine, withPending, type FollowChange, type FollowTarget } from '../../web/src/lib/watchlist/watchlist-machine';

function heart(id: string): LocalHeart {
  return { id, slug: `slug-${id}`, title: `Jersey ${id}`, imageUrl: null, price: '10.00', status: 'LIVE', endsAt: '2032-01-02T00:00:00.000Z', savedAt: '2031-12-01T00:00:00.000Z' };
}

function target(id: string): FollowTarget {
  const { savedAt: _savedAt, ...rest } = heart(id);
  return rest;
}

function serverItem(id: string, addedAt = '2031-12-10T00:00:00.000Z'): WatchlistItem {
  return {
    listingId: id,
    slug: `slug-${id}`,
    title: `Jersey ${id}`,
    imageUrl: null,
    listingStatus: 'LIVE',
    auctionStatus: 'ACTIVE',
    currentPrice: '25.00',
    endsAt: '2032-01-02T00:00:00.000Z',
    addedAt,
  };
}

/** A call the test answers when it wants. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

interface Calls {
  merged: Array<readonly string[]>;
  forgotten: Array<readonly string[]>;
  loads: number;
  saved: FollowChange[];
}

function start(options: {
  merge?: (listingIds: readonly string[]) => Promise<MergeResult>;
  load?: () => Promise<Watchlist>;
  save?: (change: FollowChange) => Promise<void>;
}) {
  const calls: Calls = { merged: [], forgotten: [], loads: 0, saved: [] };
  const actor = createActor(
    watchlistMachine.provide({
      actors: {
        mergeHearts: fromPromise(async ({ input }: { input: { listingIds: readonly string[] } }) => {
          calls.merged.push(input.listingIds);
          return (options.merge ?? (async (listingIds) => ({ settled: listingIds, failed: [] })))(input.listingIds);
        }),
        loadWatchlist: fromPromise(async () => {
          calls.loads += 1;
          return (options.load ?? (async () => ({ content: [] })))();
        }),
        saveChange: fromPromise(async ({ input }: { input: FollowChange }) => {
          calls.saved.push(input);
          await (options.save ?? (async () => undefined))(input);
        }),
      },
      actions: { forgetLocalHearts: (_, { listingIds }) => calls.forgotten.push(listingIds) },
    }),
  ).start();
  return { actor, calls };
}

const shownIds = (actor: ReturnType<typeof start>['actor']) => actor.getSnapshot().context.items.map((item) => item.listingId);

describe('merging the hearts kept on this device into the account', () => {
  it('adds each one; a listing that no longer exists (404) counts as done; any other refusal keeps the heart for next time', async () => {
    const follow = vi.fn(async (listingId: string) => {
      if (listingId === 'gone') throw new ApiError('Listing not found', 404);
      if (listingId === 'flaky') throw new ApiError('Network error', 0, 'NETWORK');
    });
    expect(await mergeLocalHearts(['a', 'gone', 'flaky', 'b'], follow)).toEqual({ settled: ['a', 'gone', 'b'], failed: ['flaky'] });
    // One after the other, in the order the hearts were kept.
    expect(follow.mock.calls.map(([listingId]) => listingId)).toEqual(['a', 'gone', 'flaky', 'b']);
    expect(await mergeLocalHearts([], follow)).toEqual({ settled: [], failed: [] });
  });

  it('at sign-in: the device hearts show while they are added, are forgotten here only once the account holds them, then the account list is read', async () => {
    const merge = deferred<MergeResult>();
    const { actor, calls } = start({ merge: () => merge.promise, load: async () => ({ content: [serverItem('b'), serverItem('a'), serverItem('c', '2031-11-01T00:00:00.000Z')] }) });
    actor.send({ type: 'SIGNED_IN', userId: 'u1', hearts: [heart('a'), heart('b')] });
    await waitFor(actor, () => calls.merged.length === 1);
    expect(calls.merged).toEqual([['a', 'b']]);
    expect(shownIds(actor)).toEqual(['a', 'b']);
    expect(actor.getSnapshot().context.items[0]).toMatchObject({ savedLocally: true, currentPrice: '10.00' });
    // Not yet added: nothing forgotten, nothing read.
    expect(calls.forgotten).toEqual([]);
    expect(calls.loads).toBe(0);

    merge.resolve({ settled: ['a', 'b'], failed: [] });
    await waitFor(actor, (snapshot) => snapshot.matches({ signedIn: { list: 'ready' } }));
    expect(calls.forgotten).toEqual([['a', 'b']]);
    expect(calls.loads).toBe(1);
    expect(shownIds(actor)).toEqual(['b', 'a', 'c']);
    expect(actor.getSnapshot().context.items[0]).toMatchObject({ savedLocally: false, currentPrice: '25.00', auctionStatus: 'ACTIVE' });
    expect(actor.getSnapshot().context.error).toBeNull();
  });

  it('hearts the account could not take stay on this device, and the user is told', async () => {
    const { actor, calls } = start({ merge: async () => ({ settled: ['a', 'gone'], failed: ['flaky'] }) });
    actor.send({ type: 'SIGNED_IN', userId: 'u1', hearts: [heart('a'), heart('gone'), heart('flaky')] });
    await waitFor(actor, (snapshot) => snapshot.matches({ signedIn: { list: 'ready' } }));
    expect(calls.forgotten).toEqual([['a', 'gone']]);
    expect(actor.getSnapshot().context.error).toBe(
      '1 item you followed on this device could not be added to your account. They stay on this device and are tried again when you next sign in.',
    );
  });

  it('a merge that fails outright forgets nothing', async () => {
    const { actor, calls } = start({ merge: async () => Promise.reject(new Error('boom')) });
    actor.send({ type: 'SIGNED_IN', userId: 'u1', hearts: [heart('a'), heart('b')] });
    await waitFor(actor, (snapshot) => snapshot.matches({ signedIn: { list: 'ready' } }));
    expect(calls.forgotten).toEqual([]);
    expect(actor.getSnapshot().context.error).toContain('2 items you followed on this device could not be added');
  });

  it('a restored session merges too; the same user again (a refreshed token) does not start over; another user does', async () => {
    const { actor, calls } = start({});
    actor.send({ type: 'SIGNED_IN', userId: 'u1', hearts: [] });
    await waitFor(actor, (snapshot) => snapshot.matches({ signedIn: { list: 'ready' } }));
    actor.send({ type: 'SIGNED_IN', userId: 'u1', hearts: [heart('x')] });
    expect(calls.merged).toEqual([[]]);
    actor.send({ type: 'SIGNED_OUT' });
    expect(actor.getSnapshot().matches('signedOut')).toBe(true);
    expect(actor.getSnapshot().context.items).toEqual([]);
    actor.send({ type: 'SIGNED_IN', userId: 'u2', hearts: [heart('x')] });
    await waitFor(actor, (snapshot) => snapshot.matches({ signedIn: { list: 'ready' } }));
    expect(calls.merged).toEqual([[], ['x']]);
    expect(calls.loads).toBe(2);
  });
});

describe('hearts pressed while signed in', () => {
  afterEach(() => vi.useRealTimers());

  async function ready(content: WatchlistItem[], save?: (change: FollowChange) => Promise<void>) {
    const started = start({ load: async () => ({ content }), ...(save ? { save } : {}) });
    started.actor.send({ type: 'SIGNED_IN', userId: 'u1', hearts: [] });
    await waitFor(started.actor, (snapshot) => snapshot.matches({ signedIn: { list: 'ready' } }));
    return started;
  }

  it('show at once, then go to the server one at a time, in the order pressed', async () => {
    const answers: Array<ReturnType<typeof deferred<void>>> = [];
    const { actor, calls } = await ready([serverItem('a')], () => {
      const answer = deferred<void>();
      answers.push(answer);
      return answer.promise;
    });
    actor.send({ type: 'TOGGLE', target: target('b') });
    actor.send({ type: 'TOGGLE', target: target('a') });
    expect(shownIds(actor)).toEqual(['b']);
    expect(actor.getSnapshot().context.items[0]).toMatchObject({ listingId: 'b', title: 'Jersey b', savedLocally: false });
    await waitFor(actor, () => calls.saved.length === 1);
    expect(calls.saved[0]).toMatchObject({ listingId: 'b', follow: true });
    answers[0]!.resolve();
    await waitFor(actor, () => calls.saved.length === 2);
    expect(calls.saved[1]).toEqual({ listingId: 'a', follow: false, title: 'Jersey a' });
    answers[1]!.resolve();
    await waitFor(actor, (snapshot) => snapshot.context.queue.length === 0);
    expect(actor.getSnapshot().context.confirmed.map((item) => item.listingId)).toEqual(['b']);
    expect(actor.getSnapshot().context.error).toBeNull();
  });

  it('a refused heart goes back as the server holds it, with a message; dismissing clears it', async () => {
    const { actor } = await ready([serverItem('a')], async (change) => {
      throw new ApiError(change.follow ? 'Listing not found' : 'Service unavailable', change.follow ? 404 : 503);
    });
    actor.send({ type: 'TOGGLE', target: target('b') });
    expect(shownIds(actor)).toEqual(['b', 'a']);
    await waitFor(actor, (snapshot) => snapshot.context.error !== null);
    expect(shownIds(actor)).toEqual(['a']);
    expect(actor.getSnapshot().context.error).toBe('Could not add “Jersey b” to your favourites: Listing not found');

    actor.send({ type: 'UNFOLLOW', listingId: 'a' });
    expect(shownIds(actor)).toEqual([]);
    await waitFor(actor, (snapshot) => snapshot.context.queue.length === 0 && snapshot.context.items.length === 1);
    expect(shownIds(actor)).toEqual(['a']);
    expect(actor.getSnapshot().context.error).toBe('Could not remove “Jersey a” from your favourites: Service unavailable');
    actor.send({ type: 'DISMISS' });
    expect(actor.getSnapshot().context.error).toBeNull();
  });

  it('a reload keeps the hearts the server has not answered yet', async () => {
    const answer = deferred<void>();
    let content = [serverItem('a')];
    const started = start({ load: async () => ({ content }), save: () => answer.promise });
    const { actor } = started;
    actor.send({ type: 'SIGNED_IN', userId: 'u1', hearts: [] });
    await waitFor(actor, (snapshot) => snapshot.matches({ signedIn: { list: 'ready' } }));
    actor.send({ type: 'TOGGLE', target: target('b') });
    content = [serverItem('a'), serverItem('c')];
    actor.send({ type: 'RELOAD' });
    await waitFor(actor, (snapshot) => snapshot.matches({ signedIn: { list: 'ready' } }) && snapshot.context.items.length === 3);
    expect(shownIds(actor)).toEqual(['b', 'a', 'c']);
    answer.resolve();
  });

  it('nothing is sent before the device hearts are in the account', async () => {
    const merge = deferred<MergeResult>();
    const { actor, calls } = start({ merge: () => merge.promise });
    actor.send({ type: 'SIGNED_IN', userId: 'u1', hearts: [heart('a')] });
    actor.send({ type: 'TOGGLE', target: target('a') });
    expect(shownIds(actor)).toEqual([]);
    await Promise.resolve();
    expect(calls.saved).toEqual([]);
    merge.resolve({ settled: ['a'], failed: [] });
    await waitFor(actor, () => calls.saved.length === 1);
    expect(calls.saved[0]).toEqual({ listingId: 'a', follow: false, title: 'Jersey a' });
  });
});

describe('the list with changes under way', () => {
  const a = { ...serverItem('a'), savedLocally: false };
  const b = followedItem(target('b'), '2031-12-20T00:00:00.000Z', false);

  it('applies pending changes to a list just read', () => {
    expect(withPending([a], [{ listingId: 'b', follow: true, item: b }]).map((item) => item.listingId)).toEqual(['b', 'a']);
    expect(withPending([a], [{ listingId: 'a', follow: false, title: a.title }])).toEqual([]);
    // Already on the server's list: shown once, as the server has it.
    expect(withPending([a], [{ listingId: 'a', follow: true, item: { ...a, currentPrice: '1.00' } }])).toEqual([a]);
  });

  it('a refusal is undone only when no later change to the same listing waits', () => {
    const follow: FollowChange = { listingId: 'b', follow: true, item: b };
    const unfollow: FollowChange = { listingId: 'b', follow: false, title: b.title };
    expect(afterRefusal({ items: [b, a], confirmed: [a], queue: [follow] }, follow)).toEqual([a]);
    expect(afterRefusal({ items: [a], confirmed: [a], queue: [follow, unfollow] }, follow)).toEqual([a]);
    expect(afterRefusal({ items: [a], confirmed: [b, a], queue: [unfollow] }, unfollow)).toEqual([b, a]);
  });
});

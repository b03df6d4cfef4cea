import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromCallback, fromPromise, waitFor } from 'xstate';
import { noticeKindSchema, type MarkReadRequest, type Notification, type NotificationsPage } from '../../api/contracts/notifications';
import { inAppLink, markedRead, NOTICE_KIND_LABELS, withLiveNotice, withNextPage } from '../../web/src/features/notifications/notice-list';
import { notificationsMachine, readRequest } from '../../web/src/features/notifications/notifications-machine';
import { ApiError } from '../../web/src/lib/api-client';
import { FIRST_RECONNECT_DELAY_MS, noticesMachine, reconnectDelay } from '../../web/src/lib/notifications/notices-machine';
import { userFeedEvent, type UserFeedCommand, type UserFeedEvent } from '../../web/src/lib/notifications/user-socket';

function notice(id: string, overrides: Partial<Notification> = {}): Notification {
  return {
    id,
    kind: 'OUTBID',
    listingId: 'l-1',
    auctionId: 'a-1',
    title: `You were outbid (${id})`,
    body: 'Someone bid $52.00 on the Brady jersey.',
    link: '/marketplace/brady-jersey',
    createdAt: '2032-03-01T12:00:00.000Z',
    readAt: null,
    ...overrides,
  };
}

interface FakeFeed {
  readonly sent: UserFeedCommand[];
  readonly send: (event: UserFeedEvent) => void;
  stopped: boolean;
}

/** The bell with a socket the test drives: what the machine sends is recorded, what the server says is sent back. */
function startBell() {
  const feeds: FakeFeed[] = [];
  const actor = createActor(
    noticesMachine.provide({
      actors: {
        userFeed: fromCallback<UserFeedCommand>(({ sendBack, receive }) => {
          const feed: FakeFeed = { sent: [], send: sendBack, stopped: false };
          feeds.push(feed);
          receive((command) => feed.sent.push(command));
          return () => {
            feed.stopped = true;
          };
        }),
      },
    }),
  ).start();
  const emitted: Notification[] = [];
  actor.on('notice', (event) => emitted.push(event.notification));
  return { actor, feeds, emitted, count: () => actor.getSnapshot().context.unreadCount };
}

const authenticate = (token: string): UserFeedCommand => ({ type: 'SEND', message: { action: 'authenticate', token } });

describe('the bell', () => {
  afterEach(() => vi.useRealTimers());

  it('opens no socket signed out; signed in, authenticates once the socket is open and shows the count the server gives', () => {
    const bell = startBell();
    expect(bell.feeds).toHaveLength(0);
    expect(bell.count()).toBeNull();
    bell.actor.send({ type: 'TOKEN_CHANGED', token: 'token-1' });
    expect(bell.feeds).toHaveLength(1);
    expect(bell.feeds[0]!.sent).toEqual([]);
    bell.feeds[0]!.send({ type: 'FEED.OPEN' });
    expect(bell.feeds[0]!.sent).toEqual([authenticate('token-1')]);
    bell.feeds[0]!.send({ type: 'AUTHENTICATED', unreadCount: 3 });
    expect(bell.count()).toBe(3);
  });

  it('a notice raises the count and is told to listeners; a count change without a notice resets it', () => {
    const bell = startBell();
    bell.actor.send({ type: 'TOKEN_CHANGED', token: 'token-1' });
    const feed = bell.feeds[0]!;
    feed.send({ type: 'FEED.OPEN' });
    feed.send({ type: 'AUTHENTICATED', unreadCount: 3 });
    feed.send({ type: 'NOTICE', notification: notice('n-4'), unreadCount: 4 });
    expect(bell.count()).toBe(4);
    expect(bell.emitted.map((item) => item.id)).toEqual(['n-4']);
    feed.send({ type: 'UNREAD_COUNT', unreadCount: 0 });
    expect(bell.count()).toBe(0);
    // A page that read the count over HTTP.
    bell.actor.send({ type: 'UNREAD_COUNT_KNOWN', unreadCount: 2 });
    expect(bell.count()).toBe(2);
  });

  it('authenticates again on the same socket whenever the session gets a new token', () => {
    const bell = startBell();
    bell.actor.send({ type: 'TOKEN_CHANGED', token: 'token-1' });
    const feed = bell.feeds[0]!;
    // A token that changes before the socket opens is the one sent.
    bell.actor.send({ type: 'TOKEN_CHANGED', token: 'token-2' });
    feed.send({ type: 'FEED.OPEN' });
    feed.send({ type: 'AUTHENTICATED', unreadCount: 1 });
    bell.actor.send({ type: 'TOKEN_CHANGED', token: 'token-2' });
    bell.actor.send({ type: 'TOKEN_CHANGED', token: 'token-3' });
    expect(feed.sent).toEqual([authenticate('token-2'), authenticate('token-3')]);
    expect(bell.feeds).toHaveLength(1);
  });

  it('after "unauthenticated" it waits for the next token rather than sending the refused one again', () => {
    const bell = startBell();
    bell.actor.send({ type: 'TOKEN_CHANGED', token: 'token-1' });
    const feed = bell.feeds[0]!;
    feed.send({ type: 'FEED.OPEN' });
    feed.send({ type: 'AUTHENTICATED', unreadCount: 1 });
    feed.send({ type: 'UNAUTHENTICATED', reason: 'Token expired' });
    expect(bell.actor.getSnapshot().matches({ connected: 'refused' })).toBe(true);
    expect(feed.sent).toEqual([authenticate('token-1')]);
    bell.actor.send({ type: 'TOKEN_CHANGED', token: 'token-2' });
    expect(feed.sent).toEqual([authenticate('token-1'), authenticate('token-2')]);
    feed.send({ type: 'AUTHENTICATED', unreadCount: 5 });
    expect(bell.count()).toBe(5);
  });

  it('signing out closes the socket and forgets the count', () => {
    const bell = startBell();
    bell.actor.send({ type: 'TOKEN_CHANGED', token: 'token-1' });
    bell.feeds[0]!.send({ type: 'FEED.OPEN' });
    bell.feeds[0]!.send({ type: 'AUTHENTICATED', unreadCount: 2 });
    bell.actor.send({ type: 'TOKEN_CHANGED', token: null });
    expect(bell.feeds[0]!.stopped).toBe(true);
    expect(bell.count()).toBeNull();
    // A count from a page that answers late does not bring it back.
    bell.actor.send({ type: 'UNREAD_COUNT_KNOWN', unreadCount: 2 });
    expect(bell.count()).toBeNull();
  });

  it('a closed socket reconnects after 3 s, then twice as long each time, and authenticates again', async () => {
    vi.useFakeTimers();
    const bell = startBell();
    bell.actor.send({ type: 'TOKEN_CHANGED', token: 'token-1' });
    bell.feeds[0]!.send({ type: 'FEED.OPEN' });
    bell.feeds[0]!.send({ type: 'AUTHENTICATED', unreadCount: 2 });
    bell.feeds[0]!.send({ type: 'FEED.CLOSED', code: 1006 });
    expect(bell.feeds[0]!.stopped).toBe(true);
    // The last count stays in view meanwhile.
    expect(bell.count()).toBe(2);
    vi.advanceTimersByTime(FIRST_RECONNECT_DELAY_MS - 1);
    expect(bell.feeds).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(bell.feeds).toHaveLength(2);
    bell.feeds[1]!.send({ type: 'FEED.CLOSED', code: 1006 });
    vi.advanceTimersByTime(2 * FIRST_RECONNECT_DELAY_MS - 1);
    expect(bell.feeds).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(bell.feeds).toHaveLength(3);
    bell.feeds[2]!.send({ type: 'FEED.OPEN' });
    expect(bell.feeds[2]!.sent).toEqual([authenticate('token-1')]);
    bell.feeds[2]!.send({ type: 'AUTHENTICATED', unreadCount: 6 });
    expect(bell.actor.getSnapshot().context).toMatchObject({ attempts: 0, unreadCount: 6 });
    expect([0, 1, 2, 3, 4, 5].map(reconnectDelay)).toEqual([3000, 6000, 12000, 24000, 48000, 60000]);
  });
});

describe('what the bell hears: every frame checked against the contract', () => {
  afterEach(() => vi.restoreAllMocks());

  it('passes the user\'s own news', () => {
    expect(userFeedEvent(JSON.stringify({ type: 'authenticated', userId: 'u-1', unreadCount: 3 }))).toEqual({ type: 'AUTHENTICATED', unreadCount: 3 });
    expect(userFeedEvent(JSON.stringify({ type: 'unauthenticated', reason: 'Token expired' }))).toEqual({ type: 'UNAUTHENTICATED', reason: 'Token expired' });
    expect(userFeedEvent(JSON.stringify({ type: 'notification', notification: notice('n-1'), unreadCount: 4 }))).toEqual({ type: 'NOTICE', notification: notice('n-1'), unreadCount: 4 });
    expect(userFeedEvent(JSON.stringify({ type: 'unread_count', unreadCount: 0 }))).toEqual({ type: 'UNREAD_COUNT', unreadCount: 0 });
  });

  it.each([
    ['text that is not JSON', '{"type":"notification",'],
    ['a message type this build does not know', JSON.stringify({ type: 'notifications_cleared' })],
    ['a count that is not a whole number', JSON.stringify({ type: 'unread_count', unreadCount: 'three' })],
    ['a notice of an unknown kind', JSON.stringify({ type: 'notification', notification: notice('n-1', { kind: 'SOLD' as never }), unreadCount: 1 })],
    ['a notice without its id', JSON.stringify({ type: 'notification', notification: { ...notice('n-1'), id: undefined }, unreadCount: 1 })],
    ['an extra field', JSON.stringify({ type: 'authenticated', userId: 'u-1', unreadCount: 1, admin: true })],
    ['news about an auction (the auction panel\'s, not the bell\'s)', JSON.stringify({ type: 'subscribed', auctionId: 'a-1' })],
  ])('drops %s', (_what, frame) => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    expect(userFeedEvent(frame)).toBeNull();
  });
});

describe('the list of notices', () => {
  it('a live notice goes on top, once', () => {
    const shown = [notice('n-2'), notice('n-1')];
    expect(withLiveNotice(shown, notice('n-3')).map((item) => item.id)).toEqual(['n-3', 'n-2', 'n-1']);
    expect(withLiveNotice(shown, notice('n-2'))).toBe(shown);
  });

  it('the next page goes below, without the notices a live arrival pushed onto it', () => {
    const shown = [notice('n-9'), notice('n-8'), notice('n-7')];
    expect(withNextPage(shown, [notice('n-7'), notice('n-6')]).map((item) => item.id)).toEqual(['n-9', 'n-8', 'n-7', 'n-6']);
    expect(withNextPage([], [notice('n-1')]).map((item) => item.id)).toEqual(['n-1']);
  });

  it('marks read without changing the time of those already read', () => {
    const read = notice('n-1', { readAt: '2032-03-01T12:05:00.000Z' });
    expect(markedRead([read, notice('n-2')], new Set(['n-1', 'n-2']), '2032-03-02T00:00:00.000Z').map((item) => item.readAt)).toEqual([
      '2032-03-01T12:05:00.000Z',
      '2032-03-02T00:00:00.000Z',
    ]);
  });

  it('names every kind in words, and links only within the app', () => {
    expect(Object.keys(NOTICE_KIND_LABELS).sort()).toEqual([...noticeKindSchema.options].sort());
    expect(Object.values(NOTICE_KIND_LABELS).every((label) => label.length > 0)).toBe(true);
    expect(inAppLink('/marketplace/brady-jersey')).toBe('/marketplace/brady-jersey');
    for (const outside of [null, 'https://example.com/x', '//example.com/x', '/\\example.com', 'javascript:alert(1)']) expect(inAppLink(outside)).toBeNull();
  });
});

function page(content: Notification[], overrides: Partial<NotificationsPage> = {}): NotificationsPage {
  return { content, unreadCount: content.filter((item) => item.readAt === null).length, totalElements: content.length, totalPages: 1, number: 0, size: 20, first: true, last: true, ...overrides };
}

function startPage(options: { pages: NotificationsPage[]; markRead?: (request: MarkReadRequest) => Promise<{ unreadCount: number }> }) {
  const requests: { pages: number[]; marks: MarkReadRequest[] } = { pages: [], marks: [] };
  const actor = createActor(
    notificationsMachine.provide({
      actors: {
        loadPage: fromPromise(async ({ input }: { input: { page: number } }) => {
          requests.pages.push(input.page);
          return options.pages[input.page]!;
        }),
        markRead: fromPromise(async ({ input }: { input: MarkReadRequest }) => {
          requests.marks.push(input);
          return (options.markRead ?? (async () => ({ unreadCount: 0 })))(input);
        }),
      },
    }),
  ).start();
  return { actor, requests, ids: () => actor.getSnapshot().context.notices.map((item) => item.id) };
}

describe('the notifications page', () => {
  it('loads the first page, then Load more until the last; live notices go on top, each notice once', async () => {
    const { actor, requests, ids } = startPage({
      pages: [page([notice('n-5'), notice('n-4')], { last: false, totalPages: 2 }), page([notice('n-4'), notice('n-3')], { number: 1, last: true })],
    });
    // A notice that arrives while the first page loads stays on top.
    actor.send({ type: 'LIVE_NOTICE', notification: notice('n-6') });
    await waitFor(actor, (snapshot) => snapshot.matches('ready'));
    expect(ids()).toEqual(['n-6', 'n-5', 'n-4']);
    actor.send({ type: 'LOAD_MORE' });
    await waitFor(actor, (snapshot) => snapshot.context.last);
    expect(ids()).toEqual(['n-6', 'n-5', 'n-4', 'n-3']);
    actor.send({ type: 'LOAD_MORE' });
    expect(requests.pages).toEqual([0, 1]);
    actor.send({ type: 'LIVE_NOTICE', notification: notice('n-7') });
    actor.send({ type: 'LIVE_NOTICE', notification: notice('n-7') });
    expect(ids()).toEqual(['n-7', 'n-6', 'n-5', 'n-4', 'n-3']);
  });

  it('a notice opened shows as read at once and is marked on the server; Mark all as read asks for all', async () => {
    const { actor, requests } = startPage({ pages: [page([notice('n-2'), notice('n-1')])] });
    await waitFor(actor, (snapshot) => snapshot.matches('ready'));
    actor.send({ type: 'MARK_READ', id: 'n-2' });
    expect(actor.getSnapshot().context.notices[0]!.readAt).not.toBeNull();
    await waitFor(actor, () => requests.marks.length === 1);
    expect(requests.marks).toEqual([{ ids: ['n-2'] }]);
    // Already read: nothing to send.
    await waitFor(actor, (snapshot) => snapshot.matches({ ready: { marking: 'idle' } }));
    actor.send({ type: 'MARK_READ', id: 'n-2' });
    actor.send({ type: 'MARK_ALL_READ' });
    expect(actor.getSnapshot().context.notices.every((item) => item.readAt !== null)).toBe(true);
    await waitFor(actor, () => requests.marks.length === 2);
    expect(requests.marks[1]).toEqual({ all: true });
  });

  it('a refused mark puts the notices back to unread and says why', async () => {
    const { actor } = startPage({ pages: [page([notice('n-1')])], markRead: async () => Promise.reject(new ApiError('Service unavailable', 503)) });
    await waitFor(actor, (snapshot) => snapshot.matches('ready'));
    actor.send({ type: 'MARK_READ', id: 'n-1' });
    await waitFor(actor, (snapshot) => snapshot.context.error !== null);
    expect(actor.getSnapshot().context.notices[0]!.readAt).toBeNull();
    expect(actor.getSnapshot().context.error).toBe('Could not mark as read: Service unavailable');
  });

  it('marks made while one call is out go together in the next', () => {
    expect(readRequest({ all: false, ids: ['a', 'b'] })).toEqual({ ids: ['a', 'b'] });
    expect(readRequest({ all: true, ids: ['a'] })).toEqual({ all: true });
  });
});

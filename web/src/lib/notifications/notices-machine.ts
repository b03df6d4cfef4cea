import { assign, emit, fromCallback, sendTo, setup } from 'xstate';
import type { Notification } from '../../../../api/contracts/notifications';
import type { UserFeedCommand, UserFeedEvent } from './user-socket';

/** Reconnects wait 3 s, then twice as long each time, at most 60 s: the bell keeps trying while the page is open. */
export const FIRST_RECONNECT_DELAY_MS = 3000;
export const MAX_RECONNECT_DELAY_MS = 60_000;

export function reconnectDelay(attempts: number): number {
  return Math.min(MAX_RECONNECT_DELAY_MS, FIRST_RECONNECT_DELAY_MS * 2 ** attempts);
}

export interface NoticesContext {
  /** The session's access token: the socket authenticates with it, and again with each new one. */
  readonly token: string | null;
  /** null until the server has said (signed out, or not authenticated yet). */
  readonly unreadCount: number | null;
  /** Reconnects since the socket last authenticated. */
  readonly attempts: number;
}

export type NoticesEvent =
  | UserFeedEvent
  | { type: 'TOKEN_CHANGED'; token: string | null }
  /** A page read the count over HTTP (a page of notices, marking some read). */
  | { type: 'UNREAD_COUNT_KNOWN'; unreadCount: number };

/** Told to whoever listens (the notifications page): a new notice, to put at the top. */
export type NoticesEmitted = { type: 'notice'; notification: Notification };

const countOf = ({ event }: { event: NoticesEvent }) => ('unreadCount' in event ? event.unreadCount : 0);

/**
 * The bell: one socket for the signed-in user, authenticated with the session's token (again
 * whenever the session refreshes it; after the server says "unauthenticated", with the next token
 * the session gets). The unread count comes with the server's answer and each notice; a closed
 * socket reconnects after a growing delay. Signed out, no socket and no count.
 *
 * The socket is an actor the app provides (notices.tsx) and tests replace.
 */
export const noticesMachine = setup({
  types: {
    context: {} as NoticesContext,
    events: {} as NoticesEvent,
    emitted: {} as NoticesEmitted,
  },
  actors: {
    userFeed: fromCallback<UserFeedCommand>(() => () => undefined),
  },
  delays: {
    reconnectDelay: ({ context }) => reconnectDelay(context.attempts),
  },
  guards: {
    hasToken: ({ event }) => event.type === 'TOKEN_CHANGED' && event.token !== null,
    hasNewToken: ({ context, event }) => event.type === 'TOKEN_CHANGED' && event.token !== null && event.token !== context.token,
    signedOutNow: ({ event }) => event.type === 'TOKEN_CHANGED' && event.token === null,
  },
  actions: {
    takeToken: assign({ token: ({ event }) => (event.type === 'TOKEN_CHANGED' ? event.token : null) }),
    takeCount: assign({ unreadCount: countOf }),
  },
}).createMachine({
  id: 'notices',
  initial: 'signedOut',
  context: { token: null, unreadCount: null, attempts: 0 },
  on: {
    UNREAD_COUNT_KNOWN: { guard: ({ context }) => context.token !== null, actions: 'takeCount' },
  },
  states: {
    signedOut: {
      entry: assign({ token: null, unreadCount: null, attempts: 0 }),
      on: { TOKEN_CHANGED: { guard: 'hasToken', target: 'connected', actions: 'takeToken' } },
    },
    connected: {
      invoke: { id: 'feed', src: 'userFeed' },
      initial: 'opening',
      on: {
        TOKEN_CHANGED: { guard: 'signedOutNow', target: 'signedOut' },
        'FEED.CLOSED': 'waiting',
        AUTHENTICATED: { target: '.authenticated', actions: ['takeCount', assign({ attempts: 0 })] },
        UNAUTHENTICATED: '.refused',
        NOTICE: { actions: ['takeCount', emit(({ event }) => ({ type: 'notice' as const, notification: event.notification }))] },
        UNREAD_COUNT: { actions: 'takeCount' },
      },
      states: {
        // The token is sent once the socket is open.
        opening: {
          on: {
            'FEED.OPEN': 'authenticating',
            TOKEN_CHANGED: { guard: 'hasNewToken', actions: 'takeToken' },
          },
        },
        authenticating: {
          entry: sendTo('feed', ({ context }): UserFeedCommand => ({ type: 'SEND', message: { action: 'authenticate', token: context.token! } })),
          on: { TOKEN_CHANGED: { guard: 'hasNewToken', target: 'authenticating', reenter: true, actions: 'takeToken' } },
        },
        authenticated: {
          on: { TOKEN_CHANGED: { guard: 'hasNewToken', target: 'authenticating', actions: 'takeToken' } },
        },
        // Expired or refused: sending the same token again would be refused again; the session's next one is sent.
        refused: {
          on: { TOKEN_CHANGED: { guard: 'hasNewToken', target: 'authenticating', actions: 'takeToken' } },
        },
      },
    },
    waiting: {
      after: { reconnectDelay: { target: 'connected', actions: assign({ attempts: ({ context }) => context.attempts + 1 }) } },
      on: {
        TOKEN_CHANGED: [{ guard: 'signedOutNow', target: 'signedOut' }, { guard: 'hasNewToken', actions: 'takeToken' }],
      },
    },
  },
});

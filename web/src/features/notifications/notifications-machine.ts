import { assign, fromPromise, setup } from 'xstate';
import type { MarkReadRequest, Notification, NotificationsPage, UnreadCount } from '../../../../api/contracts/notifications';
import { MAX_NOTIFICATIONS_MARKED_AT_ONCE } from '../../../../api/contracts/notifications';
import { errorMessage, unlessAborted } from '../../lib/api-client';
import { fetchNotices, markNoticesRead } from './api';
import { markedRead, markedUnread, withLiveNotice, withNextPage } from './notice-list';

/** Notices shown as read, waiting to be told to the server; `all`: every notice, those not loaded too. */
interface ReadMarks {
  readonly all: boolean;
  readonly ids: readonly string[];
}

export interface NotificationsContext {
  readonly notices: readonly Notification[];
  /** The page Load more asks for. */
  readonly nextPage: number;
  readonly last: boolean;
  readonly error: string | null;
  readonly toSend: ReadMarks;
  readonly sending: ReadMarks;
}

export type NotificationsEvent =
  | { type: 'LIVE_NOTICE'; notification: Notification }
  | { type: 'LOAD_MORE' }
  | { type: 'RETRY' }
  | { type: 'MARK_READ'; id: string }
  | { type: 'MARK_ALL_READ' }
  | { type: 'DISMISS' };

const NONE: ReadMarks = { all: false, ids: [] };

/** What is sent for these marks: every notice, or the ones marked. */
export function readRequest(marks: ReadMarks): MarkReadRequest {
  return marks.all ? { all: true } : { ids: marks.ids.slice(0, MAX_NOTIFICATIONS_MARKED_AT_ONCE) };
}

const failure = (what: string, error: unknown) => `${what}: ${errorMessage(error, 'Network error')}`;

/**
 * The notifications page: the first page, then Load more (newest first, each notice once); notices
 * that arrive live go on top. A notice opened, or marked, shows as read at once and is told to the
 * server (those marked meanwhile go together in the next call); a refusal marks them unread again.
 */
export const notificationsMachine = setup({
  types: {
    context: {} as NotificationsContext,
    events: {} as NotificationsEvent,
  },
  actors: {
    loadPage: fromPromise<NotificationsPage, { page: number }>(({ input, signal }) => unlessAborted(signal, (aborted) => fetchNotices(input.page, aborted))),
    // No abort signal: a notice opened by its link is marked even though the page is left at once.
    markRead: fromPromise<UnreadCount, MarkReadRequest>(({ input }) => markNoticesRead(input)),
  },
  guards: {
    hasMarks: ({ context }) => context.toSend.all || context.toSend.ids.length > 0,
  },
}).createMachine({
  id: 'notifications',
  initial: 'loading',
  context: { notices: [], nextPage: 0, last: false, error: null, toSend: NONE, sending: NONE },
  on: {
    LIVE_NOTICE: { actions: assign({ notices: ({ context, event }) => withLiveNotice(context.notices, event.notification) }) },
    DISMISS: { actions: assign({ error: null }) },
  },
  states: {
    loading: {
      invoke: {
        src: 'loadPage',
        input: { page: 0 },
        onDone: {
          target: 'ready',
          // Notices that arrived live while it loaded stay on top.
          actions: assign(({ context, event }) => ({ notices: withNextPage(context.notices, event.output.content), nextPage: 1, last: event.output.last, error: null })),
        },
        onError: { target: 'failed', actions: assign({ error: ({ event }) => failure('Failed to load your notifications', event.error) }) },
      },
    },
    failed: {
      on: { RETRY: { target: 'loading', actions: assign({ error: null }) } },
    },
    ready: {
      type: 'parallel',
      on: {
        MARK_READ: {
          guard: ({ context, event }) => context.notices.some((notice) => notice.id === event.id && notice.readAt === null),
          actions: assign(({ context, event }) => ({
            notices: markedRead(context.notices, new Set([event.id]), new Date().toISOString()),
            toSend: { all: context.toSend.all, ids: [...context.toSend.ids, event.id] },
          })),
        },
        MARK_ALL_READ: {
          actions: assign(({ context }) => {
            const unread = context.notices.filter((notice) => notice.readAt === null).map((notice) => notice.id);
            return { notices: markedRead(context.notices, new Set(unread), new Date().toISOString()), toSend: { all: true, ids: [...context.toSend.ids, ...unread] } };
          }),
        },
      },
      states: {
        more: {
          initial: 'idle',
          states: {
            idle: { on: { LOAD_MORE: { guard: ({ context }) => !context.last, target: 'loading' } } },
            loading: {
              invoke: {
                src: 'loadPage',
                input: ({ context }) => ({ page: context.nextPage }),
                onDone: {
                  target: 'idle',
                  actions: assign(({ context, event }) => ({
                    notices: withNextPage(context.notices, event.output.content),
                    nextPage: context.nextPage + 1,
                    last: event.output.last,
                    error: null,
                  })),
                },
                onError: { target: 'idle', actions: assign({ error: ({ event }) => failure('Failed to load more notifications', event.error) }) },
              },
            },
          },
        },
        marking: {
          initial: 'idle',
          states: {
            idle: { always: { guard: 'hasMarks', target: 'sending' } },
            sending: {
              entry: assign(({ context }) => ({ sending: context.toSend, toSend: NONE })),
              invoke: {
                src: 'markRead',
                input: ({ context }) => readRequest(context.sending),
                onDone: { target: 'idle', actions: assign({ sending: NONE }) },
                onError: {
                  target: 'idle',
                  actions: assign(({ context, event }) => ({
                    notices: markedUnread(context.notices, new Set(context.sending.ids)),
                    sending: NONE,
                    error: failure('Could not mark as read', event.error),
                  })),
                },
              },
            },
          },
        },
      },
    },
  },
});

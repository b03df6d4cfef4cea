import { assign, fromPromise, setup } from 'xstate';
import { ApiError, errorMessage, unlessAborted } from './api-client';

/** What a table asks for: its filters, search, sort and page, each a plain value. */
export type TableQuery = Readonly<Record<string, string | number | null>>;

export interface PagedTableContext<Answer> {
  readonly query: TableQuery;
  /** The last answer; kept while the same query reloads (the rows stay), dropped for a new query. */
  readonly answer: Answer | null;
  readonly error: string | null;
}

export type PagedTableEvent = { readonly type: 'QUERY_CHANGED'; readonly query: TableQuery } | { readonly type: 'RELOAD' } | { readonly type: 'RETRY' };

export function sameQuery(a: TableQuery, b: TableQuery): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].every((key) => a[key] === b[key]);
}

/** "Failed to load {what}: {the server's reason}"; a lost connection says "Network error". */
const failure = (what: string, error: unknown) =>
  `Failed to load ${what}: ${error instanceof ApiError && error.code === 'NETWORK' ? 'Network error' : errorMessage(error, 'Network error')}`;

interface PagedTableOptions<Query extends TableQuery, Answer> {
  readonly id: string;
  /** Named in the failure message: "NFC tags", "listings". */
  readonly what: string;
  fetchPage(query: Query, signal: AbortSignal): Promise<Answer>;
}

/**
 * One admin table's page: loading, then the rows or the reason it failed with Try Again. A new
 * query (filter, search, sort, page) replaces the rows; RELOAD (after a change the admin made) asks
 * again for the same page with the rows still shown. A request in flight is stopped when a newer
 * one starts, so a stale answer never lands.
 */
export function createPagedTableMachine<Query extends TableQuery, Answer>(options: PagedTableOptions<Query, Answer>) {
  return setup({
    types: {
      context: {} as PagedTableContext<Answer>,
      events: {} as PagedTableEvent,
      input: {} as { query: Query },
    },
    actors: {
      // Typed loosely here (xstate cannot follow a type parameter through invoke); the options fix both ends.
      fetchPage: fromPromise<unknown, TableQuery>(({ input, signal }) => unlessAborted(signal, (aborted) => options.fetchPage(input as Query, aborted))),
    },
    guards: {
      isNewQuery: ({ context, event }) => event.type === 'QUERY_CHANGED' && !sameQuery(context.query, event.query),
    },
  }).createMachine({
    id: options.id,
    context: ({ input }) => ({ query: input.query, answer: null, error: null }),
    initial: 'loading',
    on: {
      QUERY_CHANGED: {
        guard: 'isNewQuery',
        // Re-entering stops the fetch of the previous query.
        target: '.loading',
        reenter: true,
        actions: assign(({ event }) => ({ query: event.query, answer: null, error: null })),
      },
      RELOAD: { target: '.loading', reenter: true, actions: assign({ error: null }) },
    },
    states: {
      loading: {
        invoke: {
          src: 'fetchPage',
          input: ({ context }) => context.query,
          onDone: { target: 'ready', actions: assign({ answer: ({ event }) => event.output as Answer, error: null }) },
          onError: { target: 'failed', actions: assign({ error: ({ event }) => failure(options.what, event.error) }) },
        },
      },
      ready: {},
      failed: {
        on: { RETRY: { target: 'loading', actions: assign({ error: null }) } },
      },
    },
  });
}

import { assign, fromPromise, setup } from 'xstate';
import type { LoginRequest, RegisterRequest, SessionTokens, UserProfile } from '../../../../api/contracts/accounts';
import { refreshDelay } from './tokens';

export interface SignedIn {
  readonly user: UserProfile;
  readonly session: SessionTokens;
}

export type Credentials = LoginRequest;

/** What the register form sends: every field the server asks for (its schema leaves them optional to word each refusal). */
export type Registration = Required<Pick<RegisterRequest, 'firstName' | 'lastName' | 'email' | 'password'>>;

export interface AuthContext {
  readonly user: UserProfile | null;
  readonly session: SessionTokens | null;
  readonly error: string | null;
}

export type AuthEvent =
  | { type: 'SIGN_IN'; credentials: Credentials }
  | { type: 'ADMIN_SIGN_IN'; credentials: Credentials }
  | { type: 'REGISTER'; registration: Registration }
  | { type: 'SIGN_OUT' }
  | { type: 'USER_UPDATED'; user: UserProfile }
  | { type: 'CLEAR_ERROR' };

const signedOutContext = { user: null, session: null } as const;

function failure(error: unknown, fallback: string): string {
  return error instanceof Error && error.message ? error.message : fallback;
}

/**
 * The session: restored from storage before any guard decides; sign-in and registration fetch the
 * user with the new token before anything is stored; the session refreshes itself 300 s before
 * the access token expires (at once if it has), and a failed refresh signs out; sign-out always
 * ends signed out, whatever the server answers.
 *
 * The calls are actors the app provides (lib/auth/session.ts) and tests replace.
 */
export const authMachine = setup({
  types: {
    context: {} as AuthContext,
    events: {} as AuthEvent,
  },
  actors: {
    restore: fromPromise<SignedIn | null>(async () => null),
    signIn: fromPromise<SignedIn, Credentials>(async () => {
      throw new Error('signIn not provided');
    }),
    adminSignIn: fromPromise<SignedIn, Credentials>(async () => {
      throw new Error('adminSignIn not provided');
    }),
    register: fromPromise<SignedIn, Registration>(async () => {
      throw new Error('register not provided');
    }),
    refresh: fromPromise<SessionTokens, { session: SessionTokens }>(async () => {
      throw new Error('refresh not provided');
    }),
    signOut: fromPromise<void, { session: SessionTokens | null }>(async () => undefined),
  },
  delays: {
    refreshDue: ({ context }) => (context.session ? refreshDelay(context.session.accessToken, Date.now()) : 0),
  },
  actions: {
    clearSession: assign({ ...signedOutContext }),
  },
}).createMachine({
  id: 'auth',
  initial: 'hydrating',
  context: { user: null, session: null, error: null },
  on: {
    CLEAR_ERROR: { actions: assign({ error: null }) },
  },
  states: {
    hydrating: {
      invoke: {
        src: 'restore',
        onDone: [
          { guard: ({ event }) => event.output !== null, target: 'signedIn', actions: assign(({ event }) => ({ ...event.output! })) },
          { target: 'signedOut' },
        ],
        onError: { target: 'signedOut' },
      },
    },
    signedOut: {
      on: {
        SIGN_IN: 'signingIn',
        ADMIN_SIGN_IN: 'signingInAsAdmin',
        REGISTER: 'registering',
      },
    },
    signingIn: {
      entry: assign({ error: null }),
      invoke: {
        src: 'signIn',
        input: ({ event }) => (event as Extract<AuthEvent, { type: 'SIGN_IN' }>).credentials,
        onDone: { target: 'signedIn', actions: assign(({ event }) => ({ ...event.output, error: null })) },
        onError: { target: 'signedOut', actions: assign(({ event }) => ({ ...signedOutContext, error: failure(event.error, 'Sign in failed') })) },
      },
    },
    signingInAsAdmin: {
      entry: assign({ error: null }),
      invoke: {
        src: 'adminSignIn',
        input: ({ event }) => (event as Extract<AuthEvent, { type: 'ADMIN_SIGN_IN' }>).credentials,
        onDone: { target: 'signedIn', actions: assign(({ event }) => ({ ...event.output, error: null })) },
        onError: { target: 'signedOut', actions: assign(({ event }) => ({ ...signedOutContext, error: failure(event.error, 'Admin login failed') })) },
      },
    },
    registering: {
      entry: assign({ error: null }),
      invoke: {
        src: 'register',
        input: ({ event }) => (event as Extract<AuthEvent, { type: 'REGISTER' }>).registration,
        onDone: { target: 'signedIn', actions: assign(({ event }) => ({ ...event.output, error: null })) },
        onError: { target: 'signedOut', actions: assign(({ event }) => ({ ...signedOutContext, error: failure(event.error, 'Registration failed') })) },
      },
    },
    signedIn: {
      after: { refreshDue: 'refreshing' },
      on: {
        SIGN_OUT: 'signingOut',
        USER_UPDATED: { actions: assign(({ event }) => ({ user: event.user })) },
        // Another account signing in on this device replaces the session.
        SIGN_IN: 'signingIn',
        ADMIN_SIGN_IN: 'signingInAsAdmin',
      },
    },
    refreshing: {
      invoke: {
        src: 'refresh',
        input: ({ context }) => ({ session: context.session! }),
        onDone: { target: 'signedIn', actions: assign(({ event }) => ({ session: event.output })) },
        onError: { target: 'signedOut', actions: 'clearSession' },
      },
      on: { SIGN_OUT: 'signingOut' },
    },
    signingOut: {
      invoke: {
        src: 'signOut',
        input: ({ context }) => ({ session: context.session }),
        onDone: { target: 'signedOut', actions: ['clearSession', assign({ error: null })] },
        onError: { target: 'signedOut', actions: ['clearSession', assign({ error: null })] },
      },
    },
  },
});

import { createActorContext } from '@xstate/react';
import { useEffect, useMemo, type ReactNode } from 'react';
import { fromPromise, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import type { RegisterRequest, SessionTokens, UserProfile } from '../../../../api/contracts/accounts';
import { apiRequest, setAccessTokenSource } from '../api-client';
import { authMachine, type Credentials, type Registration, type SignedIn } from './auth-machine';
import { readAccessToken } from './tokens';

/** Where the session is kept between visits: the user and the session tokens, nothing else. */
export const AUTH_STORAGE_KEY = 'provenance-auth';

async function signedInWith(session: SessionTokens): Promise<SignedIn> {
  const claims = readAccessToken(session.accessToken);
  if (!claims) throw new Error('Invalid access token');
  const user = await apiRequest<UserProfile>(`/api/v1/users/${encodeURIComponent(claims.sub)}/profile`, { token: session.accessToken });
  return { user, session };
}

function restore(): SignedIn | null {
  try {
    const stored = JSON.parse(localStorage.getItem(AUTH_STORAGE_KEY) ?? 'null') as Partial<SignedIn> | null;
    if (!stored?.user || !stored.session?.accessToken || !stored.session.refreshToken) return null;
    return { user: stored.user, session: stored.session };
  } catch {
    return null;
  }
}

const sessionMachine = authMachine.provide({
  actors: {
    restore: fromPromise(async () => restore()),
    signIn: fromPromise(async ({ input }: { input: Credentials }) =>
      signedInWith(await apiRequest<SessionTokens>('/api/auth/login', { body: input })),
    ),
    adminSignIn: fromPromise(async ({ input }: { input: Credentials }) =>
      signedInWith(await apiRequest<SessionTokens>('/api/admin/auth/login', { body: input })),
    ),
    register: fromPromise(async ({ input }: { input: Registration }) =>
      // Self-registration always makes a buyer; the server insists too.
      signedInWith(await apiRequest<SessionTokens>('/api/auth/register', { body: { ...input, role: 'BUYER' } satisfies RegisterRequest })),
    ),
    refresh: fromPromise(async ({ input }: { input: { session: SessionTokens } }) =>
      apiRequest<SessionTokens>('/api/auth/refresh', { body: { refreshToken: input.session.refreshToken } }),
    ),
    signOut: fromPromise(async ({ input }: { input: { session: SessionTokens | null } }) => {
      if (input.session) await apiRequest('/api/auth/logout', { body: { refreshToken: input.session.refreshToken } });
    }),
  },
});

type SessionActor = ActorRefFrom<typeof sessionMachine>;
type SessionSnapshot = SnapshotFrom<typeof sessionMachine>;

const Session = createActorContext(sessionMachine);

/**
 * The tab's one session, for everything inside: it starts when the app mounts (not when a module is
 * imported), so each mounted app, and each test, has its own.
 */
export function SessionProvider({ children }: { children: ReactNode }) {
  return (
    <Session.Provider>
      <SessionStorage />
      {children}
    </Session.Provider>
  );
}

/** Keeps what lives outside React in step with the session: the stored copy and the token the API client sends. */
function SessionStorage() {
  const actor = Session.useActorRef();
  useEffect(() => {
    setAccessTokenSource(() => actor.getSnapshot().context.session?.accessToken ?? null);
    const subscription = actor.subscribe(persist);
    return () => {
      subscription.unsubscribe();
      setAccessTokenSource(() => null);
    };
  }, [actor]);
  return null;
}

// Written on every change once restored, so that a reload finds what the user last saw.
function persist(snapshot: SessionSnapshot): void {
  if (snapshot.matches('hydrating')) return;
  const { user, session } = snapshot.context;
  // Signing out forgets the stored session at once: a reload while the server is told must not restore it.
  const signedIn = user && session && !snapshot.matches('signingOut');
  try {
    if (signedIn) localStorage.setItem(AUTH_STORAGE_KEY, JSON.stringify({ user, session }));
    else localStorage.removeItem(AUTH_STORAGE_KEY);
  } catch {
    // Storage can be full or refused (private mode): the session still lives in this tab.
  }
}

export type AuthStatus = 'restoring' | 'signedOut' | 'busy' | 'signedIn';

export interface AuthView {
  readonly status: AuthStatus;
  readonly user: UserProfile | null;
  readonly isAdmin: boolean;
  /** Reads the event log and the audit screens, and nothing else of the admin area (unless also an admin). */
  readonly isAuditor: boolean;
  readonly error: string | null;
}

/** What components read of the session. */
export function useAuth(): AuthView {
  return Session.useSelector(authView, sameView);
}

function authView(snapshot: SessionSnapshot): AuthView {
  const status: AuthStatus = snapshot.matches('hydrating')
    ? 'restoring'
    : snapshot.matches('signedIn') || snapshot.matches('refreshing')
      ? 'signedIn'
      : snapshot.matches('signedOut')
        ? 'signedOut'
        : 'busy';
  const user = snapshot.context.user;
  const roles = user?.roles ?? [];
  return { status, user, isAdmin: roles.includes('ADMIN'), isAuditor: roles.includes('AUDITOR'), error: snapshot.context.error };
}

function sameView(a: AuthView, b: AuthView): boolean {
  return a.status === b.status && a.user === b.user && a.error === b.error;
}

/**
 * The signed-in user's access token while it is usable: null when signed out, and while a restored
 * token that has expired waits for its refresh (a call made with it would only be refused). It
 * changes when the session refreshes it: what authenticates with it (the notices' socket) does so again.
 */
export function useAccessToken(): string | null {
  return Session.useSelector(usableAccessToken);
}

function usableAccessToken(snapshot: SessionSnapshot): string | null {
  if (!snapshot.matches('signedIn') && !snapshot.matches('refreshing')) return null;
  const token = snapshot.context.session?.accessToken ?? null;
  const claims = token ? readAccessToken(token) : null;
  return claims && claims.exp * 1000 > Date.now() ? token : null;
}

/** What components do to the session: sign-in, registration and sign-out resolve once settled, with the user or the error message. */
export function useAuthActions() {
  const actor = Session.useActorRef();
  return useMemo(() => authActions(actor), [actor]);
}

function authActions(actor: SessionActor) {
  const settled = () =>
    new Promise<{ user: UserProfile | null; error: string | null }>((resolve) => {
      const subscription = actor.subscribe((snapshot) => {
        if (snapshot.matches('signedIn') || snapshot.matches('signedOut')) {
          subscription.unsubscribe();
          resolve({ user: snapshot.context.user, error: snapshot.context.error });
        }
      });
    });
  return {
    signIn(credentials: Credentials) {
      actor.send({ type: 'SIGN_IN', credentials });
      return settled();
    },
    adminSignIn(credentials: Credentials) {
      actor.send({ type: 'ADMIN_SIGN_IN', credentials });
      return settled();
    },
    register(registration: Registration) {
      actor.send({ type: 'REGISTER', registration });
      return settled();
    },
    signOut() {
      actor.send({ type: 'SIGN_OUT' });
      return settled();
    },
    userUpdated(user: UserProfile) {
      actor.send({ type: 'USER_UPDATED', user });
    },
    /** Reads the user's profile again (a stored one may be older than what changed elsewhere, e.g. a confirmed email); a failure keeps what is known. */
    async refreshUser(): Promise<void> {
      const { user } = actor.getSnapshot().context;
      if (!user) return;
      try {
        const fresh = await apiRequest<UserProfile>(`/api/v1/users/${encodeURIComponent(user.id)}/profile`, { auth: true });
        // Only if the same user is still signed in when the answer comes.
        if (actor.getSnapshot().context.user?.id === fresh.id) actor.send({ type: 'USER_UPDATED', user: fresh });
      } catch {
        // The next page that reads the profile tries again.
      }
    },
  };
}

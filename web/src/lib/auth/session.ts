import { useSelector } from '@xstate/react';
import { createActor, fromPromise } from 'xstate';
import { apiRequest, setAccessTokenSource } from '../api-client';
import { authMachine, type Credentials, type Registration, type Session, type SignedIn, type User } from './auth-machine';
import { readAccessToken } from './tokens';

/** Persisted auth state (spec section 3): the user and the session, nothing else. */
export const AUTH_STORAGE_KEY = 'provenance-auth';

async function signedInWith(session: Session): Promise<SignedIn> {
  const claims = readAccessToken(session.accessToken);
  if (!claims) throw new Error('Invalid access token');
  const user = await apiRequest<User>(`/api/v1/users/${encodeURIComponent(claims.sub)}/profile`, { token: session.accessToken });
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

const machine = authMachine.provide({
  actors: {
    restore: fromPromise(async () => restore()),
    signIn: fromPromise(async ({ input }: { input: Credentials }) =>
      signedInWith(await apiRequest<Session>('/api/auth/login', { body: input })),
    ),
    adminSignIn: fromPromise(async ({ input }: { input: Credentials }) =>
      signedInWith(await apiRequest<Session>('/api/admin/auth/login', { body: input })),
    ),
    register: fromPromise(async ({ input }: { input: Registration }) =>
      // Self-registration is always a buyer (spec section 5); the server insists too.
      signedInWith(await apiRequest<Session>('/api/auth/register', { body: { ...input, role: 'BUYER' } })),
    ),
    refresh: fromPromise(async ({ input }: { input: { session: Session } }) =>
      apiRequest<Session>('/api/auth/refresh', { body: { refreshToken: input.session.refreshToken } }),
    ),
    signOut: fromPromise(async ({ input }: { input: { session: Session | null } }) => {
      if (input.session) await apiRequest('/api/auth/logout', { body: { refreshToken: input.session.refreshToken } });
    }),
  },
});

/** The one session of this tab. */
export const authActor = createActor(machine);

setAccessTokenSource(() => authActor.getSnapshot().context.session?.accessToken ?? null);

// Persisted on every change once restored, so that a reload finds what the user last saw.
authActor.subscribe((snapshot) => {
  if (snapshot.matches('hydrating')) return;
  const { user, session } = snapshot.context;
  try {
    if (user && session) localStorage.setItem(AUTH_STORAGE_KEY, JSON.stringify({ user, session }));
    else localStorage.removeItem(AUTH_STORAGE_KEY);
  } catch {
    // Storage can be full or refused (private mode): the session still lives in this tab.
  }
});

authActor.start();

export type AuthStatus = 'restoring' | 'signedOut' | 'busy' | 'signedIn';

export interface AuthView {
  readonly status: AuthStatus;
  readonly user: User | null;
  readonly isAdmin: boolean;
  readonly error: string | null;
}

/** What components read of the session. */
export function useAuth(): AuthView {
  return useSelector(authActor, (snapshot) => {
    const status: AuthStatus = snapshot.matches('hydrating')
      ? 'restoring'
      : snapshot.matches('signedIn') || snapshot.matches('refreshing')
        ? 'signedIn'
        : snapshot.matches('signedOut')
          ? 'signedOut'
          : 'busy';
    const user = snapshot.context.user;
    return { status, user, isAdmin: user?.roles.includes('ADMIN') ?? false, error: snapshot.context.error };
  }, sameView);
}

function sameView(a: AuthView, b: AuthView): boolean {
  return a.status === b.status && a.user === b.user && a.error === b.error;
}

/** Resolves when a sign-in, registration or sign-out has finished: the user, or the error message. */
function settled(): Promise<{ user: User | null; error: string | null }> {
  return new Promise((resolve) => {
    const subscription = authActor.subscribe((snapshot) => {
      if (snapshot.matches('signedIn') || snapshot.matches('signedOut')) {
        subscription.unsubscribe();
        resolve({ user: snapshot.context.user, error: snapshot.context.error });
      }
    });
  });
}

export const auth = {
  signIn(credentials: Credentials) {
    authActor.send({ type: 'SIGN_IN', credentials });
    return settled();
  },
  adminSignIn(credentials: Credentials) {
    authActor.send({ type: 'ADMIN_SIGN_IN', credentials });
    return settled();
  },
  register(registration: Registration) {
    authActor.send({ type: 'REGISTER', registration });
    return settled();
  },
  signOut() {
    authActor.send({ type: 'SIGN_OUT' });
    return settled();
  },
  userUpdated(user: User) {
    authActor.send({ type: 'USER_UPDATED', user });
  },
  clearError() {
    authActor.send({ type: 'CLEAR_ERROR' });
  },
};

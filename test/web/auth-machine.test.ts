import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { SessionTokens as Session, UserProfile as User } from '../../api/contracts/accounts';
import { authMachine, type Credentials, type SignedIn } from '../../web/src/lib/auth/auth-machine';
import { readAccessToken, refreshDelay } from '../../web/src/lib/auth/tokens';

const NOW = Date.parse('2032-01-01T12:00:00.000Z');

/** An unsigned token is enough: the app only reads its claims for timing. */
function token(expiresInSeconds: number, sub = 'user-1'): string {
  const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${encode({ alg: 'HS256' })}.${encode({ sub, roles: ['BUYER'], exp: Math.floor(Date.now() / 1000) + expiresInSeconds })}.signature`;
}

function session(expiresInSeconds = 3600): Session {
  return { accessToken: token(expiresInSeconds), refreshToken: `refresh-${Math.random()}`, expiresIn: expiresInSeconds };
}

const user: User = {
  id: 'user-1',
  email: 'ann@example.com',
  firstName: 'Ann',
  lastName: 'Buyer',
  phone: null,
  status: 'ACTIVE',
  roles: ['BUYER'],
  createdAt: '2031-01-01T00:00:00.000Z',
  marketingOptIn: false,
  transactionalOptOut: false,
  emailVerified: true,
  pendingEmail: null,
};

interface Calls {
  refreshed: Session[];
  signedOut: Array<Session | null>;
}

function start(options: { stored?: SignedIn | null; signIn?: (credentials: Credentials) => Promise<SignedIn>; refresh?: () => Promise<Session>; signOut?: () => Promise<void> } = {}) {
  const calls: Calls = { refreshed: [], signedOut: [] };
  const actor = createActor(
    authMachine.provide({
      actors: {
        restore: fromPromise(async () => options.stored ?? null),
        signIn: fromPromise(async ({ input }: { input: Credentials }) => (options.signIn ?? (async () => ({ user, session: session() })))(input)),
        refresh: fromPromise(async ({ input }: { input: { session: Session } }) => {
          calls.refreshed.push(input.session);
          return (options.refresh ?? (async () => session()))();
        }),
        signOut: fromPromise(async ({ input }: { input: { session: Session | null } }) => {
          calls.signedOut.push(input.session);
          await (options.signOut ?? (async () => undefined))();
        }),
      },
    }),
  );
  actor.start();
  return { actor, calls };
}

describe('the session machine', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: NOW });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('restores a stored session before anything decides, and is signed out without one', async () => {
    const restored = start({ stored: { user, session: session() } });
    expect(restored.actor.getSnapshot().value).toBe('hydrating');
    await waitFor(restored.actor, (snapshot) => snapshot.matches('signedIn'));
    expect(restored.actor.getSnapshot().context.user).toEqual(user);

    const empty = start();
    await waitFor(empty.actor, (snapshot) => snapshot.matches('signedOut'));
  });

  it('signs in: user and session stored, error cleared; a failure keeps the message and clears the rest', async () => {
    const ok = start();
    await waitFor(ok.actor, (snapshot) => snapshot.matches('signedOut'));
    ok.actor.send({ type: 'SIGN_IN', credentials: { email: 'ann@example.com', password: 'x' } });
    await waitFor(ok.actor, (snapshot) => snapshot.matches('signedIn'));
    expect(ok.actor.getSnapshot().context).toMatchObject({ user, error: null });

    const refused = start({ signIn: async () => Promise.reject(new Error('Invalid email or password')) });
    await waitFor(refused.actor, (snapshot) => snapshot.matches('signedOut'));
    refused.actor.send({ type: 'SIGN_IN', credentials: { email: 'ann@example.com', password: 'wrong' } });
    await waitFor(refused.actor, (snapshot) => snapshot.context.error !== null);
    expect(refused.actor.getSnapshot().context).toEqual({ user: null, session: null, error: 'Invalid email or password' });
    refused.actor.send({ type: 'CLEAR_ERROR' });
    expect(refused.actor.getSnapshot().context.error).toBeNull();
  });

  it('refreshes 300 s before the access token expires, keeps the user, and re-arms', async () => {
    const { actor, calls } = start({ stored: { user, session: session(3600) } });
    await waitFor(actor, (snapshot) => snapshot.matches('signedIn'));

    await vi.advanceTimersByTimeAsync(3300_000 - 1_000);
    expect(calls.refreshed).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1_000);
    await waitFor(actor, (snapshot) => snapshot.matches('signedIn') && calls.refreshed.length === 1);
    expect(actor.getSnapshot().context.user).toEqual(user);

    // The new token lives another hour from now: the next refresh is 3300 s later again.
    await vi.advanceTimersByTimeAsync(3300_000);
    await waitFor(actor, () => calls.refreshed.length === 2);
  });

  it('refreshes at once when the stored token has already expired', async () => {
    const { actor, calls } = start({ stored: { user, session: session(-60) } });
    await vi.advanceTimersByTimeAsync(0);
    await waitFor(actor, (snapshot) => snapshot.matches('signedIn') && calls.refreshed.length === 1);
  });

  it('signs out when a refresh fails', async () => {
    const { actor } = start({ stored: { user, session: session(10) }, refresh: async () => Promise.reject(new Error('Invalid refresh token')) });
    await vi.advanceTimersByTimeAsync(0);
    await waitFor(actor, (snapshot) => snapshot.matches('signedOut'));
    expect(actor.getSnapshot().context).toMatchObject({ user: null, session: null });
  });

  it('signs out with the refresh token, and ends signed out even when the server call fails', async () => {
    const stored = session();
    const { actor, calls } = start({ stored: { user, session: stored }, signOut: async () => Promise.reject(new Error('Network error')) });
    await waitFor(actor, (snapshot) => snapshot.matches('signedIn'));
    actor.send({ type: 'SIGN_OUT' });
    await waitFor(actor, (snapshot) => snapshot.matches('signedOut'));
    expect(calls.signedOut).toEqual([stored]);
    expect(actor.getSnapshot().context).toEqual({ user: null, session: null, error: null });
  });

  it('stops refreshing once signed out', async () => {
    const { actor, calls } = start({ stored: { user, session: session(3600) } });
    await waitFor(actor, (snapshot) => snapshot.matches('signedIn'));
    actor.send({ type: 'SIGN_OUT' });
    await waitFor(actor, (snapshot) => snapshot.matches('signedOut'));
    await vi.advanceTimersByTimeAsync(7200_000);
    expect(calls.refreshed).toHaveLength(0);
  });
});

describe('reading access tokens', () => {
  it('needs three dot-separated parts and a readable payload; anything else counts as expired', () => {
    expect(readAccessToken('a.b')).toBeNull();
    expect(readAccessToken('a.!!!.c')).toBeNull();
    expect(readAccessToken(token(60))).toMatchObject({ sub: 'user-1', roles: ['BUYER'] });
    expect(refreshDelay('not-a-token', Date.now())).toBe(0);
  });
});

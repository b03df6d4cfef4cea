import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { tokenFromFragment, verifyEmailOnce } from '../../web/src/features/auth/account-links';
import { forgotPasswordProblem, PASSWORD_RESET_DONE, resetPasswordProblem } from '../../web/src/features/auth/password-rules';
import { forgotPasswordSchema, resetPasswordSchema } from '../../web/src/features/auth/schemas';
import { verifyEmailMachine } from '../../web/src/features/auth/verify-email-machine';
import { ApiError } from '../../web/src/lib/api-client';
import { resendLinkMachine } from '../../web/src/lib/email-verification';

describe('the token of a mailed link, read from the fragment', () => {
  it('reads "#token=…", with or without the hash, and decodes it', () => {
    expect(tokenFromFragment('#token=abc-DEF_123')).toBe('abc-DEF_123');
    expect(tokenFromFragment('token=abc')).toBe('abc');
    expect(tokenFromFragment('#token=a%2Bb')).toBe('a+b');
    expect(tokenFromFragment('#other=1&token=xyz')).toBe('xyz');
  });

  it('is null when there is none', () => {
    for (const hash of ['', '#', '#token=', '#token=%20', '#tok=abc']) expect(tokenFromFragment(hash)).toBeNull();
  });
});

describe('forgot and reset password forms', () => {
  it('forgot: an email, well formed', () => {
    expect(forgotPasswordProblem({ email: ' ' })).toEqual({ field: 'email', message: 'Email is required' });
    expect(forgotPasswordProblem({ email: 'not-an-email' })).toEqual({ field: 'email', message: 'Please enter a valid email address' });
    expect(forgotPasswordProblem({ email: ' ada@example.com ' })).toBeNull();
    expect(forgotPasswordSchema.safeParse({ email: 'ada@example.com' }).success).toBe(true);
  });

  it('reset: every password rule the server enforces, then the confirmation', () => {
    expect(resetPasswordProblem({ newPassword: 'longenough', confirmPassword: 'longenough' })).toEqual({
      field: 'newPassword',
      message: 'Password must contain: one uppercase letter, one number, one special character (@$!%*?&)',
    });
    expect(resetPasswordProblem({ newPassword: 'Engine1!x', confirmPassword: 'Engine1!y' })).toEqual({ field: 'confirmPassword', message: 'Passwords do not match' });
    expect(resetPasswordProblem({ newPassword: 'Engine1!x', confirmPassword: 'Engine1!x' })).toBeNull();
    expect(resetPasswordSchema.safeParse({ newPassword: 'x', confirmPassword: 'x' }).error?.issues[0]?.path).toEqual(['newPassword']);
    expect(PASSWORD_RESET_DONE).toBe('Your password has been reset. Sign in with your new password.');
  });
});

describe('confirming an email from its link', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('a link without a token says so, and sends nothing', () => {
    const verify = vi.fn();
    const actor = createActor(verifyEmailMachine.provide({ actors: { verify: fromPromise<void, { token: string }>(async () => verify()) } }), { input: { token: null } }).start();
    expect(actor.getSnapshot().matches('noToken')).toBe(true);
    expect(verify).not.toHaveBeenCalled();
  });

  it('confirmed: the page is told (it reads the profile again)', async () => {
    const verified = vi.fn();
    const sent: string[] = [];
    const actor = createActor(
      verifyEmailMachine.provide({
        actors: {
          verify: fromPromise<void, { token: string }>(async ({ input }) => {
            sent.push(input.token);
          }),
        },
        actions: { verified },
      }),
      { input: { token: 'tok-1' } },
    ).start();
    await waitFor(actor, (snapshot) => snapshot.matches('verified'));
    expect(sent).toEqual(['tok-1']);
    expect(verified).toHaveBeenCalledTimes(1);
  });

  it('refused: the server\'s reason; Try Again only when it may help (no answer, or a server failure), not for a used or expired link', async () => {
    const failures = [new ApiError('This link has expired. Ask for a new one.', 400), new ApiError('Network error', 0, 'NETWORK')];
    for (const failure of failures) {
      let attempts = 0;
      const actor = createActor(
        verifyEmailMachine.provide({
          actors: {
            verify: fromPromise<void, { token: string }>(async () => {
              attempts += 1;
              if (attempts === 1) throw failure;
            }),
          },
        }),
        { input: { token: 'tok-1' } },
      ).start();
      await waitFor(actor, (snapshot) => snapshot.matches('failed'));
      expect(actor.getSnapshot().context.error).toBe(failure.message);
      actor.send({ type: 'RETRY' });
      if (failure.status === 400) {
        expect(actor.getSnapshot().matches('failed')).toBe(true);
        expect(actor.getSnapshot().context.retryable).toBe(false);
      } else {
        await waitFor(actor, (snapshot) => snapshot.matches('verified'));
      }
    }
  });

  it('each token is sent once per page load, however often the page starts (a used token would be refused the second time)', async () => {
    const fetch = vi.fn(async () => new Response(null, { status: 204 }));
    vi.stubGlobal('fetch', fetch);
    await Promise.all([verifyEmailOnce('tok-once'), verifyEmailOnce('tok-once')]);
    await verifyEmailOnce('tok-once');
    expect(fetch).toHaveBeenCalledTimes(1);
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/auth/email/verify');
    expect(JSON.parse(String(init.body))).toEqual({ token: 'tok-once' });
  });

  it('a failed call may be tried again', async () => {
    let answers = 0;
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => (answers++ === 0 ? Promise.reject(new TypeError('Failed to fetch')) : new Response(null, { status: 204 }))),
    );
    await expect(verifyEmailOnce('tok-retry')).rejects.toThrow('Failed to fetch');
    await expect(verifyEmailOnce('tok-retry')).resolves.toBeUndefined();
  });
});

describe('asking for a new link', () => {
  it('shows the server\'s words, sent or refused, and may be asked again', async () => {
    const answers = [
      async () => ({ message: 'A new link is on its way to ada@example.com.' }),
      async () => Promise.reject(new ApiError('Too many requests, please try again later', 429)),
    ];
    const actor = createActor(resendLinkMachine.provide({ actors: { resend: fromPromise(() => answers.shift()!()) } })).start();
    actor.send({ type: 'SEND' });
    await waitFor(actor, (snapshot) => snapshot.matches('sent'));
    expect(actor.getSnapshot().context.message).toBe('A new link is on its way to ada@example.com.');
    actor.send({ type: 'SEND' });
    await waitFor(actor, (snapshot) => snapshot.matches('failed'));
    expect(actor.getSnapshot().context.message).toBe('Too many requests, please try again later');
  });
});

import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { UserBid } from '../../web/src/features/account/api';
import { bidStanding, summarizeBids } from '../../web/src/features/account/bid-summary';
import { followedStatus, liveNow } from '../../web/src/features/account/favourite-filters';
import { profileMachine } from '../../web/src/features/account/profile-machine';
import { emailChangeSchema, passwordChangeSchema } from '../../web/src/features/account/schemas';
import { emailChangeProblem, failureWithReason, passwordChangeProblem } from '../../web/src/features/account/security-rules';
import { emailChangeNotice, PASSWORD_UPDATED, securityMachine } from '../../web/src/features/account/security-machine';
import { formatShare } from '../../web/src/features/admin/dashboard/figures-machine';
import type { UserProfile as User } from '../../api/contracts/accounts';
import { passwordProblem, unmetPasswordRules } from '../../api/contracts/account-rules';
import {
  LOGIN_FAILED,
  loginProblem,
  REGISTRATION_FAILED,
  registerProblem,
  registrationFailureMessage,
  type RegisterValues,
} from '../../web/src/features/auth/password-rules';
import { loginSchema, registerSchema } from '../../web/src/features/auth/schemas';
import { ApiError } from '../../web/src/lib/api-client';
import type { FollowedItem } from '../../web/src/lib/watchlist/followed';

const complete: RegisterValues = { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', password: 'Engine1!x', confirmPassword: 'Engine1!x' };

describe('register rules, in order', () => {
  it('reports the first unmet rule only, in the spec order, with the spec messages', () => {
    const empty: RegisterValues = { firstName: '', lastName: '', email: '', password: '', confirmPassword: '' };
    const steps: Array<[Partial<RegisterValues>, string | null]> = [
      [{}, 'First name is required'],
      [{ firstName: 'Ada' }, 'Last name is required'],
      [{ lastName: 'Lovelace' }, 'Email is required'],
      [{ email: 'ada@example.com' }, 'Password must contain: at least 8 characters, one lowercase letter, one uppercase letter, one number, one special character (@$!%*?&)'],
      [{ password: 'Engine1!x' }, 'Passwords do not match'],
      [{ confirmPassword: 'Engine1!x' }, null],
    ];
    let values = empty;
    for (const [change, expected] of steps) {
      values = { ...values, ...change };
      expect(registerProblem(values)?.message ?? null).toBe(expected);
    }
  });

  it('names the field of each problem, and blank names count as missing', () => {
    expect(registerProblem({ ...complete, firstName: '   ' })).toEqual({ field: 'firstName', message: 'First name is required' });
    expect(registerProblem({ ...complete, lastName: ' ' })?.field).toBe('lastName');
    expect(registerProblem({ ...complete, email: 'not-an-email' })).toEqual({ field: 'email', message: 'Please enter a valid email address' });
    expect(registerProblem({ ...complete, confirmPassword: 'Engine1!y' })).toEqual({ field: 'confirmPassword', message: 'Passwords do not match' });
  });

  it('lists only the unmet password rules, shrinking as they are met', () => {
    expect(unmetPasswordRules('')).toHaveLength(5);
    expect(unmetPasswordRules('a')).toEqual(['at least 8 characters', 'one uppercase letter', 'one number', 'one special character (@$!%*?&)']);
    expect(unmetPasswordRules('aB')).toEqual(['at least 8 characters', 'one number', 'one special character (@$!%*?&)']);
    expect(unmetPasswordRules('aB3')).toEqual(['at least 8 characters', 'one special character (@$!%*?&)']);
    expect(unmetPasswordRules('aB3!')).toEqual(['at least 8 characters']);
    expect(unmetPasswordRules('aB3!long')).toEqual([]);
    // Only the spec's special characters count.
    expect(unmetPasswordRules('aB3#long')).toEqual(['one special character (@$!%*?&)']);
    expect(passwordProblem('aB3!')).toBe('Password must contain: at least 8 characters');
    expect(passwordProblem('aB3!long')).toBeNull();
  });

  it('the register schema carries the same first message on the same field', () => {
    const result = registerSchema.safeParse({ ...complete, lastName: '', password: 'x' });
    expect(result.success).toBe(false);
    expect(result.error?.issues).toEqual([expect.objectContaining({ path: ['lastName'], message: 'Last name is required' })]);
    expect(registerSchema.safeParse(complete).success).toBe(true);
  });

  it('login needs an email and a password; any failure reads "Invalid email or password"', () => {
    expect(loginProblem({ email: '', password: 'x' })?.message).toBe('Email is required');
    expect(loginProblem({ email: 'a@b.co', password: '' })?.message).toBe('Password is required');
    expect(loginSchema.safeParse({ email: 'a@b.co', password: 'x' }).success).toBe(true);
    expect(LOGIN_FAILED).toBe('Invalid email or password');
  });

  it('shows the server reason for a refused registration, the spec words for anything else', () => {
    expect(registrationFailureMessage('An account with this email already exists')).toBe('An account with this email already exists');
    expect(registrationFailureMessage(REGISTRATION_FAILED)).toBe(REGISTRATION_FAILED);
    for (const transport of [null, '', 'Registration failed', 'Network error', 'The server took too long to answer', 'HTTP 502']) {
      expect(registrationFailureMessage(transport)).toBe('Registration failed. Please try again.');
    }
  });
});

describe('email and password change checks', () => {
  it('email: required, matching, and different from the current one', () => {
    const current = 'ada@example.com';
    expect(emailChangeProblem(current, { newEmail: '', confirmEmail: '' })?.message).toBe('New email is required');
    expect(emailChangeProblem(current, { newEmail: 'new@example.com', confirmEmail: 'other@example.com' })).toEqual({
      field: 'confirmEmail',
      message: 'Email addresses do not match',
    });
    expect(emailChangeProblem(current, { newEmail: 'ADA@example.com', confirmEmail: 'ada@example.com' })).toEqual({
      field: 'newEmail',
      message: 'New email must be different from current email',
    });
    expect(emailChangeProblem(current, { newEmail: 'new@example.com', confirmEmail: ' new@example.com ' })).toBeNull();
    expect(emailChangeSchema(current).safeParse({ newEmail: 'a@b.co', confirmEmail: 'c@d.co' }).error?.issues[0]?.message).toBe('Email addresses do not match');
  });

  it('password: the current one required, the new one meeting every rule the server enforces, confirmed', () => {
    expect(passwordChangeProblem({ currentPassword: '', newPassword: 'Engine1!x', confirmPassword: 'Engine1!x' })?.message).toBe('Current password is required');
    expect(passwordChangeProblem({ currentPassword: 'old', newPassword: 'short', confirmPassword: 'short' })?.message).toBe(
      'Password must contain: at least 8 characters, one uppercase letter, one number, one special character (@$!%*?&)',
    );
    // Long enough is not enough: the server would refuse it.
    expect(passwordChangeProblem({ currentPassword: 'old', newPassword: 'longenough', confirmPassword: 'longenough' })).toEqual({
      field: 'newPassword',
      message: 'Password must contain: one uppercase letter, one number, one special character (@$!%*?&)',
    });
    expect(passwordChangeProblem({ currentPassword: 'old', newPassword: 'Engine1!x', confirmPassword: 'Engine1!y' })).toEqual({
      field: 'confirmPassword',
      message: 'Passwords do not match',
    });
    expect(passwordChangeProblem({ currentPassword: 'old', newPassword: 'Engine1!x', confirmPassword: 'Engine1!x' })).toBeNull();
    expect(passwordChangeSchema.safeParse({ currentPassword: 'old', newPassword: 'Engine1!x', confirmPassword: 'Engine1!x' }).success).toBe(true);
  });

  it('failure texts carry the server reason when there is one', () => {
    expect(failureWithReason('Failed to update email', 'An account with this email already exists')).toBe('Failed to update email: An account with this email already exists');
    expect(failureWithReason('Failed to update profile', null)).toBe('Failed to update profile');
  });
});

const user: User = {
  id: 'u1',
  email: 'ada@example.com',
  firstName: 'Ada',
  lastName: 'Lovelace',
  phone: null,
  status: 'ACTIVE',
  roles: ['BUYER'],
  createdAt: '2031-03-04T05:06:07.000Z',
  marketingOptIn: false,
  transactionalOptOut: false,
  emailVerified: true,
  pendingEmail: null,
};

describe('security machine', () => {
  afterEach(() => vi.useRealTimers());

  it('a changed password signs out 2000 ms later, not before', async () => {
    vi.useFakeTimers();
    const signOut = vi.fn();
    const sent: unknown[] = [];
    const machine = securityMachine.provide({
      actors: {
        changePassword: fromPromise(async ({ input }) => {
          sent.push(input);
          return { message: PASSWORD_UPDATED };
        }),
      },
      actions: { signOut },
    });
    const actor = createActor(machine, { input: { userId: 'u1' } }).start();
    actor.send({ type: 'OPEN_PASSWORD' });
    actor.send({ type: 'SUBMIT_PASSWORD', currentPassword: 'Old1!pass', newPassword: 'New1!pass' });
    // xstate's waitFor, not vi.waitFor: the latter moves fake time forward while it polls.
    await waitFor(actor, (snapshot) => snapshot.matches('passwordChanged'));
    expect(sent).toEqual([{ userId: 'u1', currentPassword: 'Old1!pass', newPassword: 'New1!pass' }]);
    expect(actor.getSnapshot().context.notice).toBe('Password updated successfully. You will be logged out shortly.');
    vi.advanceTimersByTime(1999);
    expect(signOut).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(signOut).toHaveBeenCalledTimes(1);
    expect(actor.getSnapshot().status).toBe('done');
  });

  it('a refused password change stays in the form with the reason', async () => {
    const actor = createActor(
      securityMachine.provide({
        actors: {
          changePassword: fromPromise<unknown, { userId: string; currentPassword: string; newPassword: string }>(async () => {
            throw new ApiError('Current password is incorrect', 403);
          }),
        },
      }),
      { input: { userId: 'u1' } },
    ).start();
    actor.send({ type: 'OPEN_PASSWORD' });
    actor.send({ type: 'SUBMIT_PASSWORD', currentPassword: 'wrong', newPassword: 'New1!pass' });
    await waitFor(actor, (snapshot) => snapshot.matches({ password: 'editing' }) && snapshot.context.error !== null);
    expect(actor.getSnapshot().context.error).toBe('Failed to update password: Current password is incorrect');
  });

  it('an email change waits for the link mailed to the new address: the session user carries it as pending, and the page says where to look', async () => {
    const changed: User = { ...user, pendingEmail: 'new@example.com' };
    const userChanged = vi.fn();
    const actor = createActor(
      securityMachine.provide({
        actors: { changeEmail: fromPromise(async () => changed) },
        actions: { userChanged: (_, params) => userChanged(params) },
      }),
      { input: { userId: 'u1' } },
    ).start();
    actor.send({ type: 'OPEN_EMAIL' });
    actor.send({ type: 'SUBMIT_EMAIL', newEmail: 'new@example.com' });
    await waitFor(actor, (snapshot) => snapshot.matches('none'));
    expect(actor.getSnapshot().context.notice).toBe('Check new@example.com for a link to confirm the change');
    expect(emailChangeNotice('a@b.co')).toBe('Check a@b.co for a link to confirm the change');
    expect(userChanged).toHaveBeenCalledWith({ user: changed });
  });
});

describe('profile machine', () => {
  it('view, edit, cancel, save; a failed save stays in edit mode with the spec text', async () => {
    let fail = true;
    const saved: unknown[] = [];
    const actor = createActor(
      profileMachine.provide({
        actors: {
          loadProfile: fromPromise(async () => user),
          saveProfile: fromPromise(async ({ input }) => {
            saved.push(input.values);
            if (fail) throw new ApiError('Please enter a valid phone number', 400);
            return { ...user, ...input.values, phone: input.values.phone || null };
          }),
        },
      }),
      { input: { userId: 'u1' } },
    ).start();
    await waitFor(actor, (snapshot) => snapshot.matches('viewing'));
    actor.send({ type: 'EDIT' });
    actor.send({ type: 'CANCEL' });
    expect(actor.getSnapshot().matches('viewing')).toBe(true);
    actor.send({ type: 'EDIT' });
    const preferences = { marketingOptIn: true, transactionalOptOut: true };
    actor.send({ type: 'SAVE', values: { firstName: 'Ada', lastName: 'King', phone: 'x', ...preferences } });
    await waitFor(actor, (snapshot) => snapshot.matches('editing') && snapshot.context.error !== null);
    expect(actor.getSnapshot().context.error).toBe('Failed to update profile: Please enter a valid phone number');
    fail = false;
    actor.send({ type: 'SAVE', values: { firstName: 'Ada', lastName: 'King', phone: '', ...preferences } });
    await waitFor(actor, (snapshot) => snapshot.matches('viewing'));
    expect(actor.getSnapshot().context).toMatchObject({ notice: 'Profile updated', error: null, profile: { lastName: 'King', ...preferences } });
    // The email preferences go with the profile.
    expect(saved.at(-1)).toMatchObject(preferences);
  });

  it('a failed load says "Failed to load profile" and can be retried', async () => {
    let attempts = 0;
    const actor = createActor(
      profileMachine.provide({
        actors: {
          loadProfile: fromPromise(async () => {
            attempts += 1;
            if (attempts === 1) throw new Error('boom');
            return user;
          }),
        },
      }),
      { input: { userId: 'u1' } },
    ).start();
    await waitFor(actor, (snapshot) => snapshot.matches('loadFailed'));
    expect(actor.getSnapshot().context.error).toBe('Failed to load profile');
    actor.send({ type: 'RETRY' });
    await waitFor(actor, (snapshot) => snapshot.matches('viewing'));
  });
});

function bid(overrides: Partial<UserBid>): UserBid {
  return {
    id: 'b',
    auctionId: 'a1',
    bidderId: 'u1',
    amount: 10,
    maxAmount: null,
    placedAt: '2031-01-01T00:00:00.000Z',
    status: 'ACCEPTED',
    kind: 'BID',
    listingId: 'l1',
    listingTitle: 'Jersey',
    listingSlug: 'jersey',
    auctionStatus: 'ACTIVE',
    currentPrice: 10,
    endsAt: null,
    isLeading: true,
    result: null,
    isWinner: false,
    ...overrides,
  };
}

describe('dashboard figures from the real bids', () => {
  it('counts bids, auctions, leading, outbid and won; a raised maximum is not a bid', () => {
    const bids = [
      bid({ id: '1', auctionId: 'a1', kind: 'MAXIMUM' }),
      bid({ id: '2', auctionId: 'a1' }),
      bid({ id: '3', auctionId: 'a2', isLeading: false }),
      bid({ id: '4', auctionId: 'a3', auctionStatus: 'ENDED', isLeading: true, isWinner: true, result: 'SOLD' }),
      bid({ id: '5', auctionId: 'a4', auctionStatus: 'ENDED', isLeading: false }),
    ];
    expect(summarizeBids(bids)).toEqual({ bidsPlaced: 4, auctionsBidOn: 4, leading: 1, outbid: 1, won: 1 });
    expect(summarizeBids([])).toEqual({ bidsPlaced: 0, auctionsBidOn: 0, leading: 0, outbid: 0, won: 0 });
    expect(bids.map(bidStanding)).toEqual(['Leading', 'Leading', 'Outbid', 'Won', 'Ended']);
  });

  it('"Now live": followed lots whose auction is ACTIVE and not ended (a heart kept on this device: its listing LIVE when saved); NFC success reads as a percentage or a dash', () => {
    const now = Date.parse('2031-01-01T00:00:00.000Z');
    const base = { slug: 's', title: 't', imageUrl: null, currentPrice: '1.00', addedAt: '2031-01-01T00:00:00.000Z', savedLocally: false } as const;
    const tomorrow = '2031-01-02T00:00:00.000Z';
    const yesterday = '2030-12-31T00:00:00.000Z';
    const followed: FollowedItem[] = [
      { ...base, listingId: 'live', listingStatus: 'LIVE', auctionStatus: 'ACTIVE', endsAt: tomorrow },
      { ...base, listingId: 'past its end', listingStatus: 'LIVE', auctionStatus: 'ACTIVE', endsAt: yesterday },
      { ...base, listingId: 'not started', listingStatus: 'LIVE', auctionStatus: 'PENDING', endsAt: tomorrow },
      { ...base, listingId: 'sold', listingStatus: 'SOLD', auctionStatus: 'ENDED', endsAt: yesterday },
      { ...base, listingId: 'no auction', listingStatus: 'LIVE', auctionStatus: null, endsAt: null },
      { ...base, listingId: 'saved here', listingStatus: 'LIVE', auctionStatus: null, endsAt: tomorrow, savedLocally: true },
      { ...base, listingId: 'saved here, ended', listingStatus: 'LIVE', auctionStatus: null, endsAt: yesterday, savedLocally: true },
    ];
    expect(liveNow(followed, now).map((item) => item.listingId)).toEqual(['live', 'saved here']);
    expect(followed.map((item) => followedStatus(item, now))).toEqual(['Live', 'Ended', 'Starts soon', 'Sold', 'No auction', 'Live', 'Ended']);
    expect(formatShare(null)).toBe('—');
    expect(formatShare(0.875)).toBe('88%');
  });
});

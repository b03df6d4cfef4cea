import { assign, fromPromise, setup } from 'xstate';
import type { UserProfile } from '../../../../api/contracts/accounts';
import { changeEmail, changePassword } from './api';
import { failureWithReason } from './security-rules';

/** The user is signed out this long after a password change, long enough to read that it worked. */
export const LOGOUT_AFTER_PASSWORD_CHANGE_MS = 2000;

/** An email change waits for the link mailed to the new address (the old address is told). */
export function emailChangeNotice(newAddress: string): string {
  return `Check ${newAddress} for a link to confirm the change`;
}
export const PASSWORD_UPDATED = 'Password updated successfully. You will be logged out shortly.';

export interface SecurityContext {
  readonly userId: string;
  readonly error: string | null;
  readonly notice: string | null;
}

export type SecurityEvent =
  | { type: 'OPEN_EMAIL' }
  | { type: 'OPEN_PASSWORD' }
  | { type: 'CLOSE' }
  | { type: 'SUBMIT_EMAIL'; newEmail: string }
  | { type: 'SUBMIT_PASSWORD'; currentPassword: string; newPassword: string }
  | { type: 'DISMISS' };

const reason = (error: unknown) => (error instanceof Error ? error.message : null);

/**
 * The Security & Privacy tab: the open editor is none, email or password. An email change asked
 * for updates the session's user (its pending address); a changed password ends every session on
 * the server, so the page signs out 2000 ms later. `userChanged` and `signOut` are provided by the page.
 */
export const securityMachine = setup({
  types: {
    context: {} as SecurityContext,
    events: {} as SecurityEvent,
    input: {} as { userId: string },
  },
  actors: {
    changeEmail: fromPromise<UserProfile, { userId: string; newEmail: string }>(({ input }) => changeEmail(input.userId, input.newEmail)),
    changePassword: fromPromise<unknown, { userId: string; currentPassword: string; newPassword: string }>(({ input }) =>
      changePassword(input.userId, input.currentPassword, input.newPassword),
    ),
  },
  actions: {
    userChanged: (_, _params: { user: UserProfile }) => {},
    signOut: () => {},
  },
  delays: { logoutDelay: LOGOUT_AFTER_PASSWORD_CHANGE_MS },
}).createMachine({
  id: 'security',
  initial: 'none',
  context: ({ input }) => ({ userId: input.userId, error: null, notice: null }),
  on: { DISMISS: { actions: assign({ error: null, notice: null }) } },
  states: {
    none: {
      on: {
        OPEN_EMAIL: { target: 'email', actions: assign({ error: null, notice: null }) },
        OPEN_PASSWORD: { target: 'password', actions: assign({ error: null, notice: null }) },
      },
    },
    email: {
      initial: 'editing',
      on: {
        CLOSE: { target: 'none', actions: assign({ error: null }) },
        OPEN_PASSWORD: { target: 'password', actions: assign({ error: null, notice: null }) },
      },
      states: {
        editing: { on: { SUBMIT_EMAIL: 'saving' } },
        saving: {
          invoke: {
            src: 'changeEmail',
            input: ({ context, event }) => ({ userId: context.userId, newEmail: (event as Extract<SecurityEvent, { type: 'SUBMIT_EMAIL' }>).newEmail }),
            onDone: {
              target: '#security.none',
              actions: [
                assign(({ event }) => ({ error: null, notice: emailChangeNotice(event.output.pendingEmail ?? event.output.email) })),
                { type: 'userChanged', params: ({ event }) => ({ user: event.output }) },
              ],
            },
            onError: { target: 'editing', actions: assign({ error: ({ event }) => failureWithReason('Failed to update email', reason(event.error)) }) },
          },
        },
      },
    },
    password: {
      initial: 'editing',
      on: {
        CLOSE: { target: 'none', actions: assign({ error: null }) },
        OPEN_EMAIL: { target: 'email', actions: assign({ error: null, notice: null }) },
      },
      states: {
        editing: { on: { SUBMIT_PASSWORD: 'saving' } },
        saving: {
          invoke: {
            src: 'changePassword',
            input: ({ context, event }) => {
              const { currentPassword, newPassword } = event as Extract<SecurityEvent, { type: 'SUBMIT_PASSWORD' }>;
              return { userId: context.userId, currentPassword, newPassword };
            },
            onDone: { target: '#security.passwordChanged', actions: assign({ error: null, notice: PASSWORD_UPDATED }) },
            onError: { target: 'editing', actions: assign({ error: ({ event }) => failureWithReason('Failed to update password', reason(event.error)) }) },
          },
        },
      },
    },
    // Nothing else can happen now: the server has already ended every session.
    passwordChanged: {
      after: { logoutDelay: 'signedOut' },
    },
    signedOut: {
      type: 'final',
      entry: 'signOut',
    },
  },
});

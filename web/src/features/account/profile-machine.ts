import { assign, fromPromise, setup } from 'xstate';
import type { User } from '../../lib/auth/auth-machine';
import { fetchProfile, saveProfile, unlessAborted, type ProfileValues } from './api';
import { failureWithReason } from './security-rules';

export interface ProfileContext {
  readonly userId: string;
  readonly profile: User | null;
  readonly error: string | null;
  readonly notice: string | null;
}

export type ProfileEvent =
  | { type: 'EDIT' }
  | { type: 'CANCEL' }
  | { type: 'SAVE'; values: ProfileValues }
  | { type: 'RETRY' }
  | { type: 'DISMISS' };

const reason = (error: unknown) => (error instanceof Error ? error.message : null);

/**
 * Spec section 4, "Profile": loaded fresh from the server, view mode to edit mode, Cancel
 * restores (the form is rebuilt from the saved profile), Save writes and returns to view mode.
 * `userChanged` tells the session about the saved user; the page provides it.
 */
export const profileMachine = setup({
  types: {
    context: {} as ProfileContext,
    events: {} as ProfileEvent,
    input: {} as { userId: string },
  },
  actors: {
    loadProfile: fromPromise<User, { userId: string }>(({ input, signal }) => unlessAborted(signal, (aborted) => fetchProfile(input.userId, aborted))),
    saveProfile: fromPromise<User, { userId: string; values: ProfileValues }>(({ input }) => saveProfile(input.userId, input.values)),
  },
  actions: {
    userChanged: (_, _params: { user: User }) => {},
  },
}).createMachine({
  id: 'profile',
  initial: 'loading',
  context: ({ input }) => ({ userId: input.userId, profile: null, error: null, notice: null }),
  on: { DISMISS: { actions: assign({ error: null, notice: null }) } },
  states: {
    loading: {
      invoke: {
        src: 'loadProfile',
        input: ({ context }) => ({ userId: context.userId }),
        onDone: {
          target: 'viewing',
          actions: [assign({ profile: ({ event }) => event.output, error: null }), { type: 'userChanged', params: ({ event }) => ({ user: event.output }) }],
        },
        onError: { target: 'loadFailed', actions: assign({ error: 'Failed to load profile' }) },
      },
    },
    loadFailed: {
      on: { RETRY: { target: 'loading', actions: assign({ error: null }) } },
    },
    viewing: {
      on: { EDIT: { target: 'editing', actions: assign({ error: null, notice: null }) } },
    },
    editing: {
      on: {
        CANCEL: { target: 'viewing', actions: assign({ error: null }) },
        SAVE: 'saving',
      },
    },
    saving: {
      invoke: {
        src: 'saveProfile',
        input: ({ context, event }) => ({ userId: context.userId, values: (event as Extract<ProfileEvent, { type: 'SAVE' }>).values }),
        onDone: {
          target: 'viewing',
          actions: [
            assign({ profile: ({ event }) => event.output, error: null, notice: 'Profile updated' }),
            { type: 'userChanged', params: ({ event }) => ({ user: event.output }) },
          ],
        },
        onError: { target: 'editing', actions: assign({ error: ({ event }) => failureWithReason('Failed to update profile', reason(event.error)) }) },
      },
    },
  },
});

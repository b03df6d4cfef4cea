import { assign, fromPromise, setup } from 'xstate';
import type { UserProfile } from '../../../../api/contracts/accounts';
import { unlessAborted } from '../../lib/api-client';
import { fetchProfile, saveProfile } from './api';
import { failureWithReason, type ProfileFormValues } from './security-rules';

export interface ProfileContext {
  readonly userId: string;
  readonly profile: UserProfile | null;
  readonly error: string | null;
  readonly notice: string | null;
}

export type ProfileEvent =
  | { type: 'EDIT' }
  | { type: 'CANCEL' }
  | { type: 'SAVE'; values: ProfileFormValues }
  | { type: 'RETRY' }
  | { type: 'DISMISS' };

const reason = (error: unknown) => (error instanceof Error ? error.message : null);

/**
 * The profile: loaded fresh from the server, view mode to edit mode, Cancel
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
    loadProfile: fromPromise<UserProfile, { userId: string }>(({ input, signal }) => unlessAborted(signal, (aborted) => fetchProfile(input.userId, aborted))),
    saveProfile: fromPromise<UserProfile, { userId: string; values: ProfileFormValues }>(({ input }) => saveProfile(input.userId, input.values)),
  },
  actions: {
    userChanged: (_, _params: { user: UserProfile }) => {},
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

import { assign, fromPromise, setup } from 'xstate';
import { ApiError, errorMessage } from '../../lib/api-client';
import { verifyEmailOnce } from './account-links';

/**
 * /verify-email: the token from the mailed link is sent as the page opens; then confirmed, or the
 * server's reason (used, expired, unknown). A link without a token is said so at once. `verified`
 * tells the page (it reads the signed-in user's profile again).
 */
export const verifyEmailMachine = setup({
  types: {
    context: {} as {
      token: string | null;
      error: string | null;
      /** No answer, or the server failed: worth trying again (a used or expired link is not). */
      retryable: boolean;
    },
    events: {} as { type: 'RETRY' },
    input: {} as { token: string | null },
  },
  actors: {
    verify: fromPromise<void, { token: string }>(({ input }) => verifyEmailOnce(input.token)),
  },
  actions: {
    verified: () => {},
  },
}).createMachine({
  id: 'verifyEmail',
  context: ({ input }) => ({ token: input.token, error: null, retryable: false }),
  initial: 'starting',
  states: {
    starting: {
      always: [{ guard: ({ context }) => context.token === null, target: 'noToken' }, { target: 'verifying' }],
    },
    noToken: {},
    verifying: {
      invoke: {
        src: 'verify',
        input: ({ context }) => ({ token: context.token! }),
        onDone: { target: 'verified', actions: 'verified' },
        onError: {
          target: 'failed',
          actions: assign(({ event }) => ({
            error: errorMessage(event.error, 'This link could not be checked. Please try again.'),
            retryable: !(event.error instanceof ApiError) || event.error.status === 0 || event.error.status >= 500,
          })),
        },
      },
    },
    verified: {},
    failed: { on: { RETRY: { guard: ({ context }) => context.retryable, target: 'verifying', actions: assign({ error: null }) } } },
  },
});

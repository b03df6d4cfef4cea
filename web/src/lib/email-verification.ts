import { assign, fromPromise, setup } from 'xstate';
import type { z } from 'zod';
import type { messageAnswerSchema } from '../../../api/contracts/accounts';
import { apiRequest, errorMessage } from './api-client';

/** Asking for a new link to confirm the signed-in user's email: from the reminder on the account pages and from a link that did not work. */

export function resendVerificationLink(): Promise<z.infer<typeof messageAnswerSchema>> {
  return apiRequest('/api/auth/email/verify/resend', { method: 'POST', auth: true });
}

/** One button's life: ask, then the server's own words (sent, or why not); it may be asked again. */
export const resendLinkMachine = setup({
  types: {
    context: {} as { message: string | null },
    events: {} as { type: 'SEND' },
  },
  actors: {
    resend: fromPromise(() => resendVerificationLink()),
  },
}).createMachine({
  id: 'resendLink',
  initial: 'idle',
  context: { message: null },
  states: {
    idle: { on: { SEND: 'sending' } },
    sending: {
      invoke: {
        src: 'resend',
        onDone: { target: 'sent', actions: assign({ message: ({ event }) => event.output.message }) },
        onError: { target: 'failed', actions: assign({ message: ({ event }) => errorMessage(event.error, 'Could not send a new link. Please try again.') }) },
      },
    },
    sent: { on: { SEND: 'sending' } },
    failed: { on: { SEND: 'sending' } },
  },
});

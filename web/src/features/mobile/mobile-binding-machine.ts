import { assign, fromPromise, setup } from 'xstate';
import type { BindingLink, TagBindingAnswer, TagChoice } from '../../../../api/contracts/admin/nfc';
import { ApiError, errorMessage, unlessAborted } from '../../lib/api-client';
import { parseTagInput, tagChoiceOf, type ValidTagInput } from '../../lib/nfc-input';
import { bindTagWithLink, fetchBindingLink } from './api';
import { scanTag, type ScanEvent } from './nfc-scan';

/** Why the link cannot bind: each is told apart, with what to do about it. */
export type LinkProblem = 'used' | 'expired' | 'wrong';

export const TAG_WITHOUT_UID = 'This tag did not give its UID. Type its UID or claim code below.';
export const TAG_UNREADABLE_HINT = 'That tag could not be read. Hold it still against the back of your phone.';

export interface MobileBindingContext {
  readonly token: string | null;
  /** The phone has Web NFC: Scan tag is offered. */
  readonly nfcAvailable: boolean;
  readonly link: BindingLink | null;
  readonly problem: LinkProblem | null;
  /** The tag being bound. */
  readonly tag: ValidTagInput | null;
  readonly bound: TagBindingAnswer | null;
  readonly error: string | null;
  readonly scanHint: string | null;
}

export type MobileBindingEvent =
  | { type: 'SCAN' }
  | { type: 'CANCEL_SCAN' }
  | { type: 'SUBMIT'; tag: ValidTagInput }
  | { type: 'RETRY' }
  | { type: 'DISMISS' }
  | ScanEvent;

/** The link's own refusals, which answer both calls alike (410 used or expired, 404 unknown). */
export function linkProblemOf(error: unknown): LinkProblem | null {
  if (!(error instanceof ApiError)) return null;
  switch (error.code) {
    case 'BINDING_LINK_USED':
      return 'used';
    case 'BINDING_LINK_EXPIRED':
      return 'expired';
    case 'BINDING_LINK_NOT_FOUND':
      return 'wrong';
    default:
      return null;
  }
}

/** Opening the link, a token the API cannot even read (400) or a listing gone (404) is a wrong link too. */
function openingProblemOf(error: unknown): LinkProblem | null {
  return linkProblemOf(error) ?? (error instanceof ApiError && (error.status === 400 || error.status === 404) ? 'wrong' : null);
}

const scannedUid = (serialNumber: string) => parseTagInput(serialNumber, 'uid');

/**
 * The phone's side of the admin's QR code: open the link (the listing it is for), then take the
 * tag by a Web NFC scan or as typed, and bind it once. A refused bind (unknown tag, ...) leaves the
 * link usable; a used, expired or unknown link ends here with its own message.
 */
export const mobileBindingMachine = setup({
  types: {
    context: {} as MobileBindingContext,
    events: {} as MobileBindingEvent,
    input: {} as { token: string | null; nfcAvailable: boolean },
  },
  actors: {
    loadLink: fromPromise<BindingLink, { token: string }>(({ input, signal }) => unlessAborted(signal, (aborted) => fetchBindingLink(input.token, aborted))),
    bindTag: fromPromise<TagBindingAnswer, { token: string; choice: TagChoice }>(({ input }) => bindTagWithLink(input.token, input.choice)),
    scanTag,
  },
  guards: {
    hasToken: ({ context }) => context.token !== null,
    listingTakesTag: (_, { link }: { link: BindingLink }) => link.status === 'SAVED',
    linkRefused: (_, { error }: { error: unknown }) => linkProblemOf(error) !== null,
    openingRefused: (_, { error }: { error: unknown }) => openingProblemOf(error) !== null,
    nfcAvailable: ({ context }) => context.nfcAvailable,
    uidScanned: (_, { serialNumber }: { serialNumber: string }) => scannedUid(serialNumber).kind === 'uid',
  },
}).createMachine({
  id: 'mobileBinding',
  initial: 'start',
  context: ({ input }) => ({
    token: input.token,
    nfcAvailable: input.nfcAvailable,
    link: null,
    problem: null,
    tag: null,
    bound: null,
    error: null,
    scanHint: null,
  }),
  on: { DISMISS: { actions: assign({ error: null }) } },
  states: {
    start: {
      always: [{ guard: 'hasToken', target: 'loading' }, { target: 'linkProblem', actions: assign({ problem: 'wrong' }) }],
    },
    loading: {
      invoke: {
        src: 'loadLink',
        input: ({ context }) => ({ token: context.token! }),
        onDone: [
          { guard: { type: 'listingTakesTag', params: ({ event }) => ({ link: event.output }) }, target: 'ready', actions: assign({ link: ({ event }) => event.output }) },
          { target: 'listingTaken', actions: assign({ link: ({ event }) => event.output }) },
        ],
        onError: [
          {
            guard: { type: 'openingRefused', params: ({ event }) => ({ error: event.error }) },
            target: 'linkProblem',
            actions: assign({ problem: ({ event }) => openingProblemOf(event.error) }),
          },
          { target: 'loadFailed', actions: assign({ error: ({ event }) => errorMessage(event.error, 'Failed to open the binding link') }) },
        ],
      },
    },
    loadFailed: {
      on: { RETRY: { target: 'loading', actions: assign({ error: null }) } },
    },
    ready: {
      on: {
        SCAN: { guard: 'nfcAvailable', target: 'scanning', actions: assign({ error: null, scanHint: null }) },
        SUBMIT: { target: 'submitting', actions: assign({ tag: ({ event }) => event.tag, error: null }) },
      },
    },
    scanning: {
      invoke: { src: 'scanTag' },
      on: {
        TAG_READ: [
          {
            guard: { type: 'uidScanned', params: ({ event }) => ({ serialNumber: event.serialNumber }) },
            target: 'submitting',
            actions: assign({ tag: ({ event }) => scannedUid(event.serialNumber) as ValidTagInput }),
          },
          { target: 'ready', actions: assign({ error: TAG_WITHOUT_UID }) },
        ],
        TAG_UNREADABLE: { actions: assign({ scanHint: TAG_UNREADABLE_HINT }) },
        SCAN_FAILED: { target: 'ready', actions: assign({ error: ({ event }) => event.message }) },
        CANCEL_SCAN: 'ready',
        // Typing while the phone listens: the typed tag wins and the scan stops.
        SUBMIT: { target: 'submitting', actions: assign({ tag: ({ event }) => event.tag, error: null }) },
      },
      exit: assign({ scanHint: null }),
    },
    submitting: {
      invoke: {
        src: 'bindTag',
        input: ({ context }) => ({ token: context.token!, choice: tagChoiceOf(context.tag!) }),
        onDone: { target: 'bound', actions: assign({ bound: ({ event }) => event.output }) },
        onError: [
          {
            guard: { type: 'linkRefused', params: ({ event }) => ({ error: event.error }) },
            target: 'linkProblem',
            actions: assign({ problem: ({ event }) => linkProblemOf(event.error) }),
          },
          { target: 'ready', actions: assign({ error: ({ event }) => errorMessage(event.error, 'Failed to bind NFC tag') }) },
        ],
      },
    },
    bound: { type: 'final' },
    // The listing is no longer SAVED (a tag was bound another way, or it was published).
    listingTaken: { type: 'final' },
    linkProblem: { type: 'final' },
  },
});

import { assign, emit, fromPromise, setup } from 'xstate';
import type { ProvisionTagRequest } from '../../../../../api/contracts/admin/nfc';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { createPagedTableMachine } from '../../../lib/paged-table-machine';
import { fetchTagPage, provisionTag, type NfcTag } from './api';

/** The pool's table: a page per filter, search and page number. */
export const tagsTableMachine = createPagedTableMachine({ id: 'nfcTagsTable', what: 'NFC tags', fetchPage: fetchTagPage });

export type ProvisionField = 'uid' | 'claimCode';

export interface ProvisionFailure {
  /** The field the refusal belongs to; null for the banner. */
  readonly field: ProvisionField | null;
  readonly message: string;
}

/** The server's refusals that name one field are shown at it: a bad or taken UID, a bad or taken claim code. */
const FIELD_OF_CODE: Readonly<Record<string, ProvisionField>> = {
  INVALID_NFC_UID: 'uid',
  NFC_TAG_ALREADY_PROVISIONED: 'uid',
  INVALID_CLAIM_CODE: 'claimCode',
  CLAIM_CODE_TAKEN: 'claimCode',
};

function provisionFailure(error: unknown): ProvisionFailure {
  const field = error instanceof ApiError && error.code ? (FIELD_OF_CODE[error.code] ?? null) : null;
  return { field, message: errorMessage(error, 'Failed to provision the tag: Network error') };
}

/**
 * Adding a tag to the pool: one call at a time, the new tag kept to point it out in the table (and
 * emitted as `provisioned` so the table shows it), or the refusal at its field or in the banner.
 * Editing the field a refusal names clears it.
 */
export const provisionTagMachine = setup({
  types: {
    context: {} as { request: ProvisionTagRequest | null; provisioned: NfcTag | null; failure: ProvisionFailure | null },
    events: {} as
      | { type: 'PROVISION'; request: ProvisionTagRequest }
      | { type: 'FIELD_EDITED'; field: ProvisionField }
      | { type: 'DISMISS' },
    emitted: {} as { type: 'provisioned'; tag: NfcTag },
  },
  actors: {
    provision: fromPromise<NfcTag, ProvisionTagRequest>(({ input }) => provisionTag(input)),
  },
  guards: {
    failedAtField: ({ context, event }) => event.type === 'FIELD_EDITED' && context.failure?.field === event.field,
  },
}).createMachine({
  id: 'provisionTag',
  initial: 'idle',
  context: { request: null, provisioned: null, failure: null },
  states: {
    idle: {
      on: {
        PROVISION: { target: 'provisioning', actions: assign(({ event }) => ({ request: event.request, provisioned: null, failure: null })) },
        FIELD_EDITED: { guard: 'failedAtField', actions: assign({ failure: null }) },
        DISMISS: { actions: assign({ provisioned: null, failure: null }) },
      },
    },
    provisioning: {
      invoke: {
        src: 'provision',
        input: ({ context }) => context.request!,
        onDone: {
          target: 'idle',
          actions: [assign({ provisioned: ({ event }) => event.output, request: null }), emit(({ event }) => ({ type: 'provisioned' as const, tag: event.output }))],
        },
        onError: { target: 'idle', actions: assign({ failure: ({ event }) => provisionFailure(event.error), request: null }) },
      },
    },
  },
});

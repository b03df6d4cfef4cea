import { z } from 'zod';
import type { Decider } from '../shared/decider';
import { assertNever, notFound, rejected } from '../shared/errors';
import { commandMetadataSchema, eventMetadataFor, eventMetadataSchema, messageSchema, requireReason, requireRole } from '../shared/messages';
import { requireClaimCode, requireNfcUid } from './identifiers';

const id = z.string().min(1).max(200);

export const nfcTagCommandSchema = z.discriminatedUnion('type', [
  messageSchema(
    'ProvisionNfcTag',
    z.strictObject({ uid: z.string().max(64), claimCode: z.string().max(64).nullable() }),
    commandMetadataSchema,
  ),
  messageSchema('BindNfcTag', z.strictObject({ uid: z.string().max(64), listingId: id }), commandMetadataSchema),
  messageSchema('UnbindNfcTag', z.strictObject({ uid: z.string().max(64), reason: z.string().max(2000) }), commandMetadataSchema),
]);
export type NfcTagCommand = z.infer<typeof nfcTagCommandSchema>;

export const nfcTagEventSchema = z.discriminatedUnion('type', [
  messageSchema('NfcTagProvisioned', z.strictObject({ uid: z.string(), claimCode: z.string().nullable() }), eventMetadataSchema),
  messageSchema('NfcTagBound', z.strictObject({ uid: z.string(), listingId: id }), eventMetadataSchema),
  messageSchema('NfcTagUnbound', z.strictObject({ uid: z.string(), listingId: id, reason: z.string() }), eventMetadataSchema),
]);
export type NfcTagEvent = z.infer<typeof nfcTagEventSchema>;

export type NfcTagState =
  | { readonly status: 'UNPROVISIONED' }
  | { readonly status: 'AVAILABLE'; readonly uid: string; readonly claimCode: string | null }
  | { readonly status: 'BOUND'; readonly uid: string; readonly claimCode: string | null; readonly listingId: string };

export const initialNfcTagState: NfcTagState = { status: 'UNPROVISIONED' };

/** One stream per tag, named by its normalised UID, so two binds of one tag meet on one stream. */
export function nfcTagStreamId(uid: string): string {
  return `nfc_tag-${requireNfcUid(uid)}`;
}

export function evolveNfcTag(state: NfcTagState, event: NfcTagEvent): NfcTagState {
  switch (event.type) {
    case 'NfcTagProvisioned':
      return { status: 'AVAILABLE', uid: event.data.uid, claimCode: event.data.claimCode };
    case 'NfcTagBound':
      if (state.status === 'UNPROVISIONED') return state;
      return { status: 'BOUND', uid: state.uid, claimCode: state.claimCode, listingId: event.data.listingId };
    case 'NfcTagUnbound':
      if (state.status === 'UNPROVISIONED') return state;
      return { status: 'AVAILABLE', uid: state.uid, claimCode: state.claimCode };
    default:
      return assertNever(event);
  }
}

export function decideNfcTag(command: NfcTagCommand, state: NfcTagState): NfcTagEvent[] {
  requireRole(command.metadata.actor, 'ADMIN');
  const metadata = eventMetadataFor(command);
  const uid = requireNfcUid(command.data.uid);
  switch (command.type) {
    case 'ProvisionNfcTag': {
      const claimCode = command.data.claimCode === null ? null : requireClaimCode(command.data.claimCode);
      if (state.status !== 'UNPROVISIONED') {
        throw rejected('NFC_TAG_ALREADY_PROVISIONED', `NFC tag ${uid} is already provisioned`, { uid });
      }
      return [{ type: 'NfcTagProvisioned', data: { uid, claimCode }, metadata }];
    }
    case 'BindNfcTag': {
      if (state.status === 'UNPROVISIONED') throw notFound('NFC_TAG_NOT_FOUND', 'Selected tag not found', { uid });
      const { listingId } = command.data;
      if (state.status === 'BOUND') {
        if (state.listingId === listingId) return [];
        throw rejected('NFC_TAG_ALREADY_BOUND', 'This NFC tag is already bound to another listing', { uid });
      }
      return [{ type: 'NfcTagBound', data: { uid, listingId }, metadata }];
    }
    case 'UnbindNfcTag': {
      const reason = requireReason(command.data.reason);
      if (state.status === 'UNPROVISIONED') throw notFound('NFC_TAG_NOT_FOUND', 'NFC tag not found', { uid });
      if (state.status !== 'BOUND') throw rejected('NFC_TAG_NOT_BOUND', 'This NFC tag is not bound to a listing', { uid });
      return [{ type: 'NfcTagUnbound', data: { uid, listingId: state.listingId, reason }, metadata }];
    }
    default:
      return assertNever(command);
  }
}

export const nfcTagDecider: Decider<NfcTagCommand, NfcTagEvent, NfcTagState> = {
  initialState: initialNfcTagState,
  evolve: evolveNfcTag,
  decide: decideNfcTag,
};

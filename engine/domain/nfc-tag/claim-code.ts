import { z } from 'zod';
import { rejected } from '../shared/errors';
import { eventMetadataFor, eventMetadataSchema, messageSchema, type CommandMetadata } from '../shared/messages';

/**
 * A claim code is printed on a tag's card and binds the tag in place of its UID, so it must name
 * one tag only. Each code has a stream of its own; reserving it is appended atomically with the
 * tag's provisioning, expecting the code's stream not to exist, so of two tags provisioned with one
 * code at the same moment exactly one gets it (a read model, which lags, could not promise that).
 */
export const nfcClaimCodeReservedSchema = messageSchema(
  'NfcClaimCodeReserved',
  z.strictObject({ claimCode: z.string(), uid: z.string() }),
  eventMetadataSchema,
);
export type NfcClaimCodeReserved = z.infer<typeof nfcClaimCodeReservedSchema>;

/** `claimCode` as normalised by requireClaimCode (upper case). */
export function nfcClaimCodeStreamId(claimCode: string): string {
  return `nfc_claim_code-${claimCode}`;
}

/** `reservedBy`: the UID of the tag holding the code already, null when it is free. */
export function decideClaimCodeReservation(
  claimCode: string,
  uid: string,
  reservedBy: string | null,
  metadata: CommandMetadata,
): NfcClaimCodeReserved[] {
  if (reservedBy === uid) return [];
  if (reservedBy !== null) {
    throw rejected('CLAIM_CODE_TAKEN', `Claim code ${claimCode} is already used by another NFC tag`, { claimCode });
  }
  return [{ type: 'NfcClaimCodeReserved', data: { claimCode, uid }, metadata: eventMetadataFor({ metadata }) }];
}

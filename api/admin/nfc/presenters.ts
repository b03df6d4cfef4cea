import type { NfcTag } from '../../contracts/admin/nfc';
import type { NfcTagRow } from './queries';

/** A tag of the pool as the admin screens read it. */
export function presentNfcTag(row: NfcTagRow): NfcTag {
  return {
    id: row.uid,
    uid: row.uid,
    displayUid: row.uid,
    claimCode: row.claim_code,
    status: row.status,
    availableForAssignment: row.status === 'AVAILABLE',
    listingId: row.listing_id,
    createdAt: row.provisioned_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

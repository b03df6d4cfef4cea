import type { Projection } from '../projection';

/** nfc_tags: the tag pool and which listing each tag is bound to. */
export const nfcTagsProjection: Projection = {
  name: 'nfc_tags',
  async apply(db, event) {
    const at = event.metadata.occurredAt;
    switch (event.type) {
      case 'NfcTagProvisioned':
        await db
          .insertInto('nfc_tags')
          .values({ uid: event.data.uid, claim_code: event.data.claimCode, status: 'AVAILABLE', listing_id: null, provisioned_at: at, updated_at: at })
          .execute();
        return;
      case 'NfcTagBound':
        await db.updateTable('nfc_tags').set({ status: 'BOUND', listing_id: event.data.listingId, updated_at: at }).where('uid', '=', event.data.uid).execute();
        return;
      case 'NfcTagUnbound':
        await db.updateTable('nfc_tags').set({ status: 'AVAILABLE', listing_id: null, updated_at: at }).where('uid', '=', event.data.uid).execute();
        return;
      default:
        return;
    }
  },
};

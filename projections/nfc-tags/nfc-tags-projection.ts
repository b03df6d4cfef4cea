import type { Transaction } from 'kysely';
import type { Projection, ProjectedEvent } from '../projection';
import type { ReadModels } from '../schema';

/** nfc_tags: the tag pool and which listing each tag is bound to. Tag events are few: each is applied on its own. */
export const nfcTagsProjection: Projection = {
  name: 'nfc_tags',
  async applyBatch(db, events) {
    for (const event of events) await applyTagEvent(db, event);
  },
};

async function applyTagEvent(db: Transaction<ReadModels>, event: ProjectedEvent): Promise<void> {
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
}

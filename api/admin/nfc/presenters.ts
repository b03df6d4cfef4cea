import { z } from 'zod';
import { pageSchema } from '../../listings/paging';
import type { NfcTagRow } from './queries';

/** A tag as spec section 3 describes it: uid, claimCode, status, and the pool's id, displayUid, availableForAssignment, createdAt. */
export const nfcTagAnswerSchema = z.object({
  id: z.string().describe('The normalised UID: a tag is named by its UID'),
  uid: z.string().describe('Colon-separated upper-case hex pairs, e.g. 04:A2:B3:C4:D5:E6:F7'),
  displayUid: z.string(),
  claimCode: z.string().nullable().describe('Printed on the tag\'s card; binds the tag in place of its UID'),
  status: z.enum(['AVAILABLE', 'BOUND']),
  availableForAssignment: z.boolean(),
  listingId: z.string().nullable().describe('The listing the tag is bound to'),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type NfcTagAnswer = z.infer<typeof nfcTagAnswerSchema>;

export function presentNfcTag(row: NfcTagRow): NfcTagAnswer {
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

export const nfcTagPageSchema = pageSchema(nfcTagAnswerSchema);

/** What a bind or an unbind answers: the listing, the tag, and whether they are now bound. */
export const tagBindingAnswerSchema = z.object({
  listingId: z.string(),
  uid: z.string().describe('The tag bound, or just unbound'),
  status: z.enum(['BOUND', 'UNBOUND']),
  at: z.string().describe('When the binding changed (or, for a bind repeated, when it was asked again)'),
});
export type TagBindingAnswer = z.infer<typeof tagBindingAnswerSchema>;

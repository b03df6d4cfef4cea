import { z } from 'zod';
import { bidReceiptSchema, hashSchema as hash } from '../../engine/domain/integrity/receipts';

/**
 * Verifiable history, as the API and the web app share it: bidders' receipts, the proof that a
 * receipt's bid is in a signed checkpoint, and the keys that sign them. The checks themselves are
 * the engine's (engine/integrity), browser-safe, re-exported here for the web app.
 */
export { anyBidReceiptSchema, FORMER_RECEIPT_FORMAT, RECEIPT_FORMAT, verifyReceipt, type AnyBidReceipt, type BidReceipt, type ReceiptProof, type ReceiptVerdict } from '../../engine/domain/integrity/receipts';
export type { PublishedKey } from '../../engine/domain/integrity/signatures';

/** Answers only: the server writes them, and a regex per field would cost every bid's answer. */
const keyId = z.string().describe('The signing key, as /.well-known/provenance-keys.json lists it');
const signature = z.string().describe('Ed25519 over the RFC 8785 (JCS) bytes of every other field, base64url');

/** What the API answers with a placed bid; /verify reads receipts of every version (anyBidReceiptSchema). */
export const receiptSchema = bidReceiptSchema.describe(
  'Keep it: with GET /api/public/receipts/{bidId}/proof it proves your bid was recorded, with nothing but public data',
);

export const publishedKeySchema = z.object({
  keyId: z.string(),
  algorithm: z.literal('Ed25519'),
  publicKey: z.string().describe('The raw 32-byte public key, base64url'),
  createdAt: z.string(),
  retiredAt: z.string().nullable().describe('When it stopped signing; what it signed before stays valid'),
});

export const keysDocumentSchema = z.object({ keys: z.array(publishedKeySchema) });

export const proofCheckpointSchema = z.object({
  format: z.literal('provenance.checkpoint.v1'),
  auctionId: z.string(),
  streams: z.array(z.object({ streamId: z.string(), size: z.number().int(), rootHash: hash, headHash: hash.nullable() })),
  closed: z.boolean(),
  signedAt: z.string(),
  keyId,
  signature,
});

export const receiptProofSchema = z.object({
  bidId: z.string(),
  streamId: z.string(),
  hash,
  revision: z.number().int(),
  treeSize: z.number().int().describe('The checkpoint\'s size for the stream: the proof is against a tree of that many events'),
  auditPath: z.array(hash).describe('RFC 6962 audit path, leaf to root; each leaf is the 32 bytes of an event hash'),
  checkpoint: proofCheckpointSchema.describe('The first signed checkpoint that covers the bid'),
});

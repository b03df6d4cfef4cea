import { z } from 'zod';
import type { AuctionEvent } from '../auction/messages';
import { rootFromInclusionProof } from './merkle';
import { verifyBatchSigned, verifySigned, type PublishedKey, type Signed } from './signatures';

/**
 * A bidder's receipt: the platform's signed word that their bid is the event at `revision` of
 * `streamId`, with that hash. Signed in the request that placed the bid; later, an inclusion proof
 * against a signed checkpoint shows the event is in the log the checkpoint signed (receipt.hash is
 * a leaf of the checkpoint's Merkle tree, at index `revision`). Browser-safe.
 *
 * Version 2 (what the API signs now) is batch-signed (signatures.ts): the receipts answered in one
 * turn of the server's event loop share one Ed25519 signature over the root of a tree of them, and
 * each carries its path to that root. Version 1 (each receipt signed on its own) was signed until
 * 2026-11-26; receipts of both versions verify.
 */
export const RECEIPT_FORMAT = 'provenance.bid-receipt.v2';
/** Signed one by one, until batches: still verified. */
export const FORMER_RECEIPT_FORMAT = 'provenance.bid-receipt.v1';

/** A SHA-256 as every integrity schema writes it; answers only, so no pattern check per field. */
export const hashSchema = z.string().describe('SHA-256, 64 lowercase hex characters');

/** What every receipt states, whatever its version. */
const receiptStatementShape = {
  auctionId: z.string(),
  bidId: z.string(),
  streamId: z.string().describe("The auction's stream"),
  revision: z.number().int().min(0).describe("The bid event's revision in that stream: its leaf index in the checkpoints' Merkle trees"),
  amount: z.number().describe('Dollars, as bid (for a buy-now, the price paid)'),
  placedAt: z.string(),
  hash: hashSchema.describe("The bid event's SHA-256 (over its RFC 8785 bytes, the previous event's hash included)"),
  previousHash: hashSchema.nullable(),
  keyId: z.string().describe('The signing key, as /.well-known/provenance-keys.json lists it'),
};

/** Receipts as the API answers them now; only the server writes them (no pattern checks per field on every bid's answer). */
export const bidReceiptSchema = z.object({
  format: z.literal(RECEIPT_FORMAT),
  ...receiptStatementShape,
  batch: z
    .object({ size: z.number().int().min(1), index: z.number().int().min(0), auditPath: z.array(hashSchema).readonly() })
    .describe('Where the receipt sits among those signed with it: RFC 6962 audit path from its leaf (the RFC 8785 bytes of every other field but the signature) to the signed root'),
  signature: z.string().describe('Ed25519 over the RFC 8785 bytes of {format: "provenance.signed-batch.v1", keyId, size, rootHash}, base64url'),
});

/** A receipt of either version, as a bidder may bring one to be checked. */
export const anyBidReceiptSchema = z.discriminatedUnion('format', [
  bidReceiptSchema,
  z.object({ format: z.literal(FORMER_RECEIPT_FORMAT), ...receiptStatementShape, signature: z.string().describe('Ed25519 over the RFC 8785 bytes of every other field') }),
]);

/** A receipt as the API signs it now. */
export type BidReceipt = z.infer<typeof bidReceiptSchema>;
/** A receipt of either version: what verifiers take. */
export type AnyBidReceipt = z.infer<typeof anyBidReceiptSchema>;
/** A receipt before it is signed: what the API hands the signer. */
export type ReceiptStatement = Omit<z.infer<typeof bidReceiptSchema>, 'keyId' | 'batch' | 'signature'>;

/** Whether a receipt's signature holds, by a published key, whatever its version. */
async function receiptSignatureHolds(receipt: AnyBidReceipt, keys: readonly PublishedKey[]): Promise<boolean> {
  if (receipt.format === RECEIPT_FORMAT) return verifyBatchSigned(receipt, keys);
  return receipt.format === FORMER_RECEIPT_FORMAT && verifySigned(receipt, keys);
}

/** The bid an event of an auction's stream gives a receipt for, amount in cents; null for any other event. */
export interface ReceiptedBid {
  readonly bidId: string;
  readonly bidderId: string;
  readonly amount: number;
  readonly placedAt: string;
}

/**
 * The one rule for which events a receipt is for: a bid placed or a maximum raised (as bid), and
 * the close of a buy-now (at its price). The API signs from it, the proof route and audit:verify
 * find a receipt's event by it.
 */
export function receiptedBid(event: { readonly type: string; readonly data: unknown }): ReceiptedBid | null {
  const candidate = event as AuctionEvent;
  if (candidate.type === 'BidPlaced' || candidate.type === 'MaximumBidRaised') {
    const { bidId, bidderId, amount, placedAt } = candidate.data;
    return { bidId, bidderId, amount, placedAt };
  }
  if (candidate.type === 'AuctionClosed' && candidate.data.closedBy === 'BUY_NOW') {
    const { winningBidId, winnerId, finalPrice, closedAt } = candidate.data;
    return winningBidId === null || winnerId === null || finalPrice === null ? null : { bidId: winningBidId, bidderId: winnerId, amount: finalPrice, placedAt: closedAt };
  }
  return null;
}

/** What GET /api/public/receipts/{bidId}/proof answers: public data only, no other bidder's amount or id. */
export interface ReceiptProof {
  readonly bidId: string;
  readonly streamId: string;
  /** The leaf: the bid event's hash, at index `revision` of a tree of `treeSize` leaves. */
  readonly hash: string;
  readonly revision: number;
  readonly treeSize: number;
  /** RFC 6962 audit path from the leaf to the checkpoint's root for the stream. */
  readonly auditPath: string[];
  readonly checkpoint: ProofCheckpoint;
}

/** A signed checkpoint as a verifier needs it (engine/domain/integrity/checkpoints.ts has the whole schema). */
export interface ProofCheckpoint extends Signed {
  readonly format: 'provenance.checkpoint.v1';
  readonly auctionId: string;
  readonly streams: { streamId: string; size: number; rootHash: string; headHash: string | null }[];
  readonly closed: boolean;
  readonly signedAt: string;
}

export interface ReceiptVerdict {
  /** The receipt's own signature holds, by a published key. */
  readonly signed: boolean;
  /** The proof places the receipt's hash in a checkpoint whose signature holds; null without a proof. */
  readonly included: boolean | null;
  /** What failed, in words; empty when everything checked. */
  readonly problems: readonly string[];
}

/** Checks a receipt's signature, and, given a proof, that its event is in a signed checkpoint. */
export async function verifyReceipt(receipt: AnyBidReceipt, keys: readonly PublishedKey[], proof?: ReceiptProof): Promise<ReceiptVerdict> {
  const problems: string[] = [];
  // A receipt is for a bid in its auction's own stream (not, say, a refused attempt beside it).
  if (receipt.streamId !== `auction-${receipt.auctionId}`) return { signed: false, included: proof === undefined ? null : false, problems: ["The receipt names another stream than its auction's"] };
  const signed = await receiptSignatureHolds(receipt, keys);
  if (!signed) problems.push(keys.some((key) => key.keyId === receipt.keyId) ? 'The receipt\'s signature does not match its contents' : `The receipt is signed by a key that is not published (${receipt.keyId})`);
  if (proof === undefined) return { signed, included: null, problems };
  const included = await inclusionProblems(receipt, keys, proof);
  problems.push(...included);
  return { signed, included: included.length === 0, problems };
}

async function inclusionProblems(receipt: AnyBidReceipt, keys: readonly PublishedKey[], proof: ReceiptProof): Promise<string[]> {
  const { checkpoint } = proof;
  if (proof.bidId !== receipt.bidId || proof.hash !== receipt.hash || proof.revision !== receipt.revision || proof.streamId !== receipt.streamId) {
    return ['The proof is for another event than the receipt'];
  }
  if (checkpoint.format !== 'provenance.checkpoint.v1' || checkpoint.auctionId !== receipt.auctionId) return ['The proof\'s checkpoint is not of this auction'];
  if (!(await verifySigned(checkpoint, keys))) return ['The checkpoint\'s signature does not match its contents'];
  const stream = checkpoint.streams.find((candidate) => candidate.streamId === receipt.streamId);
  if (stream === undefined || stream.size !== proof.treeSize) return ['The checkpoint does not cover the receipt\'s stream at the proof\'s size'];
  try {
    const root = await rootFromInclusionProof(receipt.hash, receipt.revision, proof.treeSize, proof.auditPath);
    return root === stream.rootHash ? [] : ['The inclusion proof does not lead to the checkpoint\'s root: the event is not in the log it signed'];
  } catch (error) {
    return [`The inclusion proof is malformed: ${(error as Error).message}`];
  }
}

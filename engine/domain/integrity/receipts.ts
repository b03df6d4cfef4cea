import type { AuctionEvent } from '../auction/messages';
import { rootFromInclusionProof } from './merkle';
import { verifySigned, type PublishedKey, type Signed } from './signatures';

/**
 * A bidder's receipt: the platform's signed word that their bid is the event at `revision` of
 * `streamId`, with that hash. Signed in the request that placed the bid; later, an inclusion proof
 * against a signed checkpoint shows the event is in the log the checkpoint signed (receipt.hash is
 * a leaf of the checkpoint's Merkle tree, at index `revision`). Browser-safe.
 */
export interface BidReceipt extends Signed {
  readonly format: 'provenance.bid-receipt.v1';
  readonly auctionId: string;
  readonly bidId: string;
  readonly streamId: string;
  readonly revision: number;
  /** Dollars, as the bid was placed (for a buy-now, the price paid). */
  readonly amount: number;
  readonly placedAt: string;
  readonly hash: string;
  readonly previousHash: string | null;
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
export async function verifyReceipt(receipt: BidReceipt, keys: readonly PublishedKey[], proof?: ReceiptProof): Promise<ReceiptVerdict> {
  const problems: string[] = [];
  // A receipt is for a bid in its auction's own stream (not, say, a refused attempt beside it).
  if (receipt.streamId !== `auction-${receipt.auctionId}`) return { signed: false, included: proof === undefined ? null : false, problems: ["The receipt names another stream than its auction's"] };
  const signed = receipt.format === 'provenance.bid-receipt.v1' && (await verifySigned(receipt, keys));
  if (!signed) problems.push(keys.some((key) => key.keyId === receipt.keyId) ? 'The receipt\'s signature does not match its contents' : `The receipt is signed by a key that is not published (${receipt.keyId})`);
  if (proof === undefined) return { signed, included: null, problems };
  const included = await inclusionProblems(receipt, keys, proof);
  problems.push(...included);
  return { signed, included: included.length === 0, problems };
}

async function inclusionProblems(receipt: BidReceipt, keys: readonly PublishedKey[], proof: ReceiptProof): Promise<string[]> {
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

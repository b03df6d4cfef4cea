import type { PublishedKey, ReceiptProof } from '../../../../api/contracts/receipts';
import { ApiError, apiRequest } from '../api-client';

/** The public calls that check a bidder's receipt: no sign-in, nothing but what anyone may read. */

/** GET /.well-known/provenance-keys.json: the keys that sign receipts and checkpoints (the browser may keep it a minute). */
export async function fetchSigningKeys(signal?: AbortSignal): Promise<readonly PublishedKey[]> {
  const document = await apiRequest<{ keys: PublishedKey[] }>('/.well-known/provenance-keys.json', { ...(signal ? { signal } : {}) });
  return document.keys;
}

/** Where a receipt's bid stands in the auction's signed log. */
export type ProofAnswer =
  | { readonly kind: 'proof'; readonly proof: ReceiptProof }
  /** 409 NOT_YET_CHECKPOINTED: no signed checkpoint covers the bid yet; one comes within a minute while the auction runs. */
  | { readonly kind: 'pending' }
  /** The log has no such bid, or no proof of it (404, 400, another 409): the server's words. */
  | { readonly kind: 'missing'; readonly message: string };

/** GET /api/public/receipts/{bidId}/proof?auctionId=: the inclusion proof against the first checkpoint covering the bid. */
export async function fetchReceiptProof(receipt: { bidId: string; auctionId: string }, signal?: AbortSignal): Promise<ProofAnswer> {
  const path = `/api/public/receipts/${encodeURIComponent(receipt.bidId)}/proof?${new URLSearchParams({ auctionId: receipt.auctionId })}`;
  try {
    return { kind: 'proof', proof: await apiRequest<ReceiptProof>(path, { ...(signal ? { signal } : {}) }) };
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    if (error.status === 409 && error.code === 'NOT_YET_CHECKPOINTED') return { kind: 'pending' };
    if (error.status === 400 || error.status === 404 || error.status === 409) return { kind: 'missing', message: error.message };
    throw error;
  }
}

import { verifyReceipt, type AnyBidReceipt, type ReceiptVerdict } from '../../../../api/contracts/receipts';
import { fetchReceiptProof, fetchSigningKeys, type ProofAnswer } from './receipts-api';

/**
 * Checking a bidder's receipt in the browser: the keys the site publishes and the receipt's
 * inclusion proof are fetched, and the contract's verifyReceipt (Web Crypto: Ed25519, SHA-256,
 * RFC 6962) decides; this module only puts its verdict in plain words.
 */

export type ReceiptCheck =
  /** Signed by a published key, and in a signed checkpoint of the auction's log. */
  | { readonly outcome: 'VERIFIED'; readonly keyId: string; readonly checkpointSignedAt: string }
  /** Signed by a published key; no checkpoint covers the bid yet. */
  | { readonly outcome: 'PENDING'; readonly keyId: string }
  | { readonly outcome: 'FAILED'; readonly problems: readonly string[] };

/** What the verdict and the proof's answer say together. */
export function judgeReceipt(receipt: Pick<AnyBidReceipt, 'keyId'>, verdict: ReceiptVerdict, proof: ProofAnswer): ReceiptCheck {
  const missing = proof.kind === 'missing' ? [`The auction's log has no proof of this bid: ${proof.message}`] : [];
  if (!verdict.signed) return { outcome: 'FAILED', problems: [...verdict.problems, ...missing] };
  if (proof.kind === 'pending') return { outcome: 'PENDING', keyId: receipt.keyId };
  if (proof.kind === 'missing') return { outcome: 'FAILED', problems: missing };
  if (verdict.included === true) return { outcome: 'VERIFIED', keyId: receipt.keyId, checkpointSignedAt: proof.proof.checkpoint.signedAt };
  return { outcome: 'FAILED', problems: verdict.problems.length > 0 ? verdict.problems : ['The receipt is not in the auction\'s signed log'] };
}

/** Fetches the keys and the proof, and checks the receipt against them. A failure to fetch throws (nothing was decided). */
export async function checkReceipt(receipt: AnyBidReceipt, signal?: AbortSignal): Promise<ReceiptCheck> {
  const [keys, proof] = await Promise.all([fetchSigningKeys(signal), fetchReceiptProof(receipt, signal)]);
  const verdict = await verifyReceipt(receipt, keys, proof.kind === 'proof' ? proof.proof : undefined);
  return judgeReceipt(receipt, verdict, proof);
}

const dateTime = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'medium' });

/** "Nov 26, 2026, 10:21:03 AM", the user's local time; the text as given when it is no time. */
export function formatReceiptTime(iso: string): string {
  const time = Date.parse(iso);
  return Number.isNaN(time) ? iso : dateTime.format(new Date(time));
}

/** The check in plain words. */
export function receiptCheckText(check: ReceiptCheck): string {
  switch (check.outcome) {
    case 'VERIFIED':
      return `Verified: signed by ${check.keyId} and included in the auction's log as signed on ${formatReceiptTime(check.checkpointSignedAt)}.`;
    case 'PENDING':
      return 'Signature verified; not in a signed checkpoint yet — try again in a minute.';
    case 'FAILED':
      return `Not verified: ${check.problems.join('; ')}.`;
  }
}

/** The first `length` hex characters of a hash, as screens show it (the whole hash goes in a title and to screen readers). */
export function shortHash(hash: string, length = 12): string {
  return hash.length > length ? `${hash.slice(0, length)}…` : hash;
}

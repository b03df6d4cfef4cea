import type { BidReceipt } from '../api';

/** The user's receipts for the auction, as the panel keeps them: one per bid, in the log's order. */

/** `known` and `incoming` together, one per bid id (the incoming copy wins), by revision in the auction's stream. */
export function mergeReceipts(known: readonly BidReceipt[], incoming: readonly BidReceipt[]): BidReceipt[] {
  const byBid = new Map<string, BidReceipt>();
  for (const receipt of [...known, ...incoming]) byBid.set(receipt.bidId, receipt);
  return [...byBid.values()].sort((a, b) => a.revision - b.revision);
}

/** "receipts-<auctionId>.json" */
export function receiptsFilename(auctionId: string): string {
  return `receipts-${auctionId}.json`;
}

/** The file a user keeps: the receipts as the server signed them, an array, readable. */
export function receiptsFile(receipts: readonly BidReceipt[]): Blob {
  return new Blob([`${JSON.stringify(receipts, null, 2)}\n`], { type: 'application/json' });
}

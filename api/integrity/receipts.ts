import type { HandledCommand } from '../../engine/application/command-handler';
import { auctionStreamId, type AuctionEvent, type AuctionState } from '../../engine/domain';
import type { ChainLink, EventStore } from '../../engine/eventstore/port';
import { RECEIPT_FORMAT, receiptedBid, type BidReceipt, type ReceiptedBid, type ReceiptStatement } from '../../engine/domain/integrity/receipts';
import { toDollars } from '../http/money';
import type { Signer } from './signer';
import { verifyStream } from './stream-verification';

function signedReceipt(signer: Signer, auctionId: string, bid: ReceiptedBid, link: Pick<ChainLink, 'revision' | 'hash' | 'previousHash'>): Promise<BidReceipt> {
  const statement: ReceiptStatement = {
    format: RECEIPT_FORMAT,
    auctionId,
    bidId: bid.bidId,
    streamId: auctionStreamId(auctionId),
    revision: link.revision,
    amount: toDollars(bid.amount),
    placedAt: bid.placedAt,
    hash: link.hash,
    previousHash: link.previousHash,
  };
  return signer.signInBatch(statement);
}

/** The bidder's own bid in an event, if the event is one a receipt is for. */
function bidderBid(event: { type: string; data: unknown }, bidderId: string): ReceiptedBid | null {
  const bid = receiptedBid(event);
  return bid?.bidderId === bidderId ? bid : null;
}

/**
 * The receipt for a bid or buy-now the engine just accepted, signed at once from the chain link the
 * append answered. A repeated command (a retry answered from memory) has no link: its event is
 * found in the stream.
 */
export async function receiptForHandled(
  deps: { signer: Signer; eventStore: EventStore },
  handled: HandledCommand<AuctionEvent, AuctionState>,
  bidderId: string,
): Promise<BidReceipt> {
  const index = handled.events.findIndex((event) => bidderBid(event, bidderId) !== null);
  if (index === -1) throw new Error('An accepted bid without its event');
  const bid = bidderBid(handled.events[index]!, bidderId)!;
  const { auctionId } = handled.events[index]!.data;
  const link = handled.chain[index];
  if (link) return signedReceipt(deps.signer, auctionId, bid, link);
  const [receipt] = (await receiptsOf(deps, auctionId, bidderId)).filter((candidate) => candidate.bidId === bid.bidId);
  if (!receipt) throw new Error(`Bid ${bid.bidId} is not in its auction's stream`);
  return receipt;
}

/**
 * Every receipt a bidder has in an auction, in stream order, signed now by this process's key. Only
 * for events the log vouches for: the chain checks up to them and the last checkpoint still holds
 * (stream-verification.ts); a changed event gets no signature over what it says now.
 */
export async function receiptsOf(deps: { signer: Signer; eventStore: EventStore }, auctionId: string, bidderId: string): Promise<BidReceipt[]> {
  const streamId = auctionStreamId(auctionId);
  const recorded = await deps.eventStore.readStream(streamId);
  const verdict = await verifyStream(deps, streamId, recorded);
  const vouched = verdict === null ? 0 : verdict.valid ? recorded.length : (verdict.firstInvalidRevision ?? 0);
  return Promise.all(
    recorded.slice(0, vouched).flatMap((stored) => {
      const bid = bidderBid(stored, bidderId);
      return bid ? [signedReceipt(deps.signer, auctionId, bid, { revision: stored.revision, hash: stored.hash!, previousHash: stored.previousHash })] : [];
    }),
  );
}

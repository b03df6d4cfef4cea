import type { HandledCommand } from '../../engine/application/command-handler';
import { auctionStreamId, type AuctionEvent, type AuctionState } from '../../engine/domain';
import type { ChainLink, EventStore } from '../../engine/eventstore/port';
import type { BidReceipt } from '../../engine/domain/integrity/receipts';
import { toDollars } from '../http/money';
import type { Signer } from './signer';
import { verifyStream } from './stream-verification';

/** The event a bidder's receipt is for: their bid or raised maximum, or the close of their buy-now. */
type ReceiptEvent = Extract<AuctionEvent, { type: 'BidPlaced' | 'MaximumBidRaised' | 'AuctionClosed' }>;

function receiptEvent(event: { type: string; data: unknown }, bidderId: string): ReceiptEvent | null {
  const candidate = event as AuctionEvent;
  if ((candidate.type === 'BidPlaced' || candidate.type === 'MaximumBidRaised') && candidate.data.bidderId === bidderId) return candidate;
  if (candidate.type === 'AuctionClosed' && candidate.data.closedBy === 'BUY_NOW' && candidate.data.winnerId === bidderId) return candidate;
  return null;
}

function signedReceipt(signer: Signer, event: ReceiptEvent, link: Pick<ChainLink, 'revision' | 'hash' | 'previousHash'>): Promise<BidReceipt> {
  const { auctionId } = event.data;
  const bid =
    event.type === 'AuctionClosed'
      ? { bidId: event.data.winningBidId!, amount: event.data.finalPrice!, placedAt: event.data.closedAt }
      : { bidId: event.data.bidId, amount: event.data.amount, placedAt: event.data.placedAt };
  return signer.sign({
    format: 'provenance.bid-receipt.v1' as const,
    auctionId,
    bidId: bid.bidId,
    streamId: auctionStreamId(auctionId),
    revision: link.revision,
    amount: toDollars(bid.amount),
    placedAt: bid.placedAt,
    hash: link.hash,
    previousHash: link.previousHash,
  });
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
  const index = handled.events.findIndex((event) => receiptEvent(event, bidderId) !== null);
  const event = handled.events[index] && receiptEvent(handled.events[index], bidderId);
  if (!event) throw new Error('An accepted bid without its event');
  const link = handled.chain[index];
  if (link) return signedReceipt(deps.signer, event, link);
  const bidId = event.type === 'AuctionClosed' ? event.data.winningBidId : event.data.bidId;
  const [receipt] = (await receiptsOf(deps, event.data.auctionId, bidderId)).filter((candidate) => candidate.bidId === bidId);
  if (!receipt) throw new Error(`Bid ${bidId} is not in its auction's stream`);
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
  const verdict = await verifyStream(deps, streamId);
  const vouched = verdict === null ? 0 : verdict.valid ? recorded.length : (verdict.firstInvalidRevision ?? 0);
  return Promise.all(
    recorded.slice(0, vouched).flatMap((stored) => {
      const event = receiptEvent(stored, bidderId);
      return event ? [signedReceipt(deps.signer, event, { revision: stored.revision, hash: stored.hash!, previousHash: stored.previousHash })] : [];
    }),
  );
}

import type { Kysely } from 'kysely';
import { auctionCheckpointsStreamId, auctionStreamId, type SignedCheckpoint } from '../../engine/domain';
import type { EventStore } from '../../engine/eventstore/port';
import { inclusionProof } from '../../engine/domain/integrity/merkle';
import { receiptedBid, type ReceiptProof } from '../../engine/domain/integrity/receipts';
import { sha256Bytes } from '../../engine/integrity/event-hash';
import type { Database } from '../database';
import { HttpError } from '../http/errors';

/** How long a bidder waits at most for a running auction's next checkpoint (the checkpointer's period). */
export const CHECKPOINT_PERIOD_SECONDS = 60;

/**
 * What proves a bid is in the log: the first signed checkpoint that covers its event, and the RFC
 * 6962 audit path from the event's hash to that checkpoint's root for the auction's stream. Only
 * hashes of other events travel, never their contents: no other bidder's amount or id. Null while
 * no checkpoint covers the bid yet.
 */
export async function receiptProof(deps: { db: Kysely<Database>; eventStore: EventStore }, bidId: string, auctionIdGiven?: string): Promise<ReceiptProof | null> {
  // The receipt names its auction: then the log itself is searched, and a bid placed a moment ago
  // (not in the read models yet) is found too.
  const auctionId = auctionIdGiven ?? (await deps.db.selectFrom('bids').select('auction_id').where('id', '=', bidId).executeTakeFirst())?.auction_id;
  if (auctionId === undefined) throw new HttpError(404, 'Bid not found', 'BID_NOT_FOUND');
  const streamId = auctionStreamId(auctionId);
  const events = await deps.eventStore.readStream(streamId);
  const revision = events.findIndex((event) => receiptedBid(event)?.bidId === bidId);
  if (revision === -1) throw new HttpError(404, 'Bid not found', 'BID_NOT_FOUND');
  const checkpoints = (await deps.eventStore.readStream(auctionCheckpointsStreamId(auctionId))).map((event) => event.data as SignedCheckpoint);
  const checkpoint = checkpoints.find((candidate) => (candidate.streams.find((stream) => stream.streamId === streamId)?.size ?? 0) > revision);
  if (events.some((event) => event.hash === null)) throw new HttpError(409, "This auction's log was stored before events were hashed: it has no proof", 'NOT_HASHED');
  if (!checkpoint) return null;
  const treeSize = checkpoint.streams.find((stream) => stream.streamId === streamId)!.size;
  const leaves = events.slice(0, treeSize).map((event) => event.hash);
  const hashes = leaves as string[];
  return { bidId, streamId, hash: hashes[revision]!, revision, treeSize, auditPath: await inclusionProof(hashes, revision, sha256Bytes), checkpoint };
}

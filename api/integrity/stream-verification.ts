import { auctionCheckpointsStreamId, type SignedCheckpoint } from '../../engine/domain';
import { merkleRoot } from '../../engine/domain/integrity/merkle';
import { verifySigned } from '../../engine/domain/integrity/signatures';
import type { EventStore, RecordedEvent } from '../../engine/eventstore/port';
import { sha256Bytes } from '../../engine/integrity/event-hash';
import { verifyChain, type ChainVerdict } from '../../engine/integrity/verify-chain';
import { publishedKeys } from './signer';

/** The auction whose log a stream is part of (its own stream or its refused attempts), if any. */
const AUCTION_LOG = /^auction(?:_rejections)?-(.+)$/;

/**
 * A stream's hash chain, and for a stream of an auction's log the last checkpoint signed over it
 * too: the chain alone cannot tell that its last events were removed, the checkpoint can (it
 * signed how many there were, their Merkle root and the last hash). `read`: the stream, when the
 * caller has just read it.
 */
export async function verifyStream(deps: { eventStore: EventStore }, streamId: string, read?: readonly RecordedEvent[]): Promise<ChainVerdict | null> {
  const events = read ?? (await deps.eventStore.readStream(streamId));
  if (events.length === 0) return null;
  const chain = verifyChain(streamId, events);
  const auctionId = AUCTION_LOG.exec(streamId)?.[1];
  if (!chain.valid || auctionId === undefined) return chain;
  const last = (await deps.eventStore.readStream(auctionCheckpointsStreamId(auctionId))).at(-1)?.data as SignedCheckpoint | undefined;
  const signed = last?.streams.find((stream) => stream.streamId === streamId);
  if (!last || !signed) return chain;
  const broken = (firstInvalidRevision: number | null, problem: string): ChainVerdict => ({ ...chain, valid: false, firstInvalidRevision, problem });
  if (last.format !== 'provenance.checkpoint.v1' || !(await verifySigned(last, await publishedKeys(deps.eventStore)))) {
    return broken(null, `The checkpoint of ${last.signedAt} does not hold its signature`);
  }
  if (events.length < signed.size) return broken(events.length, `Revision ${events.length} is missing: the checkpoint of ${last.signedAt} signed ${signed.size} events`);
  const covered = events.slice(0, signed.size);
  if ((await merkleRoot(covered.map((event) => event.hash!), sha256Bytes)) !== signed.rootHash || (covered.at(-1)?.hash ?? null) !== signed.headHash) {
    return broken(0, `The first ${signed.size} events are not the ones the checkpoint of ${last.signedAt} signed`);
  }
  return chain;
}

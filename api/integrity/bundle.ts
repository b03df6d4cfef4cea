import { asEngineEvent } from '../../engine/application/messages';
import {
  auctionCheckpointsStreamId,
  auctionRejectionsStreamId,
  auctionStreamId,
  SIGNING_KEYS_STREAM_ID,
  type SignedCheckpoint,
  type SigningKeyEvent,
} from '../../engine/domain';
import { jcs } from '../../engine/domain/integrity/canonical';
import type { EventStore, RecordedEvent } from '../../engine/eventstore/port';
import { AUDIT_BUNDLE_FORMAT, type BundleEvent, type BundleKey, type UnsignedAuditBundle } from '../../engine/integrity/audit-bundle';
import type { Signer } from './signer';

/**
 * An auction's audit bundle (engine/integrity/audit-bundle.ts), as its RFC 8785 text, signed by
 * this process's key: the log's own events, read from the store, not from a view of it. Null for
 * an auction without events.
 */
export async function auditBundle(deps: { eventStore: EventStore; signer: Signer; clock: () => Date }, auctionId: string): Promise<string | null> {
  const streamIds = [auctionStreamId(auctionId), auctionRejectionsStreamId(auctionId)];
  const [auction, rejections, checkpoints, keyEvents] = await Promise.all(
    [...streamIds, auctionCheckpointsStreamId(auctionId), SIGNING_KEYS_STREAM_ID].map((streamId) => deps.eventStore.readStream(streamId)),
  );
  if (auction!.length === 0) return null;
  const bundle: UnsignedAuditBundle = {
    format: AUDIT_BUNDLE_FORMAT,
    auctionId,
    exportedAt: deps.clock().toISOString(),
    streams: [
      { streamId: streamIds[0]!, events: auction!.map(bundleEvent) },
      { streamId: streamIds[1]!, events: rejections!.map(bundleEvent) },
    ],
    checkpoints: checkpoints!.map((event) => event.data as SignedCheckpoint),
    keys: bundleKeys(keyEvents!),
  };
  return jcs(await deps.signer.sign(bundle));
}

function bundleEvent(event: RecordedEvent): BundleEvent {
  const { revision, id, type, data, metadata, hash, previousHash } = event;
  return { revision, id, type, data, metadata, recordedAt: event.recordedAt.toISOString(), hash, previousHash };
}

/** The keys in the order the log added them, with their endorsements and retirements. */
function bundleKeys(recorded: readonly RecordedEvent[]): BundleKey[] {
  const keys: BundleKey[] = [];
  for (const event of recorded.map((stored) => asEngineEvent(stored) as SigningKeyEvent)) {
    if (event.type === 'SigningKeyAdded') {
      const { keyId, algorithm, publicKey, endorsement, addedAt } = event.data;
      keys.push({ keyId, algorithm, publicKey, createdAt: addedAt, retiredAt: null, endorsement });
    } else {
      const key = keys.find((candidate) => candidate.keyId === event.data.keyId);
      if (key) keys.splice(keys.indexOf(key), 1, { ...key, retiredAt: event.data.retiredAt });
    }
  }
  return keys;
}

import { z } from 'zod';
import type { Decider } from '../shared/decider';
import { assertNever, invalid, rejected } from '../shared/errors';
import { commandMetadataSchema, eventMetadataFor, eventMetadataSchema, messageSchema, requireRole } from '../shared/messages';
import { instantSchema } from '../shared/time';

/**
 * Signed checkpoints of an auction's log: for each of its streams (the auction's own and its refused
 * attempts), how many events, the RFC 6962 Merkle root over their hashes and the hash of the last,
 * signed with a key of the log's (signing-keys.ts). A bidder proves their bid is in a checkpoint
 * with an inclusion proof; an auditor checks that the events handed to them are the ones signed.
 * The checkpoints are themselves a stream: chained, and checked like any other.
 */
export function auctionCheckpointsStreamId(auctionId: string): string {
  return `auction_checkpoints-${auctionId}`;
}

const hash = z.string().regex(/^[0-9a-f]{64}$/, 'must be a SHA-256 hash, 64 lowercase hex characters');

export const checkpointedStreamSchema = z.strictObject({
  streamId: z.string().min(1),
  /** Events covered: revisions 0 to size - 1. */
  size: z.number().int().min(0),
  /** RFC 6962 Merkle tree hash over the events' hashes (each leaf the 32 bytes of one). */
  rootHash: hash,
  /** The hash of the last event covered; null for a stream without events yet. */
  headHash: hash.nullable(),
});
export type CheckpointedStream = z.infer<typeof checkpointedStreamSchema>;

export const signedCheckpointSchema = z.strictObject({
  format: z.literal('provenance.checkpoint.v1'),
  auctionId: z.string().min(1),
  streams: z.array(checkpointedStreamSchema).min(1),
  /** The auction had closed or been cancelled when signed: its result is in it. */
  closed: z.boolean(),
  signedAt: instantSchema,
  keyId: z.string().min(1),
  signature: z.string().min(1),
});
export type SignedCheckpoint = z.infer<typeof signedCheckpointSchema>;

export const checkpointCommandSchema = messageSchema('RecordCheckpoint', signedCheckpointSchema, commandMetadataSchema);
export type CheckpointCommand = z.infer<typeof checkpointCommandSchema>;

export const checkpointEventSchema = messageSchema('LogCheckpointSigned', signedCheckpointSchema, eventMetadataSchema);
export type CheckpointEvent = z.infer<typeof checkpointEventSchema>;

/** The last checkpoint recorded, or null. */
export type CheckpointsState = SignedCheckpoint | null;

/**
 * A checkpoint is recorded when it covers more than the last one and no less of any stream: a log
 * only grows, and two workers that signed the same state record it once.
 */
export const checkpointsDecider: Decider<CheckpointCommand, CheckpointEvent, CheckpointsState> = {
  initialState: null,
  evolve(_state, event) {
    return event.data;
  },
  decide(command, last) {
    requireRole(command.metadata.actor, 'SYSTEM');
    if (command.type !== 'RecordCheckpoint') return assertNever(command.type);
    const checkpoint = command.data;
    const streamIds = checkpoint.streams.map((stream) => stream.streamId);
    if (streamIds.length === 0 || new Set(streamIds).size !== streamIds.length) throw invalid('INVALID_CHECKPOINT', 'A checkpoint covers one or more streams, each once');
    if (last !== null) {
      if (last.auctionId !== checkpoint.auctionId) throw rejected('CHECKPOINT_OF_ANOTHER_AUCTION', 'This checkpoint is of another auction');
      const before = new Map(last.streams.map((stream) => [stream.streamId, stream]));
      const shrinks = checkpoint.streams.find((stream) => stream.size < (before.get(stream.streamId)?.size ?? 0));
      if (shrinks) throw rejected('CHECKPOINT_BEHIND', `A checkpoint cannot cover less of ${shrinks.streamId} than the one before it`);
      if (last.streams.some((stream) => !streamIds.includes(stream.streamId))) {
        throw rejected('CHECKPOINT_BEHIND', 'A checkpoint must cover every stream the one before it covered');
      }
      if (last.closed && !checkpoint.closed) throw rejected('CHECKPOINT_BEHIND', 'The auction was closed at the last checkpoint: it cannot be open at a later one');
      // The same events must have the same root and last hash: otherwise the log changed between two signatures.
      const forked = checkpoint.streams.find((stream) => {
        const signed = before.get(stream.streamId);
        return signed !== undefined && signed.size === stream.size && (signed.rootHash !== stream.rootHash || signed.headHash !== stream.headHash);
      });
      if (forked) throw rejected('CHECKPOINT_FORKED', `${forked.streamId} has the same number of events as at the last checkpoint, but not the same ones`);
      const grows = checkpoint.streams.some((stream) => stream.size > (before.get(stream.streamId)?.size ?? 0));
      if (!grows && last.closed === checkpoint.closed) return [];
    }
    return [{ type: 'LogCheckpointSigned', data: checkpoint, metadata: eventMetadataFor(command) }];
  },
};

import { hash as digestOf } from 'node:crypto';
import { jcs } from '../domain/integrity/canonical';

/** A SHA-256 digest as 64 lowercase hex characters. */
export type Hash = string;

/** What an event's hash covers: everything the store keeps of it but its place in the global log and its time. */
export interface HashedEvent {
  readonly streamId: string;
  readonly revision: number;
  readonly id: string;
  readonly type: string;
  readonly data: unknown;
  readonly metadata: unknown;
  /** The hash of the event before it in its stream; null for a stream's first event. */
  readonly previousHash: Hash | null;
}

/** An event as an append sends it: what its hash covers but its place in the stream. */
type SentEvent = Pick<HashedEvent, 'id' | 'type' | 'data' | 'metadata'>;

/** Where this process last hashed an event it sent, and the hash it got there. */
interface SentEventHash {
  readonly streamId: string;
  readonly revision: number;
  readonly previousHash: Hash | null;
  readonly hash: Hash;
}

/**
 * The last hash of each event this process sent, by event object (appended events are not changed
 * after they are sent): the append works it out, and the appended chains (api/integrity), checking
 * each link the store answered against the event sent, find it here instead of hashing every event
 * of a hot auction twice. Only the hash is kept: the canonical text, a tree of many small strings,
 * is garbage once hashed, not something every young-generation collection copies while the event
 * lives. Held only as long as the event object is.
 */
const sentEvents = new WeakMap<SentEvent, SentEventHash>();

/**
 * The RFC 8785 (JCS) text of an event, as its hash covers it. Ids hash in lower case (stores answer
 * UUIDs in lower case whatever was sent); an absent data or metadata value hashes as null, as JSON
 * keeps it. Members in JCS's order; previousHash is hex and revision an integer, written as they are.
 */
export function canonicalEvent(event: HashedEvent): string {
  const previous = event.previousHash === null ? 'null' : `"${event.previousHash}"`;
  return (
    `{"data":${jcs(event.data ?? null)},"id":${jcs(event.id.toLowerCase())},"metadata":${jcs(event.metadata ?? null)},` +
    `"previousHash":${previous},"revision":${event.revision},"streamId":${jcs(event.streamId)},"type":${jcs(event.type)}}`
  );
}

/** SHA-256 over the event's canonical bytes (UTF-8), which include the hash before it: a chain per stream. */
export function eventHash(event: HashedEvent): Hash {
  return sha256Hex(canonicalEvent(event));
}

/**
 * Hashes of events appended in one batch to a stream, chained from the hash of the event before the
 * batch. An event object hashed at the same place before is not hashed again.
 */
export function chainHashes(
  streamId: string,
  firstRevision: number,
  previousHash: Hash | null,
  events: readonly SentEvent[],
): { hash: Hash; previousHash: Hash | null }[] {
  let previous = previousHash;
  return events.map((event, index) => {
    const revision = firstRevision + index;
    const known = sentEvents.get(event);
    let hash: Hash;
    if (known?.streamId === streamId && known.revision === revision && known.previousHash === previous) hash = known.hash;
    else {
      hash = eventHash({ ...event, streamId, revision, previousHash: previous });
      sentEvents.set(event, { streamId, revision, previousHash: previous, hash });
    }
    const link = { hash, previousHash: previous };
    previous = hash;
    return link;
  });
}

/** node:crypto's SHA-256, synchronous: for the Merkle trees a server builds (merkle.ts's Sha256). */
export function sha256Bytes(bytes: Uint8Array): Uint8Array {
  return pooledDigest(bytes);
}

/**
 * RFC 6962's hash of a leaf whose data is the UTF-8 bytes of `text` (merkle.ts's hashLeaf: SHA-256
 * of 0x00 and the data), in one call: U+0000 is the byte 0x00 in UTF-8, and the text is encoded
 * where it is hashed. A batch signature hashes every receipt so.
 */
export function leafHashOfText(text: string): Uint8Array {
  return pooledDigest(`\u0000${text}`);
}

/**
 * SHA-256 as 32 characters, one a byte ('binary', i.e. latin1), copied into a slice of Buffer's
 * shared pool: a Buffer of its own for each digest costs more than the hash (measured: 1.2 against
 * 0.5 microseconds a tree node, CPU of every thread).
 */
function pooledDigest(data: string | Uint8Array): Uint8Array {
  return Buffer.from(digestOf('sha256', data, 'binary'), 'binary');
}

/** One call, no Hash object: a hot auction hashes every event and every leaf. */
export function sha256Hex(text: string): Hash {
  return digestOf('sha256', text, 'hex');
}

/** Bytes as lowercase hex in one native call (merkle.ts's hexOf, for the browser, writes 32 pairs of digits). */
export function hexOfBytes(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');
}

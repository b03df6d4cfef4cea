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

/**
 * The RFC 8785 (JCS) bytes of an event, split around the two members that depend on where in its
 * stream it lands (previousHash and revision; JCS sorts members, and they happen to sit side by
 * side): `head + JSON(previousHash) + ',"revision":' + revision + tail`. A batch chained again onto
 * a stream's new head is hashed again without being canonicalized again.
 */
export interface CanonicalEventParts {
  readonly head: string;
  readonly tail: string;
}

/**
 * Ids hash in lower case (stores answer UUIDs in lower case whatever was sent); an absent data or
 * metadata value hashes as null, as JSON keeps it.
 */
export function canonicalEventParts(event: Omit<HashedEvent, 'revision' | 'previousHash'>): CanonicalEventParts {
  return {
    head: `{"data":${jcs(event.data ?? null)},"id":${jcs(event.id.toLowerCase())},"metadata":${jcs(event.metadata ?? null)},"previousHash":`,
    tail: `,"streamId":${jcs(event.streamId)},"type":${jcs(event.type)}}`,
  };
}

/** An event as an append sends it: what its hash covers but its place in the stream. */
type SentEvent = Pick<HashedEvent, 'id' | 'type' | 'data' | 'metadata'>;

/** What this process worked out of an event it sent: its canonical parts, and its last hash. */
interface SentEventHashing {
  readonly streamId: string;
  readonly parts: CanonicalEventParts;
  hashed?: { readonly revision: number; readonly previousHash: Hash | null; readonly hash: Hash };
}

/**
 * The canonical parts and the hash of the events this process sent, by event object (appended
 * events are not changed after they are sent): the append works them out, and the checkpointer,
 * re-hashing the same events to check the chain the store answered, finds them here instead of
 * canonicalizing and hashing every event twice on a hot auction. Held only as long as the event
 * object is.
 */
const sentEvents = new WeakMap<SentEvent, SentEventHashing>();

function hashingOfSent(streamId: string, event: SentEvent): SentEventHashing {
  const known = sentEvents.get(event);
  if (known?.streamId === streamId) return known;
  const hashing: SentEventHashing = { streamId, parts: canonicalEventParts({ streamId, id: event.id, type: event.type, data: event.data, metadata: event.metadata }) };
  sentEvents.set(event, hashing);
  return hashing;
}

/** The whole canonical text of an event, as its hash covers it. */
export function canonicalEvent(event: HashedEvent, parts: CanonicalEventParts = canonicalEventParts(event)): string {
  const previous = event.previousHash === null ? 'null' : `"${event.previousHash}"`;
  return `${parts.head}${previous},"revision":${event.revision}${parts.tail}`;
}

/** SHA-256 over the event's canonical bytes (UTF-8), which include the hash before it: a chain per stream. */
export function eventHash(event: HashedEvent, parts?: CanonicalEventParts): Hash {
  return sha256Hex(canonicalEvent(event, parts));
}

/**
 * Hashes of events appended in one batch to a stream, chained from the hash of the event before the
 * batch. Each event object is canonicalized once, and hashed again only where it lands elsewhere.
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
    const hashing = hashingOfSent(streamId, event);
    const { hashed } = hashing;
    const hash =
      hashed?.revision === revision && hashed.previousHash === previous ? hashed.hash : eventHash({ ...event, streamId, revision, previousHash: previous }, hashing.parts);
    hashing.hashed = { revision, previousHash: previous, hash };
    const link = { hash, previousHash: previous };
    previous = hash;
    return link;
  });
}

/** node:crypto's SHA-256, synchronous: for the Merkle trees a server builds (merkle.ts's Sha256). */
export function sha256Bytes(bytes: Uint8Array): Uint8Array {
  return digestOf('sha256', bytes, 'buffer');
}

/** One call, no Hash object: a hot auction hashes every event and every leaf. */
export function sha256Hex(text: string): Hash {
  return digestOf('sha256', text, 'hex');
}

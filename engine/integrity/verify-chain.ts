import { eventHash, type Hash, type HashedEvent } from './event-hash';

/** An event as read back, with the chain link the store recorded for it. */
export interface ChainedEvent extends Omit<HashedEvent, 'previousHash'> {
  readonly hash: Hash | null;
  readonly previousHash: Hash | null;
}

/**
 * How one event checked: VERIFIED (its hash covers its contents and it follows the event before
 * it), BROKEN (the first that does not), UNVERIFIED (after a break: nothing vouches for it).
 */
export type LinkMark = 'VERIFIED' | 'BROKEN' | 'UNVERIFIED';

export interface ChainVerdict {
  readonly streamId: string;
  readonly valid: boolean;
  /** Events read. */
  readonly events: number;
  /** The first revision that fails, or where a missing event should be; null when valid. */
  readonly firstInvalidRevision: number | null;
  /** Why that revision fails, in words; null when valid. */
  readonly problem: string | null;
  /** One mark per event read, in stream order. */
  readonly marks: readonly LinkMark[];
}

/**
 * Checks a stream read back in revision order: revisions 0, 1, 2... without a gap, each event's
 * hash recomputed from its contents, each previous hash the hash of the event before. The first
 * failure names its revision; everything after it is left unverified.
 */
export function verifyChain(streamId: string, events: readonly ChainedEvent[]): ChainVerdict {
  let previous: Hash | null = null;
  for (const [index, event] of events.entries()) {
    const problem = linkProblem(streamId, index, event, previous);
    if (problem !== null) {
      const marks: LinkMark[] = events.map((_, at) => (at < index ? 'VERIFIED' : at === index ? 'BROKEN' : 'UNVERIFIED'));
      return { streamId, valid: false, events: events.length, firstInvalidRevision: index, problem, marks };
    }
    previous = event.hash;
  }
  return { streamId, valid: true, events: events.length, firstInvalidRevision: null, problem: null, marks: events.map(() => 'VERIFIED') };
}

function linkProblem(streamId: string, revision: number, event: ChainedEvent, previous: Hash | null): string | null {
  if (event.streamId !== streamId) return `Revision ${revision} belongs to another stream (${event.streamId})`;
  if (event.revision > revision) return `Revision ${revision} is missing: the stream goes on at revision ${event.revision}`;
  if (event.revision < revision) return `Revision ${event.revision} appears twice or out of order`;
  if (event.hash === null) return `Revision ${revision} has no hash: it was stored before events were hashed`;
  if (event.previousHash !== previous) {
    return revision === 0
      ? 'Revision 0 names an event before it, but it is the first of its stream'
      : `Revision ${revision} does not follow revision ${revision - 1}: it names another event before it`;
  }
  if (eventHash({ ...event, previousHash: previous }) !== event.hash) return `Revision ${revision} was changed: its contents do not match its hash`;
  return null;
}

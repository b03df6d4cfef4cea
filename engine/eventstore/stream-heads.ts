import type { ExpectedRevision } from './port';

/** A stream's last event as a store last saw it; a null hash for one stored before events were hashed. */
export interface StreamHead {
  readonly revision: number;
  readonly hash: string | null;
}

/** A stream known to have no events yet. */
export const NO_HEAD: StreamHead = { revision: -1, hash: null };

/** An expectation that names no revision: the batch goes on from whatever the stream's head is. */
export function isLoose(expected: ExpectedRevision): expected is 'any' | 'stream_exists' {
  return expected === 'any' || expected === 'stream_exists';
}

/**
 * The heads of the streams a store appended to or read lately, what its next append to them chains
 * onto without reading them first; the least recently remembered are forgotten first. A head may
 * be out of date (another process appended since): the append then refuses, and says the stream's
 * head.
 */
export class StreamHeads {
  readonly #heads = new Map<string, StreamHead>();

  constructor(private readonly capacity = 10_000) {}

  /**
   * The event a batch appended at `expected` chains onto, when known: the one at the expected
   * revision, or for 'any' and 'stream_exists' the known head; null for an empty stream.
   */
  chainedOnto(streamId: string, expected: Exclude<ExpectedRevision, 'no_stream'>): StreamHead | null | undefined {
    const known = this.#heads.get(streamId);
    if (known === undefined || (!isLoose(expected) && known.revision !== expected)) return undefined;
    return known === NO_HEAD ? null : known;
  }

  remember(streamId: string, head: StreamHead): void {
    this.#heads.delete(streamId);
    this.#heads.set(streamId, head);
    if (this.#heads.size > this.capacity) this.#heads.delete(this.#heads.keys().next().value!);
  }

  /** A head a read found: kept unless a later one is known (an append may have answered meanwhile). */
  rememberRead(streamId: string, head: StreamHead): void {
    const known = this.#heads.get(streamId);
    if (known === undefined || known.revision < head.revision) this.remember(streamId, head);
  }

  forget(streamId: string): void {
    this.#heads.delete(streamId);
  }
}

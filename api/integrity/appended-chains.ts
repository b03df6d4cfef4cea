import { DelegatingEventStore } from '../../engine/eventstore/delegating';
import type { AppendRequest, AppendResult, ChainLink, EventStore, ExpectedRevision, NewEvent } from '../../engine/eventstore/port';
import { chainHashes } from '../../engine/integrity/event-hash';

/** A link of an auction's log as an append of this process answered it: the hash of the event this process sent, at that place. */
export interface AppendedLink extends ChainLink {
  readonly streamId: string;
  /** The event's type: the checkpointer notes an auction's close. */
  readonly type: string;
}

/** The streams of an auction's log: its own and its refused attempts (checkpoints.ts signs both). */
const AUCTION_LOG_STREAM = /^auction(?:_rejections)?-/;
/**
 * Links kept, the streams appended to longest ago going first: a stream whose links were dropped
 * is read from the log instead, as another process's is.
 */
const MAX_LINKS = 20_000;

/**
 * The chain links of auctions' logs as this process's appends answered them, until the checkpointer
 * takes them: it signs them without reading the log back (checkpointer.ts), and reads the log only
 * past them. A link is kept only when it is the hash of the event this process sent, at that place
 * (chainHashes worked it out for the append, so this costs a lookup); another (a retry answered with
 * what another process stored) leaves a gap, and the checkpointer reads and re-hashes the log from
 * there. Signing what this process decided and appended, rather than what the table holds a moment
 * later, means an event changed in between fails against the checkpoint instead of being signed.
 * Only the links are kept, not the events: a hot auction's checkpoint comes a second later.
 */
export class AppendedChains {
  readonly #streams = new Map<string, AppendedLink[]>();
  #size = 0;

  /** `store`, telling this the links of every append to an auction's log that went through it. */
  watch(store: EventStore): EventStore {
    return new WatchedEventStore(store, this);
  }

  record(requests: readonly AppendRequest[], results: readonly AppendResult[]): void {
    for (const result of results) {
      if (result.chain.length === 0 || !AUCTION_LOG_STREAM.test(result.streamId)) continue;
      const sent = new Map(requests.find((request) => request.streamId === result.streamId)?.events.map((event) => [event.id, event]));
      const links = this.#streams.get(result.streamId) ?? [];
      this.#streams.delete(result.streamId);
      this.#streams.set(result.streamId, links);
      for (const link of result.chain) {
        const event = sent.get(link.id);
        if (event === undefined || chainHashes(result.streamId, link.revision, link.previousHash, [event])[0]!.hash !== link.hash) continue;
        links.push({ ...link, streamId: result.streamId, type: event.type });
        this.#size += 1;
      }
      for (const [oldest, dropped] of this.#streams) {
        if (this.#size <= MAX_LINKS) break;
        this.#streams.delete(oldest);
        this.#size -= dropped.length;
      }
    }
  }

  /**
   * The links appended from `revision` on, in order, without a gap; taken, they are forgotten,
   * and so are the ones before `revision` (the checkpointer has checked past them).
   */
  takeFrom(streamId: string, revision: number): AppendedLink[] {
    const links = this.#streams.get(streamId);
    if (links === undefined) return [];
    links.sort((a, b) => a.revision - b.revision);
    const start = links.findIndex((link) => link.revision >= revision);
    const taken: AppendedLink[] = [];
    for (const link of start === -1 ? [] : links.slice(start)) {
      if (link.revision !== revision + taken.length) break;
      taken.push(link);
    }
    const forgotten = start === -1 ? links.length : start + taken.length;
    links.splice(0, forgotten);
    this.#size -= forgotten;
    if (links.length === 0) this.#streams.delete(streamId);
    return taken;
  }
}

class WatchedEventStore extends DelegatingEventStore {
  constructor(
    inner: EventStore,
    private readonly chains: AppendedChains,
  ) {
    super(inner);
  }

  override async appendToStream(streamId: string, events: readonly NewEvent[], options: { expectedRevision: ExpectedRevision }): Promise<AppendResult> {
    const result = await this.inner.appendToStream(streamId, events, options);
    this.chains.record([{ streamId, events, expectedRevision: options.expectedRevision }], [result]);
    return result;
  }

  override async appendToStreams(requests: readonly AppendRequest[]): Promise<AppendResult[]> {
    const results = await this.inner.appendToStreams(requests);
    this.chains.record(requests, results);
    return results;
  }
}

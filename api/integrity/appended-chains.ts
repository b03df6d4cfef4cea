import { DelegatingEventStore } from '../../engine/eventstore/delegating';
import type { AppendRequest, AppendResult, ChainLink, EventStore, ExpectedRevision, NewEvent } from '../../engine/eventstore/port';

/** A link of an auction's log as this process appended it, with its event's type (a close ends the log). */
export interface AppendedLink extends ChainLink {
  readonly type: string;
}

/** The streams of an auction's log: its own and its refused attempts (checkpoints.ts signs both). */
const AUCTION_LOG_STREAM = /^auction(?:_rejections)?-/;
/**
 * Links kept (some 200 bytes each), the streams least recently appended to going first: a stream
 * whose links were dropped is read from the log instead, as another process's would be.
 */
const MAX_LINKS = 100_000;

/**
 * The chain links of auctions' logs as this process's appends answered them, until the
 * checkpointer takes them: it signs what was appended without reading it back, and reads the log
 * only for events other processes wrote. Signing the hashes the append answered, rather than what
 * the table holds a moment later, also means an event changed in between fails against the
 * checkpoint instead of being signed.
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
      const types = new Map(requests.find((request) => request.streamId === result.streamId)?.events.map((event) => [event.id, event.type]));
      const links = this.#streams.get(result.streamId) ?? [];
      this.#streams.delete(result.streamId);
      this.#streams.set(result.streamId, links);
      for (const link of result.chain) links.push({ ...link, type: types.get(link.id) ?? '' });
      this.#size += result.chain.length;
      while (this.#size > MAX_LINKS) {
        const [oldest, dropped] = this.#streams.entries().next().value!;
        this.#streams.delete(oldest);
        this.#size -= dropped.length;
      }
    }
  }

  /** The links appended from `revision` on, in order, no gap; the ones before it are forgotten. */
  takeFrom(streamId: string, revision: number): AppendedLink[] {
    const links = this.#streams.get(streamId);
    if (links === undefined) return [];
    links.sort((a, b) => a.revision - b.revision);
    const start = links.findIndex((link) => link.revision >= revision);
    this.#size -= links.splice(0, start === -1 ? links.length : start).length;
    const taken: AppendedLink[] = [];
    for (const link of links) {
      if (link.revision !== revision + taken.length) break;
      taken.push(link);
    }
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

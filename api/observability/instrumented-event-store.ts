import { DelegatingEventStore } from '../../engine/eventstore/delegating';
import { WrongExpectedRevisionError, type AppendRequest, type AppendResult, type EventStore, type ExpectedRevision, type NewEvent } from '../../engine/eventstore/port';

export interface AppendObserver {
  /** A successful append of `events` events (to one stream or several at once). */
  appended(events: number): void;
  /** Refused: a stream was not at the expected revision (another writer was first). */
  conflicted(): void;
  /** Failed for any other reason. */
  failed(): void;
}

/**
 * An event store that tells `observer` how each append went and otherwise does exactly what the
 * store it wraps does: the engine's adapters stay free of metrics.
 */
export class InstrumentedEventStore extends DelegatingEventStore {
  readonly #observer: AppendObserver;

  constructor(store: EventStore, observer: AppendObserver) {
    super(store);
    this.#observer = observer;
  }

  override appendToStream(streamId: string, events: readonly NewEvent[], options: { expectedRevision: ExpectedRevision }): Promise<AppendResult> {
    return this.#observe(events.length, () => this.inner.appendToStream(streamId, events, options));
  }

  override appendToStreams(requests: readonly AppendRequest[]): Promise<AppendResult[]> {
    const events = requests.reduce((sum, request) => sum + request.events.length, 0);
    return this.#observe(events, () => this.inner.appendToStreams(requests));
  }

  async #observe<T>(events: number, append: () => Promise<T>): Promise<T> {
    try {
      const result = await append();
      this.#observer.appended(events);
      return result;
    } catch (error) {
      if (error instanceof WrongExpectedRevisionError) this.#observer.conflicted();
      else this.#observer.failed();
      throw error;
    }
  }
}

import {
  WrongExpectedRevisionError,
  type AppendRequest,
  type AppendResult,
  type BatchHandler,
  type EventStore,
  type ExpectedRevision,
  type LogQuery,
  type LogQueryPage,
  type LogPosition,
  type NewEvent,
  type ReadAllOptions,
  type ReadStreamOptions,
  type RecordedEvent,
  type SubscribeOptions,
  type Subscription,
} from '../../engine/eventstore/port';

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
export class InstrumentedEventStore implements EventStore {
  readonly #store: EventStore;
  readonly #observer: AppendObserver;

  constructor(store: EventStore, observer: AppendObserver) {
    this.#store = store;
    this.#observer = observer;
  }

  appendToStream(streamId: string, events: readonly NewEvent[], options: { expectedRevision: ExpectedRevision }): Promise<AppendResult> {
    return this.#observe(events.length, () => this.#store.appendToStream(streamId, events, options));
  }

  appendToStreams(requests: readonly AppendRequest[]): Promise<AppendResult[]> {
    const events = requests.reduce((sum, request) => sum + request.events.length, 0);
    return this.#observe(events, () => this.#store.appendToStreams(requests));
  }

  readStream(streamId: string, options?: ReadStreamOptions): Promise<RecordedEvent[]> {
    return this.#store.readStream(streamId, options);
  }

  readAll(options?: ReadAllOptions): Promise<RecordedEvent[]> {
    return this.#store.readAll(options);
  }

  queryLog(query: LogQuery): Promise<LogQueryPage> {
    return this.#store.queryLog(query);
  }

  subscribeToAll(options: SubscribeOptions, handler: BatchHandler): Subscription {
    return this.#store.subscribeToAll(options, handler);
  }

  headPosition(): Promise<LogPosition | null> {
    return this.#store.headPosition();
  }

  close(): Promise<void> {
    return this.#store.close();
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

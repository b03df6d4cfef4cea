import type {
  AppendRequest,
  AppendResult,
  BatchHandler,
  EventStore,
  ExpectedRevision,
  LogPosition,
  LogQuery,
  LogQueryPage,
  NewEvent,
  ReadAllOptions,
  ReadStreamOptions,
  RecordedEvent,
  SubscribeOptions,
  Subscription,
} from './port';

/** A store that does what the store it wraps does: decorators extend it and override what they change. */
export class DelegatingEventStore implements EventStore {
  constructor(protected readonly inner: EventStore) {}

  appendToStream(streamId: string, events: readonly NewEvent[], options: { expectedRevision: ExpectedRevision }): Promise<AppendResult> {
    return this.inner.appendToStream(streamId, events, options);
  }

  appendToStreams(requests: readonly AppendRequest[]): Promise<AppendResult[]> {
    return this.inner.appendToStreams(requests);
  }

  readStream(streamId: string, options?: ReadStreamOptions): Promise<RecordedEvent[]> {
    return this.inner.readStream(streamId, options);
  }

  readAll(options?: ReadAllOptions): Promise<RecordedEvent[]> {
    return this.inner.readAll(options);
  }

  queryLog(query: LogQuery): Promise<LogQueryPage> {
    return this.inner.queryLog(query);
  }

  subscribeToAll(options: SubscribeOptions, handler: BatchHandler): Subscription {
    return this.inner.subscribeToAll(options, handler);
  }

  headPosition(): Promise<LogPosition | null> {
    return this.inner.headPosition();
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}

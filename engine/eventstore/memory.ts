import { chainHashes } from '../integrity/event-hash';
import { findRetriedBatch, validateAppendRequests, withChecksAnswered, type StoredIdentity } from './idempotency';
import { matchesLogQuery, pageOfMatches, validateLogQuery } from './log-query';
import {
  comparePositions,
  revisionMatches,
  WrongExpectedRevisionError,
  type AppendRequest,
  type AppendResult,
  type BatchHandler,
  type ChainLink,
  type EventStore,
  type LogPosition,
  type LogQuery,
  type LogQueryPage,
  type NewEvent,
  type ReadAllOptions,
  type ReadStreamOptions,
  type RecordedEvent,
  type SubscribeOptions,
  type Subscription,
} from './port';
import { ChangeSignal, runSubscription, type SubscriptionSource } from './subscription-loop';

/** The whole store in one process's memory: for fast unit tests and benchmarks of the engine. */
export class InMemoryEventStore implements EventStore {
  readonly #log: RecordedEvent[] = [];
  readonly #streams = new Map<string, RecordedEvent[]>();
  readonly #byId = new Map<string, StoredIdentity>();
  readonly #changes = new ChangeSignal();
  #closed = false;

  async appendToStream(streamId: string, events: readonly NewEvent[], options: { expectedRevision: AppendRequest['expectedRevision'] }) {
    const [result] = await this.appendToStreams([{ streamId, events, expectedRevision: options.expectedRevision }]);
    return result!;
  }

  async appendToStreams(requests: readonly AppendRequest[]): Promise<AppendResult[]> {
    this.#assertOpen();
    validateAppendRequests(requests);
    // Check everything before writing anything: the append is all or nothing. A retry that writes
    // nothing new is answered from the store: its checks held when it was written.
    const retried = requests.map((request) => findRetriedBatch(request.streamId, request.events, this.#byId));
    const writesNew = requests.some((request, index) => request.events.length > 0 && retried[index] === null);
    const plans = requests.map((request, index) => {
      if (retried[index]) return { request, retried: retried[index] };
      const actual = this.#revisionOf(request.streamId);
      if (writesNew && !revisionMatches(request.expectedRevision, actual)) {
        throw new WrongExpectedRevisionError(request.streamId, request.expectedRevision, actual);
      }
      return { request, retried: null };
    });
    const commit = BigInt(this.#log.length);
    for (const { request, retried } of plans) if (!retried) this.#store(request, commit);
    this.#changes.notify();
    // Every stream written to answers with the append's end, the last event written.
    const end = this.#log.at(-1)?.position;
    const results = new Map<string, AppendResult>();
    for (const { request, retried } of plans) {
      if (request.events.length === 0) continue;
      const stream = this.#streams.get(request.streamId)!;
      const last = retried ? stream[retried.revision]! : stream.at(-1)!;
      const chain = stream.slice(last.revision - request.events.length + 1, last.revision + 1).map(chainLink);
      results.set(request.streamId, { streamId: request.streamId, nextExpectedRevision: last.revision, position: retried ? last.position : end!, chain });
    }
    return withChecksAnswered(requests, results);
  }

  #store(request: AppendRequest, commit: bigint): void {
    if (request.events.length === 0) return;
    const stream = this.#streams.get(request.streamId) ?? [];
    this.#streams.set(request.streamId, stream);
    const links = chainHashes(request.streamId, stream.length, stream.at(-1)?.hash ?? null, request.events);
    for (const [index, event] of request.events.entries()) {
      const recorded: RecordedEvent = {
        streamId: request.streamId,
        revision: stream.length,
        position: { commit, prepare: BigInt(this.#log.length) },
        id: event.id,
        type: event.type,
        data: structuredClone(event.data),
        metadata: structuredClone(event.metadata),
        recordedAt: new Date(),
        ...links[index]!,
      };
      stream.push(recorded);
      this.#log.push(recorded);
      this.#byId.set(event.id, { id: event.id, streamId: request.streamId, revision: recorded.revision });
    }
  }

  async readStream(streamId: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    this.#assertOpen();
    const from = options.fromRevision ?? 0;
    const stream = this.#streams.get(streamId) ?? [];
    return stream.slice(from, options.maxCount === undefined ? undefined : from + options.maxCount);
  }

  async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    this.#assertOpen();
    const after = options.after;
    const start = after === undefined ? 0 : this.#log.findIndex((event) => comparePositions(event.position, after) > 0);
    if (start === -1) return [];
    return this.#log.slice(start, options.maxCount === undefined ? undefined : start + options.maxCount);
  }

  async queryLog(query: LogQuery): Promise<LogQueryPage> {
    this.#assertOpen();
    validateLogQuery(query);
    const after = query.after;
    const matches: RecordedEvent[] = [];
    for (const event of this.#log) {
      if (after !== undefined && comparePositions(event.position, after) <= 0) continue;
      if (!matchesLogQuery(event, query)) continue;
      matches.push(event);
      if (matches.length > query.limit) break;
    }
    return pageOfMatches(matches, query.limit);
  }

  subscribeToAll(options: SubscribeOptions, handler: BatchHandler): Subscription {
    const source: SubscriptionSource = {
      read: async (after, maxCount) => ({ events: await this.readAll({ after, maxCount }), heldBack: false }),
      end: async () => this.#log.at(-1)?.position ?? null,
      changes: this.#changes,
      idlePollMs: 60_000,
      heldBackPollMs: 60_000,
    };
    return runSubscription(source, options, handler);
  }

  async headPosition(): Promise<LogPosition | null> {
    this.#assertOpen();
    return this.#log.at(-1)?.position ?? null;
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#changes.notify();
  }

  #revisionOf(streamId: string): number | null {
    const stream = this.#streams.get(streamId);
    return stream === undefined ? null : stream.length - 1;
  }

  #assertOpen(): void {
    if (this.#closed) throw new Error('The event store is closed');
  }
}

function chainLink({ id, revision, hash, previousHash }: RecordedEvent): ChainLink {
  return { id, revision, hash: hash!, previousHash };
}

import {
  ANY,
  AppendConsistencyViolationError,
  BACKWARDS,
  END,
  eventTypeFilter,
  excludeSystemEvents,
  FORWARDS,
  KurrentDBClient,
  NO_STREAM,
  START,
  STREAM_EXISTS,
  streamNameFilter,
  STREAM_STATE,
  WrongExpectedVersionError,
  type AppendRecordInput,
  type AppendStreamRequest,
  type ConsistencyCheck,
  type AppendStreamState,
  type Filter,
  type ReadPosition,
  type RecordedEvent as KurrentRecordedEvent,
  type ReadRevision,
} from '@kurrent/kurrentdb-client';
import { chainHashes } from '../../integrity/event-hash';
import { findRetriedBatch, validateAppendRequests, withChecksAnswered } from '../idempotency';
import { matchesLogQuery, pageOfMatches, validateLogQuery } from '../log-query';
import {
  comparePositions,
  WrongExpectedRevisionError,
  type AppendRequest,
  type AppendResult,
  type BatchHandler,
  type ChainLink,
  type EventStore,
  type ExpectedRevision,
  type LogPosition,
  type LogQuery,
  type LogQueryPage,
  type NewEvent,
  type ReadAllOptions,
  type ReadStreamOptions,
  type RecordedEvent,
  type SubscribeOptions,
  type Subscription,
} from '../port';
import { isSystemEvent, toEventData, toRecordedEvent } from './metadata-codec';
import { grpcReads, type KurrentDbReads } from './grpc-reads';
import { streamNames, type StreamNames } from './stream-names';
import { subscribeToAll } from './subscription';
import { isLoose, NO_HEAD, StreamHeads, type StreamHead } from '../stream-heads';

/** How many times an append at 'any' or 'stream_exists' chains onto a head that moved on, before it gives up. */
const RECHAIN_ATTEMPTS = 20;
/** How many events before the end of a stream are checked for a retried or overlapping batch. */
const IDEMPOTENCY_LOOKBACK = 64;
/** Events read from $all per request in readAll. */
const READ_ALL_PAGE = 500;
/**
 * Events one queryLog call looks at before it answers with what it found so far: the filters the
 * server cannot apply (actor, correlation, time) are checked here, and one request must not read
 * the whole log.
 */
const LOG_QUERY_SCAN_BUDGET = 10 * READ_ALL_PAGE;

type StoredEvents = Map<string, RecordedEvent>;

export interface KurrentDbStoreOptions {
  /**
   * $all is shared (other services, operators' tools), so readAll, headPosition, subscriptions and
   * unfiltered log queries see only streams starting with one of these (the product's own);
   * absent, every stream but KurrentDB's system ones.
   */
  readonly streamPrefixes?: readonly string[];
  /**
   * Keeps this store's streams apart from other deployments' on the same KurrentDB: it writes and
   * reads only streams named `<namespace>.<stream id>`, and reports them by their stream ids.
   */
  readonly namespace?: string;
}

/**
 * The event store on KurrentDB (EventStoreDB's successor; 26.1 or later: atomic appends to several
 * streams came in 25.1, appends with checks of other streams in 26.1). Semantics match the
 * in-memory adapter; test/eventstore/kurrentdb.test.ts runs the shared contract suite against a
 * real server when EVENTSTORE_URL is set.
 *
 * An append is one call to the server, answered from its reply: KurrentDB writes each event of an
 * append as its own committed record, and the reply's position is the append's last record, the
 * position readAll and subscriptions report for that event (KurrentDB's RequestManagerBase,
 * StorageChaser and AllReader).
 *
 * Idempotency is KurrentDB's own, read only when the server refuses: with an expected revision
 * (a number or 'no_stream') the server compares the batch's ids with the events right after that
 * revision and answers a retried batch with what is stored; with 'any' or 'stream_exists' it looks
 * the ids up among recently written events (8 MiB of them, well over 100,000). A refusal may
 * hide a retried or overlapping batch, so then this adapter reads the stream's last events and the
 * revisions the batch would have taken, answers the retried streams from what is stored and
 * refuses a partial overlap. Gaps left, which would need an index of every event id: ids stored
 * in another stream are not detected; with 'any' or 'stream_exists', a batch whose first event is
 * new is appended even if later ones are stored, and a retry the server no longer remembers is
 * appended again. The product appends with expected revisions, except bid refusals ('any', whose
 * ids come from the command's id, so a retry repeats the whole batch).
 */
export class KurrentDbEventStore implements EventStore {
  readonly #client: KurrentDBClient;
  readonly #stops = new Set<() => Promise<void>>();
  /** 'end' subscriptions not yet confirmed by the server: appends through this store wait for them. */
  readonly #startingSubscriptions = new Set<Promise<void>>();
  /** What of $all this store reads and follows: KurrentDB's server-side filter. */
  readonly #allFilter: Filter;
  readonly #names: StreamNames;
  readonly #reads: KurrentDbReads;
  /** The last event known of recently written streams, for the next append's chain (an event never changes). */
  readonly #heads = new StreamHeads();
  #closed = false;

  /** `reads`: how the store reads the server (over the client's gRPC channel; replaced in tests). */
  constructor(client: KurrentDBClient, options: KurrentDbStoreOptions = {}, reads: KurrentDbReads = grpcReads(client)) {
    this.#client = client;
    this.#reads = reads;
    this.#names = streamNames(options.namespace);
    const { namespace, streamPrefixes } = options;
    if (namespace === undefined) {
      this.#allFilter = streamPrefixes ? streamNameFilter({ prefixes: [...streamPrefixes] }) : excludeSystemEvents();
    } else {
      this.#allFilter = streamNameFilter({ prefixes: (streamPrefixes ?? ['']).map((prefix) => this.#names.toServer(prefix)) });
    }
  }

  /** e.g. `kurrentdb://localhost:2113?tls=false` */
  static fromConnectionString(connectionString: string, options: KurrentDbStoreOptions = {}): KurrentDbEventStore {
    return new KurrentDbEventStore(KurrentDBClient.connectionString(connectionString), options);
  }

  async appendToStream(streamId: string, events: readonly NewEvent[], options: { expectedRevision: ExpectedRevision }): Promise<AppendResult> {
    const [result] = await this.appendToStreams([{ streamId, events, expectedRevision: options.expectedRevision }]);
    return result!;
  }

  async appendToStreams(requests: readonly AppendRequest[]): Promise<AppendResult[]> {
    this.#assertOpen();
    validateAppendRequests(requests);
    if (this.#startingSubscriptions.size > 0) await Promise.all(this.#startingSubscriptions);

    const results = new Map<string, AppendResult>();
    const dropRetried = (pending: readonly AppendRequest[], stored: StoredEvents): AppendRequest[] =>
      pending.filter((request) => {
        const retried = retriedBatch(request, stored);
        if (retried) results.set(request.streamId, resultOf(retried));
        return retried === undefined;
      });

    let pending = [...requests];
    let rechained = 0;

    // The stored batches passed their checks when they were written: with nothing new, none is made again.
    while (pending.some((request) => request.events.length > 0)) {
      try {
        // At 'any' or 'stream_exists', a batch goes to the server at the revision of the head it
        // chains onto, where KurrentDB does not look for a retry: the stream's last events are read
        // first, for retried batches and for that head.
        const loose = pending.filter((request) => request.events.length > 0 && isLoose(request.expectedRevision));
        if (loose.length > 0) pending = dropRetried(pending, await this.#readStored(loose));
        if (!pending.some((request) => request.events.length > 0)) break;
        for (const result of await this.#write(await this.#chained(pending))) results.set(result.streamId, result);
        break;
      } catch (error) {
        if (!(error instanceof WrongExpectedRevisionError)) throw error;
        // A stream may already hold its batch (a retry after a lost reply) or part of it (a mistake).
        const remaining = dropRetried(pending, await this.#readStored(pending.filter((request) => request.events.length > 0)));
        if (remaining.length === pending.length) {
          // Appended at 'any' or 'stream_exists', a stream chains onto the head it read, and another
          // writer may have moved it on since: read it again and chain onto the new head.
          this.#heads.forget(error.streamId);
          if (isLoose(error.expected) && error.actual !== null && ++rechained < RECHAIN_ATTEMPTS) continue;
          throw error;
        }
        // Some streams held their batch already: append the others, still all or nothing.
        pending = remaining;
      }
    }
    return withChecksAnswered(requests, results);
  }

  /**
   * Each request with the chain links of its events: hashed onto the event at the expected revision,
   * and, for 'any' and 'stream_exists', onto the stream's head as just read, whose revision the
   * append then expects, so that a concurrent writer cannot fork the chain.
   */
  async #chained(pending: readonly AppendRequest[]): Promise<ChainedRequest[]> {
    return Promise.all(
      pending.map(async (request) => {
        if (request.events.length === 0) return { request, expectedRevision: request.expectedRevision, links: [] };
        const head = await this.#headFor(request.streamId, request.expectedRevision);
        // No stream when its head was just read: refused now, rather than chained from nothing onto
        // a stream another writer may create meanwhile.
        if (head === null && request.expectedRevision === 'stream_exists') throw new WrongExpectedRevisionError(request.streamId, 'stream_exists', null);
        const expectedRevision = head === null ? (request.expectedRevision === 'any' ? 'no_stream' : request.expectedRevision) : head.revision;
        const links = chainHashes(request.streamId, head === null ? 0 : head.revision + 1, head?.hash ?? null, request.events);
        return { request, expectedRevision, links };
      }),
    );
  }

  /** The event a batch chains onto: the one at the expected revision, or the head; null for none. */
  async #headFor(streamId: string, expected: ExpectedRevision): Promise<StreamHead | null> {
    if (expected === 'no_stream') return null;
    const known = this.#heads.chainedOnto(streamId, expected);
    if (known !== undefined) return known;
    const [event] = await this.#readStreamEvents(
      streamId,
      typeof expected === 'number'
        ? { fromRevision: BigInt(expected), maxCount: 1, requiresLeader: true }
        : { fromRevision: END, direction: BACKWARDS, maxCount: 1, requiresLeader: true },
    );
    // None there: the append is refused as it would have been (the stream is not at that revision).
    if (event === undefined) return typeof expected === 'number' ? { revision: expected, hash: null } : null;
    return { revision: event.revision, hash: event.hash };
  }

  async readStream(streamId: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    this.#assertOpen();
    if (options.maxCount !== undefined && options.maxCount <= 0) return [];
    return this.#readStreamEvents(streamId, {
      fromRevision: BigInt(options.fromRevision ?? 0),
      ...(options.maxCount === undefined ? {} : { maxCount: options.maxCount }),
    });
  }

  async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    this.#assertOpen();
    const limit = options.maxCount ?? Number.POSITIVE_INFINITY;
    const events: RecordedEvent[] = [];
    // fromPosition is inclusive: each page starts at the last position seen and skips it.
    let skipThrough = options.after !== undefined && options.after.commit >= 0n ? options.after : undefined;
    let from: ReadPosition = skipThrough ?? START;
    while (events.length < limit) {
      let last: LogPosition | undefined;
      const page = await this.#reads.readAll({
        fromPosition: from,
        direction: FORWARDS,
        maxCount: Math.min(READ_ALL_PAGE, limit - events.length + 1),
        filter: this.#allFilter,
      });
      for (const resolved of page) {
        const recorded = this.#recorded(resolved.event);
        if (recorded === undefined) continue;
        last = recorded.position;
        if (skipThrough !== undefined && comparePositions(recorded.position, skipThrough) <= 0) continue;
        if (isSystemEvent(recorded) || events.length >= limit) continue;
        events.push(recorded);
      }
      if (last === undefined || (skipThrough !== undefined && comparePositions(last, skipThrough) <= 0)) break;
      from = { commit: last.commit, prepare: last.prepare };
      skipThrough = last;
    }
    return events;
  }

  async queryLog(query: LogQuery): Promise<LogQueryPage> {
    this.#assertOpen();
    validateLogQuery(query);
    // No type at all matches nothing; as a server filter it would match everything.
    if (query.types?.length === 0) return { events: [], next: null };
    const wanted = query.limit + 1;
    const matches: RecordedEvent[] = [];
    let scanned = 0;
    for await (const page of this.#logQueryCandidates(query)) {
      for (const event of page) {
        if (!isSystemEvent(event) && matchesLogQuery(event, query)) matches.push(event);
        if (matches.length === wanted) return pageOfMatches(matches, query.limit);
      }
      scanned += page.length;
      if (scanned >= LOG_QUERY_SCAN_BUDGET) return { events: matches, next: page.at(-1)!.position };
    }
    return pageOfMatches(matches, query.limit);
  }

  /**
   * Pages of events after the query's `after` that may match it, in log order: the one stream it
   * names, or $all narrowed by the server to the category's streams or to the types. Each page is
   * read to its end before it is handed over (the client's iterator cannot be cancelled half way).
   */
  async *#logQueryCandidates(query: LogQuery): AsyncGenerator<RecordedEvent[]> {
    const after = query.after !== undefined && query.after.commit >= 0n ? query.after : undefined;
    const isNew = (event: RecordedEvent) => after === undefined || comparePositions(event.position, after) > 0;
    if (query.stream !== undefined) {
      // A stream's revisions follow log order: the page starts at the first revision after `after`.
      for (let fromRevision = after === undefined ? 0n : await this.#firstRevisionAfter(query.stream, after); ; ) {
        const page = await this.#readStreamEvents(query.stream, { fromRevision, maxCount: READ_ALL_PAGE });
        const fresh = page.filter(isNew);
        if (fresh.length > 0) yield fresh;
        if (page.length < READ_ALL_PAGE) return;
        fromRevision = BigInt(page.at(-1)!.revision + 1);
      }
    }
    const filter = this.#serverFilterFor(query);
    // fromPosition is inclusive: each page starts at the last position seen and skips it.
    let skipThrough = after;
    let from: ReadPosition = after ?? START;
    for (;;) {
      const page = await this.#reads.readAll({ fromPosition: from, direction: FORWARDS, maxCount: READ_ALL_PAGE, filter });
      const last = page.at(-1)?.event?.position;
      if (last === undefined || (skipThrough !== undefined && comparePositions(toLogPosition(last), skipThrough) <= 0)) return;
      // A type filter cannot also name streams: events outside the store's streams are skipped here.
      const fresh = page
        .map((resolved) => this.#recorded(resolved.event))
        .filter((recorded): recorded is RecordedEvent => recorded !== undefined && (skipThrough === undefined || comparePositions(recorded.position, skipThrough) > 0));
      if (fresh.length > 0) yield fresh;
      skipThrough = toLogPosition(last);
      from = { commit: skipThrough.commit, prepare: skipThrough.prepare };
    }
  }

  /**
   * The first revision of the stream whose event lies after `position` (past its end when none
   * does): a binary search over revisions, one single-event read a step, so that a paged export of
   * a long stream does not read the stream again from its start for every page.
   */
  async #firstRevisionAfter(streamId: string, position: LogPosition): Promise<bigint> {
    const eventAt = async (revision: bigint | typeof END) => {
      const [event] = await this.#readStreamEvents(streamId, revision === END ? { fromRevision: END, direction: BACKWARDS, maxCount: 1 } : { fromRevision: revision, maxCount: 1 });
      return event;
    };
    const last = await eventAt(END);
    if (last === undefined || comparePositions(last.position, position) <= 0) return BigInt((last?.revision ?? -1) + 1);
    // Invariant: a read from `high` holds only events after `position`; no event below `low` does.
    let low = 0n;
    let high = BigInt(last.revision);
    while (low < high) {
      const middle = (low + high) / 2n;
      const event = await eventAt(middle);
      if (event !== undefined && comparePositions(event.position, position) <= 0) low = BigInt(event.revision) + 1n;
      else high = middle;
    }
    return high;
  }

  async headPosition(): Promise<LogPosition | null> {
    this.#assertOpen();
    // The newest non-system event: read $all backwards, skipping system events the filter lets by.
    const page = await this.#reads.readAll({ fromPosition: END, direction: BACKWARDS, maxCount: 50, filter: this.#allFilter });
    let head: LogPosition | null = null;
    for (const resolved of page) {
      if (head !== null) continue;
      const recorded = this.#recorded(resolved.event);
      if (recorded !== undefined && !isSystemEvent(recorded)) head = recorded.position;
    }
    return head;
  }

  subscribeToAll(options: SubscribeOptions, handler: BatchHandler): Subscription {
    this.#assertOpen();
    return subscribeToAll(
      {
        client: this.#client,
        filter: this.#allFilter,
        recorded: (event) => this.#recorded(event),
        stops: this.#stops,
        startingSubscriptions: this.#startingSubscriptions,
      },
      options,
      handler,
    );
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await Promise.all([...this.#stops].map((stop) => stop()));
    await this.#client.dispose();
  }

  /**
   * Appends `pending` in one atomic write, answered from the server's reply; returns the results of
   * the streams with events. A stream whose batch the server recognised as a retry is answered with
   * what is stored, as by the other adapters.
   */
  async #write(pending: readonly ChainedRequest[]): Promise<AppendResult[]> {
    try {
      if (pending.some(({ request }) => request.events.length === 0)) return await this.#writeWithChecks(pending);
      if (pending.length === 1) {
        const chained = pending[0]!;
        const { request } = chained;
        const result = await this.#client.appendToStream(this.#names.toServer(request.streamId), eventData(chained, false), {
          streamState: toStreamState(chained.expectedRevision),
        });
        // Only with throwOnAppendFailure=false in the connection string; the client then misreports the actual revision.
        if (!result.success) throw new WrongExpectedRevisionError(request.streamId, request.expectedRevision, undefined);
        const position = result.position === undefined ? undefined : { commit: result.position.commit, prepare: result.position.prepare };
        return [await this.#answer(chained, result.nextExpectedRevision, position)];
      }
      const appendRequests: AppendStreamRequest[] = pending.map((chained) => ({
        streamName: this.#names.toServer(chained.request.streamId),
        events: eventData(chained, true),
        expectedState: toStreamState(chained.expectedRevision),
      }));
      const result = await this.#client.multiStreamAppend(appendRequests);
      // One position for the whole append: its last event, which every stream's result carries.
      const end = { commit: result.position, prepare: result.position };
      return await Promise.all(
        pending.map((chained) => {
          const response = result.responses.find((candidate) => candidate.streamName === this.#names.toServer(chained.request.streamId));
          if (response === undefined) throw new Error(`KurrentDB did not report the append to ${chained.request.streamId}`);
          return this.#answer(chained, response.revision, end);
        }),
      );
    } catch (error) {
      const refused = refusalOf(error);
      if (refused === undefined) throw error;
      const { request } = pending.find(({ request: candidate }) => this.#names.toServer(candidate.streamId) === refused.streamName) ?? pending[0]!;
      throw new WrongExpectedRevisionError(request.streamId, request.expectedRevision, actualRevisionOf(refused.actualState));
    }
  }

  /** KurrentDB 26.1's appendRecords: the records of the streams with events, and every expected revision as a check. */
  async #writeWithChecks(pending: readonly ChainedRequest[]): Promise<AppendResult[]> {
    const records: AppendRecordInput[] = pending.flatMap((chained) =>
      eventData(chained, true).map((record) => ({ streamName: this.#names.toServer(chained.request.streamId), record })),
    );
    const checks: ConsistencyCheck[] = pending
      .filter((chained) => chained.expectedRevision !== 'any')
      .map((chained) => ({ type: STREAM_STATE, streamName: this.#names.toServer(chained.request.streamId), expectedState: toStreamState(chained.expectedRevision) }));
    const result = await this.#client.appendRecords(records, checks);
    const end = { commit: result.position, prepare: result.position };
    return Promise.all(
      pending
        .filter((chained) => chained.request.events.length > 0)
        .map((chained) => {
          const response = result.responses.find((candidate) => candidate.streamName === this.#names.toServer(chained.request.streamId));
          if (response === undefined) throw new Error(`KurrentDB did not report the append to ${chained.request.streamId}`);
          return this.#answer(chained, response.revision, end);
        }),
    );
  }

  /**
   * The result of an append the server accepted. KurrentDB answers without a position (-1) when
   * it recognised a retry whose position it could not look up: the event at the reported revision
   * is read back for it.
   */
  async #answer({ request, links }: ChainedRequest, revision: bigint, position: LogPosition | undefined): Promise<AppendResult> {
    const last = Number(revision);
    if (position !== undefined && position.commit >= 0n) {
      const chain = links.map((link, index) => ({ ...link, id: request.events[index]!.id, revision: last - links.length + 1 + index }));
      this.#heads.remember(request.streamId, { revision: last, hash: chain.at(-1)!.hash });
      return { streamId: request.streamId, nextExpectedRevision: last, position, chain };
    }
    const written = await this.#readStreamEvents(request.streamId, { fromRevision: BigInt(last - request.events.length + 1), maxCount: request.events.length, requiresLeader: true });
    if (written.at(-1)?.revision !== last) throw new Error(`KurrentDB reported revision ${revision} of ${request.streamId}, which it cannot read`);
    return resultOf(written);
  }

  /**
   * Events of the given streams that a retried batch could match: the last ones of each stream and
   * the revisions right after the expected one.
   */
  async #readStored(requests: readonly AppendRequest[]): Promise<StoredEvents> {
    const reads = requests.flatMap((request) => {
      const tail = this.#readStreamEvents(request.streamId, {
        direction: BACKWARDS,
        fromRevision: END,
        maxCount: request.events.length + IDEMPOTENCY_LOOKBACK,
        requiresLeader: true,
      }).then((events) => {
        // The stream's last event: what the next append to it chains onto.
        this.#heads.remember(request.streamId, events[0] === undefined ? NO_HEAD : { revision: events[0].revision, hash: events[0].hash });
        return events;
      });
      const expected = request.expectedRevision;
      const first = expected === 'no_stream' ? 0 : typeof expected === 'number' ? expected + 1 : undefined;
      if (first === undefined) return [tail];
      const window = this.#readStreamEvents(request.streamId, {
        fromRevision: BigInt(first),
        maxCount: request.events.length,
        requiresLeader: true,
      });
      return [tail, window];
    });
    const stored: StoredEvents = new Map();
    for (const events of await Promise.all(reads)) {
      for (const event of events) stored.set(event.id.toLowerCase(), event);
    }
    return stored;
  }

  async #readStreamEvents(
    streamId: string,
    options: { fromRevision: ReadRevision; maxCount?: number | bigint; direction?: typeof FORWARDS | typeof BACKWARDS; requiresLeader?: boolean },
  ): Promise<RecordedEvent[]> {
    const events: RecordedEvent[] = [];
    for (const resolved of await this.#reads.readStream(this.#names.toServer(streamId), options)) {
      const recorded = this.#recorded(resolved.event);
      if (recorded !== undefined) events.push(recorded);
    }
    return events;
  }

  /** KurrentDB's event as the port's, under the store's stream id; undefined outside the namespace. */
  #recorded(event: KurrentRecordedEvent | undefined): RecordedEvent | undefined {
    if (event === undefined) return undefined;
    const streamId = this.#names.fromServer(event.streamId);
    return streamId === undefined ? undefined : toRecordedEvent(event, streamId);
  }

  /**
   * The part of a log query KurrentDB can filter on itself: the category, else the event types,
   * else the store's own filter. A filter names either streams or types: in a namespace, the
   * streams (the rest of a shared log may hold any number of events of the same types).
   */
  #serverFilterFor(query: LogQuery): Filter {
    if (query.category !== undefined) return streamNameFilter({ prefixes: [this.#names.toServer(`${query.category}-`)] });
    if (query.types !== undefined && !this.#names.namespaced) {
      const escaped = query.types.map((type) => type.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
      return eventTypeFilter({ regex: `^(?:${escaped.join('|')})$` });
    }
    return this.#allFilter;
  }

  #assertOpen(): void {
    if (this.#closed) throw new Error('The event store is closed');
  }
}

/** The stored events of this request's batch if the batch is a retry; throws if it partly overlaps. */
function retriedBatch(request: AppendRequest, stored: StoredEvents): RecordedEvent[] | undefined {
  // Ids are compared in lower case: KurrentDB returns UUIDs in lower case whatever was sent.
  const events = request.events.map((event) => ({ ...event, id: event.id.toLowerCase() }));
  const retried = findRetriedBatch(request.streamId, events, stored);
  return retried === null ? undefined : events.map((event) => stored.get(event.id)!);
}

function toLogPosition(position: { commit: bigint; prepare: bigint }): LogPosition {
  return { commit: position.commit, prepare: position.prepare };
}

/** The result of an append whose events, as stored, are `batch`. */
function resultOf(batch: readonly RecordedEvent[]): AppendResult {
  const last = batch.at(-1)!;
  const chain = batch.map(({ id, revision, hash, previousHash }) => {
    if (hash === null) throw new Error(`Event ${id} of ${last.streamId} was stored without its hash`);
    return { id, revision, hash, previousHash };
  });
  return { streamId: last.streamId, nextExpectedRevision: last.revision, position: last.position, chain };
}

/** A request as appended: at the revision its chain was hashed onto, with its events' links. */
interface ChainedRequest {
  readonly request: AppendRequest;
  readonly expectedRevision: ExpectedRevision;
  readonly links: readonly Pick<ChainLink, 'hash' | 'previousHash'>[];
}

function eventData({ request, links }: ChainedRequest, multiStream: boolean) {
  return request.events.map((event, index) => toEventData(event, links[index]!, multiStream));
}

function toStreamState(expected: ExpectedRevision): AppendStreamState {
  switch (expected) {
    case 'any':
      return ANY;
    case 'no_stream':
      return NO_STREAM;
    case 'stream_exists':
      return STREAM_EXISTS;
    default:
      return BigInt(expected);
  }
}

/** The stream a refusal names and the state it found, from either kind of KurrentDB refusal. */
function refusalOf(error: unknown): { streamName: string; actualState: unknown } | undefined {
  if (error instanceof WrongExpectedVersionError) return { streamName: error.streamName, actualState: error.actualState };
  if (error instanceof AppendConsistencyViolationError && error.violations.length > 0) return error.violations[0];
  return undefined;
}

function actualRevisionOf(actual: unknown): number | null | undefined {
  if (actual === NO_STREAM) return null;
  // Negative revisions stand for a stream that does not exist (-1) or was deleted (-5, -6).
  if (typeof actual === 'bigint') return actual >= 0n ? Number(actual) : null;
  return undefined;
}

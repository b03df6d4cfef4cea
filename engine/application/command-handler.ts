import { fold, type Decider } from '../domain/shared/decider';
import { WrongExpectedRevisionError, type AppendRequest, type AppendResult, type ChainLink, type EventStore, type ExpectedRevision, type NewEvent } from '../eventstore/port';
import { KeyedQueue } from './keyed-queue';
import { asEngineEvent, type EngineCommand, type EngineEvent } from './messages';
import { rememberCommands, StreamCache, type CachedStream } from './stream-cache';
import { nameBasedId, uuidNamespace } from './name-based-ids';

/** Namespace for event ids derived from command ids (a random, fixed UUID). */
const EVENT_ID_NAMESPACE = uuidNamespace('3f0c6f5e-8a53-4c57-9a43-5f7f4e1c2b9d');

/** Too many writers raced for one stream; the caller may try again later. */
export class ConcurrencyConflictError extends Error {
  override readonly name = 'ConcurrencyConflictError';
  constructor(readonly streamIds: readonly string[], readonly attempts: number) {
    super(`Gave up after ${attempts} attempts: ${streamIds.join(', ')} kept changing`);
  }
}

export interface LoadedStream<State> {
  readonly streamId: string;
  readonly state: State;
  readonly expectedRevision: ExpectedRevision;
}

type Fold<Event, State> = Pick<Decider<unknown, Event, State>, 'initialState' | 'evolve'>;

/** Reads a whole stream and folds it into the decider's state. */
export async function loadStream<Event, State>(store: EventStore, decider: Fold<Event, State>, streamId: string): Promise<LoadedStream<State>> {
  const recorded = await store.readStream(streamId);
  return {
    streamId,
    state: fold(decider, recorded.map((event) => asEngineEvent(event) as Event)),
    expectedRevision: recorded.length === 0 ? 'no_stream' : recorded.at(-1)!.revision,
  };
}

/**
 * Event ids derive from the command id: a retried command produces the same ids, so the store
 * treats its second append as the no-op it is.
 */
function toNewEvents(command: EngineCommand, events: readonly EngineEvent[], offset = 0): NewEvent[] {
  return events.map((event, index) => ({
    id: nameBasedId(`${command.metadata.commandId}/${offset + index}`, EVENT_ID_NAMESPACE),
    type: event.type,
    data: event.data,
    metadata: event.metadata,
  }));
}

/** What one command decided for one stream, against the revision it read. */
export interface StreamDecision {
  readonly stream: Pick<LoadedStream<unknown>, 'streamId' | 'expectedRevision'>;
  readonly events: readonly EngineEvent[];
}

/**
 * Appends a command's decision over several streams atomically, each at the revision it was decided
 * against. Event ids number the command's events across the streams in the order given, so keep
 * that order: a retried command must write the same ids. Streams left without events (or null, not
 * involved this time) are not written.
 */
export async function appendDecision(store: EventStore, command: EngineCommand, decisions: readonly (StreamDecision | null)[]): Promise<AppendResult[]> {
  const requests: AppendRequest[] = [];
  let offset = 0;
  for (const decision of decisions) {
    if (decision === null) continue;
    const { stream, events } = decision;
    if (events.length > 0) requests.push({ streamId: stream.streamId, events: toNewEvents(command, events, offset), expectedRevision: stream.expectedRevision });
    offset += events.length;
  }
  return requests.length === 0 ? [] : store.appendToStreams(requests);
}

export interface HandledCommand<Event, State> {
  /** The events this command caused: just appended, or found from an earlier run of the same command. */
  readonly events: readonly Event[];
  /** The stream's state right after this command. */
  readonly state: State;
  /** True when the command had already been handled and nothing new was written. */
  readonly repeated: boolean;
  /**
   * The events' places in their stream's hash chain, in order, as the append answered them: what
   * a receipt is signed over. Empty for a repeated command, answered from memory (read the stream).
   */
  readonly chain: readonly ChainLink[];
}

export interface Refusal<Command, State> {
  readonly command: Command;
  readonly error: unknown;
  /** The state the command was refused against. */
  readonly state: State;
}

/**
 * The records of a batch's refused commands, in streams beside the command's own: appended with
 * the batch's events, in the same appendToStreams call, before the refusals reach their callers.
 */
export type RefusalRecorder<Command, State> = (refusals: Refusal<Command, State>[]) => AppendRequest[];

export interface HandleOptions<Command, State> {
  /** Pass one function for all commands of a kind: refusals of one batch are grouped by it. */
  readonly recordRefusals?: RefusalRecorder<Command, State>;
}

export interface CommandHandlerOptions {
  /** How many times to re-read and decide again when another process wrote first. */
  readonly maxAttempts?: number;
  /** How many streams' folded states to keep in memory. */
  readonly cachedStreams?: number;
}

interface PendingCommand {
  readonly command: EngineCommand;
  readonly options: HandleOptions<EngineCommand, unknown>;
  resolve(handled: HandledCommand<EngineEvent, unknown>): void;
  reject(error: unknown): void;
}

interface Batch {
  readonly decider: Decider<EngineCommand, EngineEvent, unknown>;
  readonly commands: PendingCommand[];
}

type Outcome = { handled: HandledCommand<EngineEvent, unknown>; eventIds?: readonly string[] } | { refused: unknown; stateBefore: unknown };

/** A batch decided against one state of its stream. */
interface DecidedBatch {
  readonly outcomes: Outcome[];
  /** Events of the commands accepted now, in order, for one append. */
  readonly events: NewEvent[];
  readonly decidedNow: Map<string, readonly EngineEvent[]>;
  readonly state: unknown;
}

/**
 * decide against the cached state -> append with the expected revision; on a conflict, read what
 * was appended since, decide again, a bounded number of times.
 *
 * Inside one process, commands on one stream never race: they queue, and whatever queued while
 * the previous append was in flight is decided in order against the cached state and written in
 * one version-checked append, together with the records of the batch's refusals. A hot auction
 * therefore costs one append per batch of bids, not per bid, and no read: the expected revision
 * proves the cached state current. A batch of refusals only appends their records with a check of
 * that revision instead (the same proof, still one append); a batch that appends nothing at all
 * reads first what was appended since.
 *
 * Across processes (each with its own queue and cache), each process batches its own commands and
 * the batches meet on the expected revision: the loser reads what the winner wrote, decides its
 * whole batch again against it and appends, up to maxAttempts times (then ConcurrencyConflictError,
 * which callers may retry). Per process, the order of arrival still holds; between processes, the
 * stream's order is whichever batch committed first.
 *
 * A command whose id is already in the stream is answered from the stream: a client retrying after
 * a lost answer must not bid twice.
 */
export class CommandHandler {
  readonly #queue = new KeyedQueue();
  readonly #cache: StreamCache;
  readonly #batches = new Map<string, Batch>();
  readonly maxAttempts: number;

  constructor(
    readonly store: EventStore,
    options: CommandHandlerOptions = {},
  ) {
    this.maxAttempts = options.maxAttempts ?? 10;
    this.#cache = new StreamCache(options.cachedStreams);
  }

  handle<Command extends EngineCommand, Event extends EngineEvent, State>(
    decider: Decider<Command, Event, State>,
    streamId: string,
    command: Command,
    options: HandleOptions<Command, State> = {},
  ): Promise<HandledCommand<Event, State>> {
    return new Promise((resolve, reject) => {
      let batch = this.#batches.get(streamId);
      if (!batch || batch.decider !== (decider as unknown)) {
        const fresh: Batch = { decider: decider as unknown as Batch['decider'], commands: [] };
        this.#batches.set(streamId, fresh);
        void this.#queue.run([streamId], () => {
          // From here on, newcomers start the next batch.
          if (this.#batches.get(streamId) === fresh) this.#batches.delete(streamId);
          return this.#decideBatch(streamId, fresh);
        });
        batch = fresh;
      }
      batch.commands.push({
        command,
        options: options as unknown as PendingCommand['options'],
        resolve: resolve as PendingCommand['resolve'],
        reject,
      });
    });
  }

  /**
   * Runs `work` alone among this process's commands on `streamIds` (a command that spans streams,
   * such as a tag binding). When another process wrote first (`work` threw
   * WrongExpectedRevisionError), `work` runs again, after a short jittered pause, until it
   * succeeds or the attempts run out.
   */
  exclusive<T>(streamIds: readonly string[], work: () => Promise<T>): Promise<T> {
    return this.#queue.run(streamIds, () => this.#withRetries(streamIds, work));
  }

  async #withRetries<T>(streamIds: readonly string[], work: (attempt: number) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await work(attempt);
      } catch (error) {
        if (!(error instanceof WrongExpectedRevisionError)) throw error;
        if (attempt >= this.maxAttempts) throw new ConcurrencyConflictError(streamIds, attempt);
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 5 * attempt));
      }
    }
  }

  async #decideBatch(streamId: string, batch: Batch): Promise<void> {
    let outcomes: Outcome[];
    try {
      outcomes = await this.#withRetries([streamId], (attempt) => this.#decideAndAppend(streamId, batch, attempt));
    } catch (error) {
      for (const pending of batch.commands) pending.reject(error);
      return;
    }
    batch.commands.forEach((pending, index) => {
      const outcome = outcomes[index]!;
      if ('handled' in outcome) pending.resolve(outcome.handled);
      else pending.reject(outcome.refused);
    });
  }

  /**
   * One attempt: decide, then one append of the batch's events (at the revision decided against)
   * and of its refusals' records. The cached state is read up to date only when there is none,
   * after a conflict, or when the batch appends nothing at all (see the class comment).
   */
  async #decideAndAppend(streamId: string, batch: Batch, attempt: number): Promise<Outcome[]> {
    const cached = this.#cache.get<unknown>(streamId, batch.decider);
    const readNow = !cached || attempt > 1;
    let stream = readNow ? await this.#catchUp(streamId, batch.decider, cached) : cached;
    let decided = decide(batch, stream);
    let refusals = refusalRecords(batch, decided.outcomes);
    const provable = decided.events.length > 0 || (refusals.length > 0 && stream.revision !== 'no_stream');
    if (!provable && !readNow) {
      const caughtUp = await this.#catchUp(streamId, batch.decider, stream);
      if (caughtUp.revision !== stream.revision) {
        decided = decide(batch, (stream = caughtUp));
        refusals = refusalRecords(batch, decided.outcomes);
      }
    }
    const requests: AppendRequest[] = [];
    if (decided.events.length > 0) requests.push({ streamId, events: decided.events, expectedRevision: stream.revision });
    // Refusals only: a check that the stream is still at the revision they were decided against.
    else if (refusals.length > 0 && stream.revision !== 'no_stream') requests.push({ streamId, events: [], expectedRevision: stream.revision });
    requests.push(...refusals);
    if (requests.length === 0) return decided.outcomes;

    const [appended] = await this.store.appendToStreams(requests);
    const links = new Map(appended!.chain.map((link) => [link.id, link]));
    const outcomes = decided.outcomes.map((outcome) =>
      'eventIds' in outcome && outcome.eventIds ? { handled: { ...outcome.handled, chain: outcome.eventIds.map((id) => links.get(id)!) } } : outcome,
    );
    if (decided.events.length > 0) {
      const firstRevision = stream.revision === 'no_stream' ? 0 : stream.revision + 1;
      if (appended!.nextExpectedRevision === firstRevision + decided.events.length - 1) {
        rememberCommands(stream.recentCommands, [...decided.decidedNow.values()].flat());
        this.#cache.set(streamId, { ...stream, state: decided.state, revision: appended!.nextExpectedRevision });
      } else {
        // The store found these events already written (an earlier run of this very batch):
        // our folded state is not to be trusted; read the stream afresh next time.
        this.#cache.delete(streamId);
      }
    }
    return outcomes;
  }

  /** `cached` (the initial state when none) brought up to date with whatever was appended since. */
  async #catchUp(streamId: string, decider: Batch['decider'], cached: CachedStream<unknown> | undefined): Promise<CachedStream<unknown>> {
    const base = cached ?? { fold: decider, state: decider.initialState, revision: 'no_stream' as const, recentCommands: new Map() };
    const fromRevision = base.revision === 'no_stream' ? 0 : base.revision + 1;
    const recorded = await this.store.readStream(streamId, { fromRevision });
    if (recorded.length === 0) return base;
    const events = recorded.map(asEngineEvent);
    rememberCommands(base.recentCommands, events);
    const current: CachedStream<unknown> = {
      ...base,
      state: fold({ initialState: base.state, evolve: decider.evolve }, events),
      revision: recorded.at(-1)!.revision,
    };
    this.#cache.set(streamId, current);
    return current;
  }
}

/** Decides the batch's commands in order, each against the state the previous ones left. */
function decide(batch: Batch, stream: CachedStream<unknown>): DecidedBatch {
  let state = stream.state;
  const decidedNow = new Map<string, readonly EngineEvent[]>();
  const events: NewEvent[] = [];
  const outcomes = batch.commands.map(({ command }): Outcome => {
    const commandId = command.metadata.commandId;
    const earlier = stream.recentCommands.get(commandId) ?? decidedNow.get(commandId);
    if (earlier) return { handled: { events: earlier, state, repeated: true, chain: [] } };
    try {
      const caused = batch.decider.decide(command, state);
      state = fold({ initialState: state, evolve: batch.decider.evolve }, caused);
      decidedNow.set(commandId, caused);
      const written = toNewEvents(command, caused);
      events.push(...written);
      return { handled: { events: caused, state, repeated: false, chain: [] }, eventIds: written.map((event) => event.id) };
    } catch (error) {
      return { refused: error, stateBefore: state };
    }
  });
  return { outcomes, events, decidedNow, state };
}

/** The records of the batch's refusals, grouped by recorder: one call of each per batch. */
function refusalRecords(batch: Batch, outcomes: readonly Outcome[]): AppendRequest[] {
  const refusals = new Map<RefusalRecorder<EngineCommand, unknown>, Refusal<EngineCommand, unknown>[]>();
  batch.commands.forEach((pending, index) => {
    const outcome = outcomes[index]!;
    const recorder = pending.options.recordRefusals;
    if ('refused' in outcome && recorder) {
      refusals.set(recorder, [...(refusals.get(recorder) ?? []), { command: pending.command, error: outcome.refused, state: outcome.stateBefore }]);
    }
  });
  return [...refusals].flatMap(([record, refused]) => record(refused));
}

import { v5 as uuidv5 } from 'uuid';
import { fold, type Decider } from '../domain/shared/decider';
import type { CommandMetadata, EventMetadata } from '../domain/shared/messages';
import { KeyedQueue } from './keyed-queue';
import { WrongExpectedRevisionError, type EventStore, type ExpectedRevision, type NewEvent, type RecordedEvent } from '../eventstore/port';

/** Namespace for event ids derived from command ids (a random, fixed UUID). */
const EVENT_ID_NAMESPACE = '3f0c6f5e-8a53-4c57-9a43-5f7f4e1c2b9d';

export interface EngineEvent {
  readonly type: string;
  readonly data: unknown;
  readonly metadata: EventMetadata;
}

export interface EngineCommand {
  readonly type: string;
  readonly metadata: CommandMetadata;
}

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
  /** Events of this stream caused by the command being handled, if it was handled before. */
  readonly earlierOutcome: readonly RecordedEvent[];
}

/** Reads a stream and folds it into the decider's state. */
export async function loadStream<Event, State>(
  store: EventStore,
  decider: Pick<Decider<unknown, Event, State>, 'initialState' | 'evolve'>,
  streamId: string,
  commandId?: string,
): Promise<LoadedStream<State>> {
  const recorded = await store.readStream(streamId);
  const state = fold(decider, recorded.map((event) => ({ type: event.type, data: event.data, metadata: event.metadata }) as Event));
  const earlierOutcome =
    commandId === undefined ? [] : recorded.filter((event) => (event.metadata as Partial<EventMetadata>).commandId === commandId);
  return {
    streamId,
    state,
    expectedRevision: recorded.length === 0 ? 'no_stream' : recorded.at(-1)!.revision,
    earlierOutcome,
  };
}

/**
 * Event ids derive from the command id: a retried command produces the same ids, so the store
 * treats its second append as the no-op it is.
 */
export function toNewEvents(command: EngineCommand, events: readonly EngineEvent[], offset = 0): NewEvent[] {
  return events.map((event, index) => ({
    id: uuidv5(`${command.metadata.commandId}/${offset + index}`, EVENT_ID_NAMESPACE),
    type: event.type,
    data: event.data,
    metadata: event.metadata,
  }));
}

export interface HandledCommand<Event, State> {
  /** The events this command caused: just appended, or found from an earlier run of the same command. */
  readonly events: readonly Event[];
  readonly state: State;
  /** True when the command had already been handled and nothing new was written. */
  readonly repeated: boolean;
}

export interface CommandHandlerOptions {
  /** How many times to re-read and decide again when another process wrote first. */
  readonly maxAttempts?: number;
}

/**
 * read stream -> decide -> append with the expected revision; on a conflict, read again and
 * decide again, a bounded number of times. Commands on one stream are queued inside this process,
 * so conflicts only arise between processes. A command whose id is already in the stream is
 * answered from the stream: a client retrying after a lost answer must not bid twice.
 */
export class CommandHandler {
  readonly #queue = new KeyedQueue();
  readonly maxAttempts: number;

  constructor(
    readonly store: EventStore,
    options: CommandHandlerOptions = {},
  ) {
    this.maxAttempts = options.maxAttempts ?? 10;
  }

  handle<Command extends EngineCommand, Event extends EngineEvent, State>(
    decider: Decider<Command, Event, State>,
    streamId: string,
    command: Command,
  ): Promise<HandledCommand<Event, State>> {
    return this.exclusive([streamId], async (attempt) => {
      const loaded = await loadStream(this.store, decider, streamId, command.metadata.commandId);
      if (loaded.earlierOutcome.length > 0) {
        return { events: loaded.earlierOutcome.map(asEngineEvent) as Event[], state: loaded.state, repeated: true };
      }
      const events = decider.decide(command, loaded.state);
      if (events.length > 0) {
        await attempt(() =>
          this.store.appendToStream(streamId, toNewEvents(command, events), { expectedRevision: loaded.expectedRevision }),
        );
      }
      return { events, state: fold({ initialState: loaded.state, evolve: decider.evolve }, events), repeated: false };
    });
  }

  /**
   * Runs `work` alone among this process's commands on `streamIds`. `work` wraps its append in
   * `attempt`; when another process wrote first, `work` runs again from the top (after a short,
   * jittered pause) until it succeeds or the attempts run out.
   */
  exclusive<T>(streamIds: readonly string[], work: (attempt: <R>(append: () => Promise<R>) => Promise<R>) => Promise<T>): Promise<T> {
    return this.#queue.run(streamIds, async () => {
      for (let attempt = 1; ; attempt++) {
        try {
          return await work((append) => append());
        } catch (error) {
          if (!(error instanceof WrongExpectedRevisionError)) throw error;
          if (attempt >= this.maxAttempts) throw new ConcurrencyConflictError(streamIds, attempt);
          await new Promise((resolve) => setTimeout(resolve, Math.random() * 5 * attempt));
        }
      }
    });
  }
}

export function asEngineEvent(recorded: RecordedEvent): EngineEvent {
  return { type: recorded.type, data: recorded.data, metadata: recorded.metadata as EventMetadata };
}

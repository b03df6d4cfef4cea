import type { EngineEvent } from './messages';

/** What this process knows of a stream: its state folded up to a revision, and its recent commands. */
export interface CachedStream<State> {
  readonly fold: object;
  readonly state: State;
  /** Revision of the last event folded in; 'no_stream' before the stream's first event. */
  readonly revision: number | 'no_stream';
  /**
   * Events of the most recent commands, by command id: how a repeated command is recognised.
   * Owned by the entry and updated in place (commands on one stream run one batch at a time).
   */
  readonly recentCommands: Map<string, readonly EngineEvent[]>;
}

const RECENT_COMMANDS_PER_STREAM = 2_000;

/**
 * Folded stream states, least recently used evicted first. With it, deciding a command on a hot
 * auction reads only the events appended since the last command, not the whole stream.
 */
export class StreamCache {
  readonly #entries = new Map<string, CachedStream<unknown>>();

  constructor(readonly capacity = 5_000) {}

  get<State>(streamId: string, fold: object): CachedStream<State> | undefined {
    const entry = this.#entries.get(streamId);
    if (!entry || entry.fold !== fold) return undefined;
    this.#entries.delete(streamId);
    this.#entries.set(streamId, entry);
    return entry as CachedStream<State>;
  }

  set<State>(streamId: string, entry: CachedStream<State>): void {
    this.#entries.delete(streamId);
    this.#entries.set(streamId, entry);
    if (this.#entries.size > this.capacity) this.#entries.delete(this.#entries.keys().next().value!);
  }

  delete(streamId: string): void {
    this.#entries.delete(streamId);
  }
}

/** Adds commands' events to a stream's recent commands, forgetting the oldest beyond the bound. */
export function rememberCommands(recent: Map<string, readonly EngineEvent[]>, events: Iterable<EngineEvent>): void {
  for (const event of events) {
    const commandId = event.metadata.commandId;
    recent.set(commandId, [...(recent.get(commandId) ?? []), event]);
  }
  for (const key of recent.keys()) {
    if (recent.size <= RECENT_COMMANDS_PER_STREAM) break;
    recent.delete(key);
  }
}

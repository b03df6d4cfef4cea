import type { CommandMetadata, EventMetadata } from '../domain/shared/messages';
import type { RecordedEvent } from '../eventstore/port';

/** Any of the engine's events, as the application layer handles them: the deciders' unions narrow it. */
export interface EngineEvent {
  readonly type: string;
  readonly data: unknown;
  readonly metadata: EventMetadata;
}

/** Any of the engine's commands, as the application layer handles them. */
export interface EngineCommand {
  readonly type: string;
  readonly metadata: CommandMetadata;
}

/** A stored event as the engine wrote it; the caller narrows it to its decider's union. */
export function asEngineEvent(recorded: RecordedEvent): EngineEvent {
  return { type: recorded.type, data: recorded.data, metadata: recorded.metadata as EventMetadata };
}

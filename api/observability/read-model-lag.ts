import { comparePositions, START, type EventStore } from '../../engine/eventstore/port';
import type { ProjectionRunner } from '../../projections';

/** READY_MAX_LAG_EVENTS unless set: a burst well past a busy auction's, yet a stalled projection soon shows. */
export const DEFAULT_READY_MAX_LAG_EVENTS = 1000;

export interface ReadModelLag {
  /** Events in the log past the read models' stored checkpoint, counted up to the limit asked for. */
  readonly events: number;
  /** When the oldest of them was recorded; null when the read models hold the whole log. */
  readonly oldestPendingAt: Date | null;
}

/**
 * How far the read models are behind the log: the events past their lowest stored checkpoint,
 * read up to `limit` (so that measuring never reads the whole log). The checkpoint is read from
 * the database, so the answer is the same whichever process runs the projections.
 */
export async function measureReadModelLag(services: { projections: Pick<ProjectionRunner, 'storedCheckpoint'>; eventStore: EventStore }, limit: number): Promise<ReadModelLag> {
  const checkpoint = await services.projections.storedCheckpoint();
  const pending = await services.eventStore.readAll({ ...(comparePositions(checkpoint, START) > 0 ? { after: checkpoint } : {}), maxCount: limit });
  return { events: pending.length, oldestPendingAt: pending[0]?.recordedAt ?? null };
}

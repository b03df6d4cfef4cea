import type { Kysely } from 'kysely';
import type { EventStore } from '../engine/eventstore/port';
import { dropReadModels, migrateReadModels } from './migrations';
import { ProjectionRunner, type ProjectionObserver } from './runner';
import type { ReadModels } from './schema';

/** Events per transaction of a replay: large pages, as nobody waits for any one event. */
const REPLAY_BATCH_SIZE = 5_000;

/**
 * Read models are disposable: drop them, create them again, replay the whole log into them.
 * Stop the API first; its own projection runner would otherwise race this one. `observer` is told
 * of each batch replayed.
 */
export async function rebuildReadModels(store: EventStore, db: Kysely<ReadModels>, observer?: ProjectionObserver): Promise<void> {
  await dropReadModels(db as Kysely<unknown>);
  await migrateReadModels(db as Kysely<unknown>);
  const runner = new ProjectionRunner(store, db, { batchSize: REPLAY_BATCH_SIZE, observer });
  await runner.start();
  await runner.caughtUp();
  await runner.stop();
}

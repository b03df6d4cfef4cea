import type { Kysely } from 'kysely';
import type { EventStore } from '../engine/eventstore/port';
import { dropReadModels, migrateReadModels } from './migrations';
import { ProjectionRunner } from './runner';
import type { ReadModels } from './schema';

/**
 * Read models are disposable: drop them, create them again, replay the whole log into them.
 * Stop the API first; its own projection runner would otherwise race this one.
 */
export async function rebuildReadModels(store: EventStore, db: Kysely<ReadModels>): Promise<void> {
  await dropReadModels(db as Kysely<unknown>);
  await migrateReadModels(db as Kysely<unknown>);
  const runner = new ProjectionRunner(store, db);
  await runner.start();
  await runner.caughtUp();
  await runner.stop();
}

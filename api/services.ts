import { CommandHandler } from '../engine/application/command-handler';
import { ProjectionRunner, type ReadModels } from '../projections';
import type { Kysely } from 'kysely';
import { openDatabase } from './database';
import type { AppDependencies } from './dependencies';
import type { Infrastructure } from './infrastructure';

export interface ServiceOptions {
  readonly jwtSecret: string;
  readonly googleClientId?: string | undefined;
  readonly logLevel?: string;
  readonly clock?: () => Date;
  readonly log?: { error(details: object, message: string): void };
  readonly dataDir: string;
}

/**
 * Everything the routes need, on top of the storage: the schema migrated, the command handler and
 * the projections running. Shared by `npm start` and the API tests.
 */
export async function openServices(infrastructure: Pick<Infrastructure, 'database' | 'eventStore'>, options: ServiceOptions): Promise<{ deps: AppDependencies; stop(): Promise<void> }> {
  const db = await openDatabase(infrastructure.database);
  const commands = new CommandHandler(infrastructure.eventStore);
  const projections = new ProjectionRunner(infrastructure.eventStore, db as unknown as Kysely<ReadModels>, options.log ? { log: options.log } : {});
  await projections.start();
  return {
    deps: {
      sql: infrastructure.database,
      db,
      eventStore: infrastructure.eventStore,
      commands,
      projections,
      clock: options.clock ?? (() => new Date()),
      jwtSecret: options.jwtSecret,
      googleClientId: options.googleClientId,
      dataDir: options.dataDir,
      ...(options.logLevel ? { logLevel: options.logLevel } : {}),
    },
    async stop() {
      await projections.stop();
    },
  };
}

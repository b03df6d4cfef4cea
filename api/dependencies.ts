import type { Kysely } from 'kysely';
import type { CommandHandler } from '../engine/application/command-handler';
import type { EventStore } from '../engine/eventstore/port';
import type { SqlClient } from '../engine/eventstore/postgres/sql-client';
import type { ProjectionRunner } from '../projections';
import type { Database } from './database';

/** What the routes work with; built once by the server (or a test) and handed to buildApp. */
export interface AppDependencies {
  /** The raw database, for the health check. */
  readonly sql: SqlClient;
  readonly db: Kysely<Database>;
  readonly eventStore: EventStore;
  readonly commands: CommandHandler;
  readonly projections: ProjectionRunner;
  /** The API's clock: commands are decided at `clock()`. */
  readonly clock: () => Date;
  readonly jwtSecret: string;
  readonly googleClientId: string | undefined;
  readonly logLevel?: string;
  /** Local files (media) live under it. */
  readonly dataDir: string;
}

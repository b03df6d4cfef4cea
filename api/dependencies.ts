import type { Kysely } from 'kysely';
import type { CommandHandler } from '../engine/application/command-handler';
import type { ShippingRates } from '../engine/application/order-commands';
import type { PaymentMethodPort } from './payments/payment-method';
import type { AuctionCommandRouter } from './cluster/auction-command-router';
import type { EventStore } from '../engine/eventstore/port';
import type { SqlClient } from '../engine/postgres/sql-client';
import type { ProjectionRunner } from '../projections';
import type { Database } from './database';
import type { LifecycleWorker } from './lifecycle/worker';
import type { LiveHub } from './live/hub';
import type { MediaStorage } from './media/storage-port';
import type { Metrics } from './observability/metrics';
import type { AppLinks } from './mail/links';
import type { MailSender } from './mail/sender';
import type { NoticeFeed } from './notices/feed';
import type { Notifier } from './notices/notifier';
import type { Signer } from './integrity/signer';
import type { Checkpointer } from './integrity/checkpointer';

/** What the routes work with; built once by the server (or a test) and handed to buildApp. */
export interface AppDependencies {
  /** The raw database, for the readiness check. */
  readonly sql: SqlClient;
  readonly db: Kysely<Database>;
  readonly eventStore: EventStore;
  readonly commands: CommandHandler;
  /** Bids and buy-nows: decided here, or forwarded to the process that owns their auction. */
  readonly auctionCommands: AuctionCommandRouter;
  /** Signs receipts (and checkpoints) with this process's key, which the log publishes. */
  readonly signer: Signer;
  readonly projections: ProjectionRunner;
  /** The API's clock: commands are decided at `clock()`. */
  readonly clock: () => Date;
  readonly jwtSecret: string;
  readonly googleClientId: string | undefined;
  readonly logLevel?: string;
  /** Fastify's trustProxy (see Config.trustProxy); false when absent. */
  readonly trustProxy?: boolean | string[];
  /** Local files live under it. */
  readonly dataDir: string;
  /** Where media bytes live: local files under dataDir, or an S3-compatible bucket. */
  readonly mediaStorage: MediaStorage;
  /** Live updates: this process's sockets, fed by its one subscription to the event log. */
  readonly live: LiveHub;
  /** Opens and closes auctions on time; null when this process runs none (openServices `lifecycle: false`). */
  readonly lifecycle: LifecycleWorker | null;
  /** Signs checkpoints of auctions' logs; null when this process runs none (openServices `checkpoints: false`). */
  readonly checkpointer: Checkpointer | null;
  /** This process's metrics, served at GET /metrics. */
  readonly metrics: Metrics;
  /** GET /ready fails while the read models are more than this many events behind the log. */
  readonly readyMaxLagEvents: number;
  /** Where the links in mail lead. */
  readonly links: AppLinks;
  /** Makes notices from the log; null when this process runs none (openServices `notices: false`). */
  readonly notifier: Notifier | null;
  /** Brings new notices to the signed-in sockets of this process. */
  readonly noticeFeed: NoticeFeed;
  /** Sends the mail outbox. */
  readonly mailSender: MailSender;
  /** What orders are charged for shipping, and how buyers pay them. */
  readonly afterSale: { readonly shippingRates: ShippingRates; readonly paymentMethod: PaymentMethodPort };
}

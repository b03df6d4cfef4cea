import { CommandHandler } from '../engine/application/command-handler';
import { consoleLogger, type Logger } from '../engine/application/logger';
import { PGliteMaintenance } from '../engine/postgres/pglite-maintenance';
import { PGliteClient } from '../engine/postgres/sql-client';
import { comparePositions, parsePosition, type LogPosition } from '../engine/eventstore/port';
import { ProjectionRunner, type ReadModels } from '../projections';
import type { Kysely } from 'kysely';
import { AuctionCommandRouter } from './cluster/auction-command-router';
import { AuctionOwners } from './cluster/auction-owners';
import { openDatabase, type Database } from './database';
import type { AppDependencies } from './dependencies';
import type { Infrastructure } from './infrastructure';
import { LifecycleWorker, type LifecycleOptions } from './lifecycle/worker';
import { LiveHub, type LiveHubOptions } from './live/hub';
import { MediaSweeper } from './media/sweeper';
import { Metrics } from './observability/metrics';
import { DEFAULT_READY_MAX_LAG_EVENTS, measureReadModelLag } from './observability/read-model-lag';
import { createMediaStorage } from './media/storage';
import type { MediaStorageSettings } from './media/storage-port';
import { AppLinks } from './mail/links';
import { MailSender, type MailSenderOptions } from './mail/sender';
import { createMailTransport, DEFAULT_MAIL_FROM, type MailSettings } from './mail/transport';
import { NoticeFeed } from './notices/feed';
import { Notifier } from './notices/notifier';
import { DEFAULT_AFTER_SALE_SETTINGS, type AfterSaleSettings } from './orders/settings';
import { BankTransfer } from './payments/bank-transfer';
import { Signer } from './integrity/signer';
import { AppendedChains } from './integrity/appended-chains';
import { Checkpointer, type CheckpointerOptions } from './integrity/checkpointer';

export interface ServiceOptions {
  readonly jwtSecret: string;
  /** SIGNING_KEY: the Ed25519 key (PEM) that signs checkpoints and receipts; absent: made once under dataDir. */
  readonly signingKey?: string | undefined;
  readonly googleClientId?: string | undefined;
  readonly logLevel?: string;
  readonly trustProxy?: boolean | string[];
  readonly clock?: () => Date;
  readonly log?: Logger;
  readonly dataDir: string;
  /** Where media bytes live: local files under dataDir unless told otherwise. */
  readonly media?: MediaStorageSettings;
  /** The live hub's limits (connections, subscriptions, buffered bytes, ping interval). */
  readonly live?: LiveHubOptions;
  /** The auction lifecycle worker: on by default; `false` runs none in this process. */
  readonly lifecycle?: LifecycleOptions | false;
  /** GET /ready fails while the read models are more than this many events behind the log (READY_MAX_LAG_EVENTS). */
  readonly readyMaxLagEvents?: number;
  /**
   * Where the other API processes on this database reach this one (INSTANCE_URL): set, each hot
   * auction is decided by one process and the others forward its bids there; absent, every
   * process decides for itself.
   */
  readonly instanceUrl?: string | undefined;
  /** SMTP_URL and MAIL_FROM; absent: .eml files under dataDir/mail. */
  readonly mail?: MailSettings & MailSenderOptions;
  /** Where the links in mail lead (PUBLIC_URL); absent: the address the app listens on (AppLinks.listeningAt). */
  readonly publicUrl?: string | undefined;
  /** The checkpointer, which signs auctions' logs: on by default; `false` runs none in this process. */
  readonly checkpoints?: CheckpointerOptions | false;
  /** The notifier: on by default; `false` runs none in this process (another process makes the notices). */
  readonly notices?: false;
  /** Shipping charges and the account buyers wire to (SHIPPING_RATES, BANK_TRANSFER_DETAILS); absent: the defaults. */
  readonly afterSale?: AfterSaleSettings;
}

/**
 * Everything the routes need, on top of the storage: the schema migrated, the command handler, the
 * projections, the live hub and the auction lifecycle worker running. Shared by `npm start` and
 * the API tests.
 */
export async function openServices(infrastructure: Pick<Infrastructure, 'database' | 'eventStore'>, options: ServiceOptions): Promise<{ deps: AppDependencies; stop(): Promise<void> }> {
  const db = await openDatabase(infrastructure.database);
  const metrics = new Metrics();
  // Every append goes through this one store, so that the metrics count them all and the
  // checkpointer signs the chain links they answered.
  const appended = options.checkpoints === false ? null : new AppendedChains();
  const instrumented = metrics.instrument(infrastructure.eventStore);
  const eventStore = appended?.watch(instrumented) ?? instrumented;
  const commands = new CommandHandler(eventStore);
  const log = options.log ?? consoleLogger;
  const owners = options.instanceUrl ? new AuctionOwners(db, { instanceUrl: options.instanceUrl, log }) : null;
  owners?.start();
  const clock = options.clock ?? (() => new Date());
  const signer = new Signer({ commands, store: eventStore, clock, log }, { configured: options.signingKey, dataDir: options.dataDir });
  await signer.start();
  const auctionCommands = new AuctionCommandRouter({ commands, owners, secret: options.jwtSecret, observer: metrics.routingObserver, log });
  const projections = new ProjectionRunner(eventStore, db as unknown as Kysely<ReadModels>, { ...(options.log ? { log: options.log } : {}), observer: metrics.projectionObserver });
  await projections.start();
  const live = new LiveHub(eventStore, { clock, ...options.live, observer: metrics.liveObserver }, options.log);
  await live.start({ after: await latestCheckpoint(db) });
  const readyMaxLagEvents = options.readyMaxLagEvents ?? DEFAULT_READY_MAX_LAG_EVENTS;
  metrics.watch({ live, readModelLag: () => measureReadModelLag({ projections, eventStore }, readyMaxLagEvents + 1) });
  const afterSale = options.afterSale ?? DEFAULT_AFTER_SALE_SETTINGS;
  const lifecycle = options.lifecycle === false ? null : new LifecycleWorker({ db, commands, clock, shippingRates: afterSale.shippingRates }, options.lifecycle, options.log);
  lifecycle?.start();
  const checkpointer = options.checkpoints === false || appended === null ? null : new Checkpointer({ db, store: eventStore, commands, signer, appended, clock, log }, options.checkpoints);
  checkpointer?.start();
  const mediaStorage = await createMediaStorage(options.media ?? { kind: 'local' }, { dataDir: options.dataDir, signingSecret: options.jwtSecret });
  const mediaSweeper = new MediaSweeper({ db, mediaStorage, clock }, options.log);
  mediaSweeper.start();
  const links = new AppLinks(options.publicUrl);
  const notifier = options.notices === false ? null : new Notifier({ store: eventStore, db, links, clock, log });
  await notifier?.start();
  const noticeFeed = new NoticeFeed({ db, sql: infrastructure.database, log });
  await noticeFeed.start(live);
  const mailSettings = options.mail ?? { from: DEFAULT_MAIL_FROM };
  const mailSender = new MailSender({ db, sql: infrastructure.database, transport: createMailTransport(mailSettings, options.dataDir, log), clock, log, observer: metrics.mailObserver }, mailSettings);
  await mailSender.start();
  // A PostgreSQL server vacuums and analyzes itself; PGlite does not. Started last: a start-up that
  // fails above leaves no timer behind on a closed database.
  const maintenance = infrastructure.database instanceof PGliteClient ? new PGliteMaintenance(infrastructure.database, log) : null;
  maintenance?.start();
  return {
    deps: {
      sql: infrastructure.database,
      db,
      eventStore,
      commands,
      auctionCommands,
      signer,
      projections,
      clock,
      jwtSecret: options.jwtSecret,
      googleClientId: options.googleClientId,
      dataDir: options.dataDir,
      mediaStorage,
      live,
      lifecycle,
      checkpointer,
      metrics,
      readyMaxLagEvents,
      links,
      notifier,
      noticeFeed,
      mailSender,
      afterSale: { shippingRates: afterSale.shippingRates, paymentMethod: new BankTransfer(afterSale.bankAccount) },
      ...(options.logLevel ? { logLevel: options.logLevel } : {}),
      ...(options.trustProxy === undefined ? {} : { trustProxy: options.trustProxy }),
    },
    async stop() {
      await maintenance?.stop();
      // The worker first: its round in progress still needs the database and the projections.
      await lifecycle?.stop();
      await checkpointer?.stop();
      // Leases back before the hub and projections stop: the other processes take the auctions over at once.
      await owners?.stop().catch(() => undefined);
      await auctionCommands.close();
      await mediaSweeper.stop();
      await mailSender.stop();
      await noticeFeed.stop();
      await notifier?.stop();
      await live.stop();
      await projections.stop();
      signer.stop();
    },
  };
}

/** The furthest point the read models have reached: the live hub looks for the end of the log from there. */
async function latestCheckpoint(db: Kysely<Database>): Promise<LogPosition | undefined> {
  const rows = await db.selectFrom('projection_checkpoints').select('position').execute();
  return rows.map((row) => parsePosition(row.position)).sort(comparePositions).at(-1);
}

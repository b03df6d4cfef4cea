import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client';
import type { RoutingObserver } from '../cluster/auction-command-router';
import { ConcurrencyConflictError } from '../../engine/application/command-handler';
import { DomainError } from '../../engine/domain';
import type { EventStore } from '../../engine/eventstore/port';
import type { ProjectionObserver } from '../../projections';
import type { LiveHubStats, LiveObserver } from '../live/hub';
import type { MailObserver } from '../mail/sender';
import { InstrumentedEventStore } from './instrumented-event-store';
import type { ReadModelLag } from './read-model-lag';

export type BidKind = 'bid' | 'buy_now';
export type UploadKind = 'media' | 'bulk_import';

/** What the gauges read when scraped: set once the services they describe are running. */
interface WatchedServices {
  readonly live: { stats(): LiveHubStats };
  readonly readModelLag: () => Promise<ReadModelLag>;
}

/**
 * The metrics of one running set of services (GET /metrics serves them with the HTTP ones). Each
 * instance has a registry of its own, never prom-client's global one: tests run several in one
 * process. Counters are moved by the services through observers; gauges are read when scraped.
 */
export class Metrics {
  readonly registry = new Registry();
  #watched: WatchedServices | undefined;

  readonly #bids = new Counter({
    name: 'provenance_bids_total',
    help: 'Bids and buy-now purchases decided, by kind (bid, buy_now), outcome (accepted, refused) and refusal code',
    labelNames: ['kind', 'outcome', 'code'] as const,
    registers: [this.registry],
  });

  readonly #appends = new Counter({
    name: 'provenance_event_store_appends_total',
    help: 'Appends to the event store, by outcome: written, conflict (wrong expected revision: another writer was first) or error',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  readonly #appendedEvents = new Counter({
    name: 'provenance_event_store_appended_events_total',
    help: 'Events in successful appends (an idempotent retry counts again)',
    registers: [this.registry],
  });

  readonly #eventsApplied = new Counter({
    name: 'provenance_projection_events_applied_total',
    help: 'Events this process applied to the read models',
    registers: [this.registry],
  });

  readonly #webSocketMessages = new Counter({
    name: 'provenance_websocket_messages_total',
    help: 'Live-update WebSocket messages, by direction (received from clients, sent to clients)',
    labelNames: ['direction'] as const,
    registers: [this.registry],
  });

  readonly #uploads = new Counter({
    name: 'provenance_uploads_total',
    help: 'Upload requests answered, by kind (media, bulk_import) and outcome (accepted, refused, failed)',
    labelNames: ['kind', 'outcome'] as const,
    registers: [this.registry],
  });

  readonly #auctionCommands = new Counter({
    name: 'provenance_auction_commands_total',
    help: 'Bids and buy-nows by where they were decided: local (here), forwarded (to the process owning the auction), fallback (here, the owner unreachable)',
    labelNames: ['route'] as const,
    registers: [this.registry],
  });

  readonly #mail = new Counter({
    name: 'provenance_mail_total',
    help: 'Mail from the outbox, by outcome: sent, retry (failed, to be tried again) or gave_up (failed for the last time; see GET /api/admin/mail)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  /** Counts what became of each mail sent from the outbox; the mail sender tells it. */
  readonly mailObserver: MailObserver = {
    mailSent: () => this.#mail.inc({ outcome: 'sent' }),
    mailFailed: (outcome) => this.#mail.inc({ outcome }),
  };

  /** Counts where bids were decided; the auction command router tells it. */
  readonly routingObserver: RoutingObserver = {
    routed: (route) => this.#auctionCommands.inc({ route }),
  };

  /** Counts events the read models have applied; the projection runner tells it. */
  readonly projectionObserver: ProjectionObserver = {
    eventsApplied: (count) => this.#eventsApplied.inc(count),
  };

  readonly liveObserver: LiveObserver;

  constructor() {
    collectDefaultMetrics({ register: this.registry });
    const received = this.#webSocketMessages.labels('received');
    const sent = this.#webSocketMessages.labels('sent');
    this.liveObserver = { messageReceived: () => received.inc(), messagesSent: (count) => sent.inc(count) };

    const watched = () => this.#watched;
    new Gauge({
      name: 'provenance_websocket_connections',
      help: 'Live-update WebSocket connections open now',
      registers: [this.registry],
      collect() {
        this.set(watched()?.live.stats().connections ?? 0);
      },
    });
    // One measurement serves both gauges of a scrape.
    let measuring: Promise<ReadModelLag | null> | undefined;
    const measureLag = () =>
      (measuring ??= (watched()?.readModelLag() ?? Promise.resolve(null)).catch(() => null).finally(() => {
        measuring = undefined;
      }));
    new Gauge({
      name: 'provenance_projection_lag_events',
      help: 'Events in the log the read models have not applied yet (counted up to READY_MAX_LAG_EVENTS + 1); NaN when it cannot be measured',
      registers: [this.registry],
      async collect() {
        const lag = await measureLag();
        this.set(lag ? lag.events : Number.NaN);
      },
    });
    new Gauge({
      name: 'provenance_projection_lag_seconds',
      help: 'How long the oldest event the read models have not applied has been in the log; 0 when they are up to date',
      registers: [this.registry],
      async collect() {
        const lag = await measureLag();
        this.set(lag ? (lag.oldestPendingAt ? Math.max(0, (Date.now() - lag.oldestPendingAt.getTime()) / 1000) : 0) : Number.NaN);
      },
    });
  }

  /** Points the gauges at the running services. */
  watch(services: WatchedServices): void {
    this.#watched = services;
  }

  /** The store, counting its appends and conflicts. */
  instrument(store: EventStore): EventStore {
    return new InstrumentedEventStore(store, {
      appended: (events) => {
        this.#appends.inc({ outcome: 'written' });
        this.#appendedEvents.inc(events);
      },
      conflicted: () => this.#appends.inc({ outcome: 'conflict' }),
      failed: () => this.#appends.inc({ outcome: 'error' }),
    });
  }

  /** Counts how a bid (or a buy-now) was decided: accepted, or refused with the engine's code. */
  async countBid<T>(kind: BidKind, decision: Promise<T>): Promise<T> {
    try {
      const decided = await decision;
      this.#bids.inc({ kind, outcome: 'accepted', code: '' });
      return decided;
    } catch (error) {
      if (error instanceof DomainError) this.#bids.inc({ kind, outcome: 'refused', code: error.code });
      else if (error instanceof ConcurrencyConflictError) this.#bids.inc({ kind, outcome: 'refused', code: 'CONCURRENCY_CONFLICT' });
      throw error;
    }
  }

  /** Counts an answered upload request by its status: 2xx accepted, 4xx refused, 5xx failed. */
  countUpload(kind: UploadKind, statusCode: number): void {
    const outcome = statusCode >= 500 ? 'failed' : statusCode >= 400 ? 'refused' : 'accepted';
    this.#uploads.inc({ kind, outcome });
  }
}

import { isProductEvent } from '../domain/catalogue';
import type { RecordedEvent } from '../eventstore/port';
import type { Logger } from './logger';

type Seen = Pick<RecordedEvent, 'id' | 'streamId' | 'revision' | 'type' | 'data' | 'metadata'>;

/** How many verdicts each log's consumers keep: far more than they read between them. */
const VERDICTS_KEPT = 4_096;

/**
 * isProductEvent's verdict on each event a log's consumers read lately, by its place in the log and
 * its id (one record of that log). The read models, the notifier and the live hub all read every
 * event just appended: its data and metadata are parsed against their schemas once, not by each.
 * By log, since two stores in one process (tests, say) may hold different records at one place.
 */
const verdictsByLog = new WeakMap<object, Map<string, boolean>>();

/**
 * Drops what is not this product's from what a consumer of the log reads (isProductEvent: another
 * service's or an operator's events on a shared log), saying so once, at warn level: one line for
 * the first such event, not one per event and per batch.
 */
export class ForeignEventFilter {
  #warned = false;
  readonly #verdicts: Map<string, boolean>;

  /** `source`: the log the consumer reads (its event store); the consumers of one log share their verdicts. */
  constructor(
    private readonly consumer: string,
    private readonly log: Logger | undefined,
    source: object,
  ) {
    let verdicts = verdictsByLog.get(source);
    if (verdicts === undefined) verdictsByLog.set(source, (verdicts = new Map()));
    this.#verdicts = verdicts;
  }

  keep<Event extends Seen>(events: readonly Event[]): readonly Event[] {
    const kept = events.filter((event) => this.admits(event));
    return kept.length === events.length ? events : kept;
  }

  /** Whether `event` is the product's; the first that is not is logged. */
  admits(event: Seen): boolean {
    if (this.#isProductEvent(event)) return true;
    if (!this.#warned) {
      this.#warned = true;
      this.log?.warn(
        { consumer: this.consumer, eventId: event.id, streamId: event.streamId, type: event.type },
        `${this.consumer} skips events that are not this product's (unknown type or stream, or data or metadata not of the product's shape); later ones are skipped without a word`,
      );
    }
    return false;
  }

  #isProductEvent(event: Seen): boolean {
    const record = `${event.streamId}\u0000${event.revision}\u0000${event.id}`;
    let verdict = this.#verdicts.get(record);
    if (verdict === undefined) {
      verdict = isProductEvent(event);
      if (this.#verdicts.size >= VERDICTS_KEPT) this.#verdicts.delete(this.#verdicts.keys().next().value!);
      this.#verdicts.set(record, verdict);
    }
    return verdict;
  }
}

import { isProductEvent } from '../domain/catalogue';
import type { RecordedEvent } from '../eventstore/port';
import type { Logger } from './logger';

/**
 * Drops what is not this product's from what a consumer of the log reads (isProductEvent: another
 * service's or an operator's events on a shared log), saying so once, at warn level: one line for
 * the first such event, not one per event and per batch.
 */
export class ForeignEventFilter {
  #warned = false;

  constructor(
    private readonly consumer: string,
    private readonly log: Logger | undefined,
  ) {}

  keep<Event extends Seen>(events: readonly Event[]): readonly Event[] {
    const kept = events.filter((event) => this.admits(event));
    return kept.length === events.length ? events : kept;
  }

  /** Whether `event` is the product's; the first that is not is logged. */
  admits(event: Seen): boolean {
    if (isProductEventOnce(event)) return true;
    if (!this.#warned) {
      this.#warned = true;
      this.log?.warn(
        { consumer: this.consumer, eventId: event.id, streamId: event.streamId, type: event.type },
        `${this.consumer} skips events that are not this product's (unknown type or stream, or data or metadata not of the product's shape); later ones are skipped without a word`,
      );
    }
    return false;
  }
}

type Seen = Pick<RecordedEvent, 'id' | 'streamId' | 'revision' | 'type' | 'data' | 'metadata'>;

/** How many events' verdicts the process keeps: far more than its consumers read between them. */
const VERDICTS_KEPT = 4_096;

/**
 * isProductEvent's verdict on each event the process's consumers read lately, by its place in the
 * log and its id (one record each). The read models, the notifier and the live hub all read every
 * event just appended: its data and metadata are parsed against their schemas once, not by each.
 */
const verdicts = new Map<string, boolean>();

function isProductEventOnce(event: Seen): boolean {
  const record = `${event.streamId}\u0000${event.revision}\u0000${event.id}`;
  let verdict = verdicts.get(record);
  if (verdict === undefined) {
    verdict = isProductEvent(event);
    if (verdicts.size >= VERDICTS_KEPT) verdicts.delete(verdicts.keys().next().value!);
    verdicts.set(record, verdict);
  }
  return verdict;
}

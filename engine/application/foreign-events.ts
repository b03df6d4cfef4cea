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
    if (isProductEvent(event)) return true;
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

type Seen = Pick<RecordedEvent, 'id' | 'streamId' | 'type' | 'data' | 'metadata'>;

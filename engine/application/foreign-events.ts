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

  keep<Event extends Pick<RecordedEvent, 'id' | 'streamId' | 'type' | 'metadata'>>(events: readonly Event[]): readonly Event[] {
    const kept = events.filter(isProductEvent);
    if (kept.length === events.length) return events;
    if (!this.#warned) {
      this.#warned = true;
      const foreign = events.find((event) => !isProductEvent(event))!;
      this.log?.warn(
        { consumer: this.consumer, eventId: foreign.id, streamId: foreign.streamId, type: foreign.type },
        `${this.consumer} skips events that are not this product's (unknown type, stream or metadata); later ones are skipped without a word`,
      );
    }
    return kept;
  }
}

import type { Transaction } from 'kysely';
import type { AuctionEvent, BidRejected, EventMetadata, ListingEvent, NfcTagEvent } from '../engine/domain';
import type { RecordedEvent } from '../engine/eventstore/port';
import type { ReadModels } from './schema';

/** Every event a read model may see, typed by its `type`. */
export type ProjectedEvent = (AuctionEvent | ListingEvent | NfcTagEvent | BidRejected) & { readonly id: string };

/**
 * A read model: rows kept in step with the log. `apply` runs inside the transaction that also
 * stores this projection's checkpoint, so an event is applied exactly once.
 */
export interface Projection {
  readonly name: string;
  apply(db: Transaction<ReadModels>, event: ProjectedEvent): Promise<void>;
}

export function asProjectedEvent(recorded: RecordedEvent): ProjectedEvent {
  return { id: recorded.id, type: recorded.type, data: recorded.data, metadata: recorded.metadata as EventMetadata } as ProjectedEvent;
}

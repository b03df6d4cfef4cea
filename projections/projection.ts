import type { Transaction } from 'kysely';
import type { AuctionEvent, BidRejected, CheckpointEvent, EventMetadata, ListingEvent, NfcTagEvent, OrderEvent, SigningKeyEvent } from '../engine/domain';
import type { RecordedEvent } from '../engine/eventstore/port';
import type { ReadModels } from './schema';

/** Every event a read model may see, typed by its `type`. */
export type ProjectedEvent = (AuctionEvent | ListingEvent | NfcTagEvent | BidRejected | OrderEvent | CheckpointEvent | SigningKeyEvent) & { readonly id: string };

/**
 * A read model: rows kept in step with the log. `applyBatch` is given a batch's events in log order
 * (only those past its checkpoint) and runs inside the transaction that also stores its checkpoint,
 * so an event is applied exactly once. It may write set-wise, a statement for many events, as long
 * as the rows end as applying the events one by one would leave them.
 */
export interface Projection {
  readonly name: string;
  applyBatch(db: Transaction<ReadModels>, events: readonly ProjectedEvent[]): Promise<void>;
}

export function asProjectedEvent(recorded: RecordedEvent): ProjectedEvent {
  return { id: recorded.id, type: recorded.type, data: recorded.data, metadata: recorded.metadata as EventMetadata } as ProjectedEvent;
}

/** PostgreSQL's limit on a statement's parameters. */
const MAX_PARAMETERS = 65_535;

/** `rows` in slices small enough for one multi-row statement that binds `parametersPerRow` each. */
export function statementSized<Row>(rows: readonly Row[], parametersPerRow: number): Row[][] {
  const size = Math.floor(MAX_PARAMETERS / parametersPerRow);
  const slices: Row[][] = [];
  for (let start = 0; start < rows.length; start += size) slices.push(rows.slice(start, start + size));
  return slices;
}

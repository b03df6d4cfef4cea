import { asEngineEvent } from '../../engine/application/messages';
import {
  auctionStreamId,
  auctionSummaryView,
  evolveAuctionSummary,
  fold,
  initialAuctionSummary,
  isProductEvent,
  type AuctionEvent,
  type AuctionSummary,
} from '../../engine/domain';
import type { EventStore } from '../../engine/eventstore/port';

export interface AppliedEvent {
  /** The summary with the event folded in. */
  readonly view: AuctionSummary;
  /** The summary just before the event; undefined when the view came from a read of the stream. */
  readonly before: AuctionSummary | undefined;
}

/**
 * Summaries of the auctions the hub has spoken about (the engine's AuctionSummary: what the hub
 * needs to word its messages), least recently used evicted first. A summary is started by the
 * AuctionScheduled event when the hub sees it, otherwise read from the auction's stream the first
 * time a watched auction has news; from then on the hub's own subscription keeps it current. Each
 * event is folded in once, by its revision: one the stream read had already included is skipped.
 */
export class AuctionViews {
  readonly #views = new Map<string, AuctionSummary>();

  constructor(
    readonly store: EventStore,
    readonly capacity = 10_000,
  ) {}

  /** The summary of `auctionId`, read from its stream if not known; null when there is no such auction. */
  async get(auctionId: string): Promise<AuctionSummary | null> {
    const known = this.#views.get(auctionId);
    if (known) {
      this.#touch(auctionId, known);
      return known;
    }
    const recorded = await this.store.readStream(auctionStreamId(auctionId));
    const summary = fold(auctionSummaryView, recorded.filter(isProductEvent).map((event) => asEngineEvent(event) as AuctionEvent));
    if (summary.status === 'UNSCHEDULED') return null;
    this.#touch(auctionId, summary);
    return summary;
  }

  /**
   * Brings a known summary up to `event`, the auction stream's event at `revision` (the stream's
   * first event starts one); returns it, with the summary just before the event when it was folded
   * in now; undefined when the summary is not known.
   */
  apply(event: AuctionEvent, revision: number): AppliedEvent | undefined {
    const { auctionId } = event.data;
    const known = this.#views.get(auctionId);
    const version = known?.version ?? 0;
    // The stream read had already included it, and the rest of the append that wrote it.
    if (revision < version) return known && { view: known, before: undefined };
    if (revision > version) {
      // Not known, or events were missed: the stream is read when the summary is next needed.
      this.#views.delete(auctionId);
      return undefined;
    }
    const next = evolveAuctionSummary(known ?? initialAuctionSummary, event);
    if (next.status === 'UNSCHEDULED') return undefined;
    this.#touch(auctionId, next);
    return { view: next, before: known };
  }

  #touch(auctionId: string, summary: AuctionSummary): void {
    this.#views.delete(auctionId);
    this.#views.set(auctionId, summary);
    if (this.#views.size > this.capacity) this.#views.delete(this.#views.keys().next().value!);
  }
}

import { asEngineEvent } from '../../engine/application/command-handler';
import {
  assertNever,
  auctionDecider,
  auctionStreamId,
  fold,
  type AuctionEvent,
  type AuctionRules,
  type AuctionState,
  type Instant,
  type Standing,
} from '../../engine/domain';
import type { EventStore } from '../../engine/eventstore/port';

/** What the hub needs to know of an auction to word its messages: rules (for the minimum bid), end, status. */
export interface AuctionView {
  readonly rules: AuctionRules;
  readonly status: Exclude<AuctionState['status'], 'UNSCHEDULED'>;
  readonly endsAt: Instant;
  readonly standing: Standing;
}

/**
 * Views of the auctions the hub has spoken about, least recently used evicted first. A view is
 * built from the AuctionScheduled event when the hub sees it, otherwise from the auction's stream
 * the first time a watched auction has news; from then on the hub's own subscription keeps it
 * current. Every update sets a value rather than adding to one, so an event the stream read had
 * already included can be applied again without harm.
 */
export class AuctionViews {
  readonly #views = new Map<string, AuctionView>();

  constructor(
    readonly store: EventStore,
    readonly capacity = 10_000,
  ) {}

  /** The view of `auctionId`, read from its stream if not known; null when there is no such auction. */
  async get(auctionId: string): Promise<AuctionView | null> {
    const known = this.#views.get(auctionId);
    if (known) {
      this.#touch(auctionId, known);
      return known;
    }
    const recorded = await this.store.readStream(auctionStreamId(auctionId));
    const state = fold(auctionDecider, recorded.map((event) => asEngineEvent(event) as AuctionEvent));
    if (state.status === 'UNSCHEDULED') return null;
    const view: AuctionView = { rules: state.facts.rules, status: state.status, endsAt: state.endsAt, standing: state.standing };
    this.#touch(auctionId, view);
    return view;
  }

  /** Brings a known view up to `event` (or starts one from AuctionScheduled); returns it. */
  apply(event: AuctionEvent): AuctionView | undefined {
    const { auctionId } = event.data;
    if (event.type === 'AuctionScheduled') {
      const { rules, endsAt } = event.data;
      const standing: Standing = { price: rules.startingPrice, leaderId: null, leadingBidId: null, leaderMaximum: null, reserveMet: rules.reservePrice === null ? null : false };
      const view: AuctionView = { rules, status: 'PENDING', endsAt, standing };
      this.#touch(auctionId, view);
      return view;
    }
    const view = this.#views.get(auctionId);
    if (!view) return undefined;
    const next = evolveView(view, event);
    this.#views.set(auctionId, next);
    return next;
  }

  #touch(auctionId: string, view: AuctionView): void {
    this.#views.delete(auctionId);
    this.#views.set(auctionId, view);
    if (this.#views.size > this.capacity) this.#views.delete(this.#views.keys().next().value!);
  }
}

function evolveView(view: AuctionView, event: Exclude<AuctionEvent, { type: 'AuctionScheduled' }>): AuctionView {
  switch (event.type) {
    case 'AuctionOpened':
      return view.status === 'PENDING' ? { ...view, status: 'ACTIVE' } : view;
    case 'BidPlaced':
    case 'MaximumBidRaised':
      // A bid on a pending auction opens it in the same decision.
      return { ...view, status: view.status === 'PENDING' ? 'ACTIVE' : view.status, standing: event.data.standing };
    case 'BidRetracted':
      return { ...view, standing: event.data.standing };
    case 'AuctionExtended':
      return { ...view, endsAt: event.data.endsAt };
    case 'AuctionClosed':
      return { ...view, status: 'ENDED' };
    case 'AuctionCancelled':
      return { ...view, status: 'CANCELLED' };
    default:
      return assertNever(event);
  }
}

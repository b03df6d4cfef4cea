import { asEngineEvent } from '../../engine/application/messages';
import {
  auctionStreamId,
  evolveListing,
  evolveNfcTag,
  fold,
  formatUsd,
  initialListingState,
  initialNfcTagState,
  listingStreamId,
  nfcTagStreamId,
  orderStreamId,
  type AuctionEvent,
  type ListingEvent,
  type ListingState,
  type NfcTagEvent,
  type NfcTagState,
  type OrderEvent,
} from '../../engine/domain';
import { orderIdForSale } from '../../engine/application/order-commands';
import { comparePositions, type EventStore, type LogPosition, type RecordedEvent } from '../../engine/eventstore/port';
import { custodyEventSchema, type ChainOfCustody, type CustodyEntry } from '../contracts/custody';
import { toDollars, toDollarsOrNull } from '../http/money';

type CustodyEvent = NfcTagEvent | ListingEvent | AuctionEvent | OrderEvent;

/** A stretch of the log during which the tag was bound to one listing: from its bind to its unbind, if any. */
interface Binding {
  readonly listingId: string;
  readonly from: LogPosition;
  to: LogPosition | null;
}

/**
 * The history of the item a tag is on, read from the event log (the record), never from the read
 * models: the tag's own stream, then, for every listing it was bound to, what happened to that
 * listing and its auction while the tag was on it. Bids are not custody events, and nothing here
 * names a buyer or a bidder: a sale says its price, an auction how many bids it drew.
 * Null when no such tag was ever provisioned.
 */
export async function chainOfCustody(store: EventStore, uid: string, viewerId: string | null = null): Promise<ChainOfCustody | null> {
  const tagEvents = await store.readStream(nfcTagStreamId(uid));
  if (tagEvents.length === 0) return null;
  const tag = fold({ initialState: initialNfcTagState, evolve: evolveNfcTag }, tagEvents.map((event) => asEngineEvent(event) as NfcTagEvent));

  const bindings = bindingsOf(tagEvents);
  const listingStreams = new Map<string, RecordedEvent[]>();
  for (const { listingId } of bindings) {
    if (!listingStreams.has(listingId)) listingStreams.set(listingId, await store.readStream(listingStreamId(listingId)));
  }
  const listings = new Map([...listingStreams].map(([listingId, events]) => [listingId, foldListing(events)]));

  const recorded: RecordedEvent[] = [...tagEvents];
  /** Each order's buyer: only they see their order's private details (tracking number, what they paid). */
  const buyers = new Map<string, string>();
  for (const binding of bindings) {
    const listingEvents = listingStreams.get(binding.listingId)!.filter((event) => within(binding, event));
    recorded.push(...listingEvents);
    const auctionIds = listingEvents.filter((event) => event.type === 'ListingPublished').map((event) => (event.data as { auctionId: string }).auctionId);
    for (const auctionId of auctionIds) {
      const auctionEvents = (await store.readStream(auctionStreamId(auctionId))).filter((event) => within(binding, event));
      recorded.push(...auctionEvents);
      if (auctionEvents.some((event) => event.type === 'AuctionClosed' && (event.data as { result: string }).result === 'SOLD')) {
        for (const orderEvents of await ordersOfSale(store, auctionId)) {
          buyers.set((orderEvents[0]!.data as { orderId: string }).orderId, (orderEvents[0]!.data as { buyerId: string }).buyerId);
          recorded.push(...orderEvents.filter((event) => within(binding, event)));
        }
      }
    }
  }
  recorded.sort((a, b) => comparePositions(a.position, b.position));

  const bidsSoFar = new Map<string, number>();
  const described: Array<{ entry: CustodyEntry; position: LogPosition; commandId: string }> = [];
  for (const event of recorded) {
    const engineEvent = asEngineEvent(event) as CustodyEvent;
    if (engineEvent.type === 'BidPlaced') bidsSoFar.set(engineEvent.data.auctionId, (bidsSoFar.get(engineEvent.data.auctionId) ?? 0) + 1);
    const yours = 'orderId' in engineEvent.data && viewerId !== null && buyers.get(engineEvent.data.orderId) === viewerId;
    const custodyEvent = describe(engineEvent, { listings, bidsSoFar, yours });
    if (custodyEvent) {
      const entry = { ...custodyEvent, at: engineEvent.metadata.occurredAt, eventId: event.id, stream: event.streamId, revision: event.revision };
      described.push({ entry, position: event.position, commandId: engineEvent.metadata.commandId });
    }
  }
  return { uid: tagUid(tag, uid), status: tag.status === 'BOUND' ? 'BOUND' : 'AVAILABLE', listing: currentListing(tag, listings), history: inStoryOrder(described) };
}

/**
 * Log order, except inside one command's atomic append over several streams (a publication with
 * its auction, a withdrawal with its cancellation): a store lays those down in an order of its own
 * (Postgres: by stream id), so they are told in story order, where the first of them stands.
 */
function inStoryOrder(described: Array<{ entry: CustodyEntry; position: LogPosition; commandId: string }>): CustodyEntry[] {
  const firstOfCommand = new Map<string, LogPosition>();
  for (const { position, commandId } of described) if (!firstOfCommand.has(commandId)) firstOfCommand.set(commandId, position);
  return [...described]
    .sort(
      (a, b) =>
        comparePositions(firstOfCommand.get(a.commandId)!, firstOfCommand.get(b.commandId)!) ||
        STORY_ORDER.indexOf(a.entry.event) - STORY_ORDER.indexOf(b.entry.event) ||
        comparePositions(a.position, b.position),
    )
    .map(({ entry }) => entry);
}

/**
 * The orders a sale made, each as its stream: the auction's own (its id comes from the auction),
 * then any runner-up's who accepted a second-chance offer after it was cancelled, in turn.
 */
async function ordersOfSale(store: EventStore, auctionId: string): Promise<RecordedEvent[][]> {
  const orders: RecordedEvent[][] = [];
  for (let orderId: string | null = orderIdForSale(auctionId); orderId !== null; ) {
    const events = await store.readStream(orderStreamId(orderId));
    if (events.length === 0) break;
    orders.push(events);
    const accepted = events.find((event) => event.type === 'SecondChanceAccepted');
    orderId = accepted ? (accepted.data as { newOrderId: string }).newOrderId : null;
  }
  return orders;
}

function bindingsOf(tagEvents: readonly RecordedEvent[]): Binding[] {
  const bindings: Binding[] = [];
  for (const event of tagEvents) {
    if (event.type === 'NfcTagBound') bindings.push({ listingId: (event.data as { listingId: string }).listingId, from: event.position, to: null });
    if (event.type === 'NfcTagUnbound') {
      const open = bindings.at(-1);
      if (open && open.to === null) open.to = event.position;
    }
  }
  return bindings;
}

function within(binding: Binding, event: RecordedEvent): boolean {
  return comparePositions(event.position, binding.from) >= 0 && (binding.to === null || comparePositions(event.position, binding.to) <= 0);
}

function foldListing(events: readonly RecordedEvent[]): ListingState {
  return fold({ initialState: initialListingState, evolve: evolveListing }, events.map((event) => asEngineEvent(event) as ListingEvent));
}

function tagUid(tag: NfcTagState, asked: string): string {
  return tag.status === 'UNPROVISIONED' ? asked : tag.uid;
}

function currentListing(tag: NfcTagState, listings: ReadonlyMap<string, ListingState>): ChainOfCustody['listing'] {
  if (tag.status !== 'BOUND') return null;
  const listing = listings.get(tag.listingId);
  if (!listing || listing.status === 'NONE') return null;
  return { id: listing.listingId, slug: listing.slug, title: listing.details.title, status: listing.status };
}

/** The contract lists the entries in story order. */
const STORY_ORDER: readonly CustodyEntry['event'][] = custodyEventSchema.options;

const UNSOLD_REASONS = { NO_BIDS: 'no bids', RESERVE_NOT_MET: 'reserve not met', CANCELLED: 'auction cancelled' } as const;

interface Context {
  readonly listings: ReadonlyMap<string, ListingState>;
  /** Bids placed so far in each auction, as the log is walked. */
  readonly bidsSoFar: ReadonlyMap<string, number>;
  /** The event is about the viewer's own order: its private details may be shown. */
  readonly yours: boolean;
}

/** The custody entry an event makes, or null for events that are not custody (bids, edits, ...). */
function describe(event: CustodyEvent, context: Context): Pick<CustodyEntry, 'event' | 'summary' | 'details'> | null {
  const titleOf = (listingId: string) => {
    const listing = context.listings.get(listingId);
    return listing && listing.status !== 'NONE' ? `"${listing.details.title}"` : 'a listing';
  };
  const bids = (count: number) => `${count} bid${count === 1 ? '' : 's'}`;
  switch (event.type) {
    case 'NfcTagProvisioned':
      return { event: 'TAG_PROVISIONED', summary: `NFC tag ${event.data.uid} registered`, details: {} };
    case 'NfcTagBound':
      return { event: 'TAG_BOUND', summary: `Tag attached to ${titleOf(event.data.listingId)}`, details: { listingId: event.data.listingId } };
    case 'NfcTagUnbound':
      return {
        event: 'TAG_UNBOUND',
        summary: `Tag detached from ${titleOf(event.data.listingId)}: ${event.data.reason}`,
        details: { listingId: event.data.listingId, reason: event.data.reason },
      };
    case 'ListingPublished':
      return { event: 'LISTING_PUBLISHED', summary: 'Listed for auction', details: { listingId: event.data.listingId, auctionId: event.data.auctionId } };
    case 'ListingSold':
      return {
        event: 'LISTING_SOLD',
        summary: `Sold for ${formatUsd(event.data.finalPrice)}`,
        details: { listingId: event.data.listingId, auctionId: event.data.auctionId, finalPrice: toDollars(event.data.finalPrice) },
      };
    case 'ListingUnsold':
      return {
        event: 'LISTING_UNSOLD',
        summary: `Not sold: ${UNSOLD_REASONS[event.data.result]}`,
        details: { listingId: event.data.listingId, auctionId: event.data.auctionId, result: event.data.result },
      };
    case 'ListingWithdrawn':
      return { event: 'LISTING_WITHDRAWN', summary: `Withdrawn from sale: ${event.data.reason}`, details: { listingId: event.data.listingId, reason: event.data.reason } };
    case 'AuctionScheduled': {
      const { auctionId, startsAt, endsAt, rules } = event.data;
      return {
        event: 'AUCTION_SCHEDULED',
        // The dates are in `details` (startsAt, endsAt) for the reader to show in their own time zone.
        summary: `Auction scheduled, starting at ${formatUsd(rules.startingPrice)}`,
        // The reserve's amount stays private, as at any auction house; only its existence is public.
        details: { auctionId, startsAt, endsAt, startingPrice: toDollars(rules.startingPrice), buyNowPrice: toDollarsOrNull(rules.buyNowPrice), hasReserve: rules.reservePrice !== null },
      };
    }
    case 'AuctionOpened':
      return { event: 'AUCTION_OPENED', summary: 'Auction opened for bidding', details: { auctionId: event.data.auctionId, openedAt: event.data.openedAt } };
    case 'AuctionExtended':
      return {
        event: 'AUCTION_EXTENDED',
        summary: `A late bid extended the auction to ${event.data.endsAt}`,
        details: { auctionId: event.data.auctionId, previousEndsAt: event.data.previousEndsAt, endsAt: event.data.endsAt },
      };
    case 'AuctionClosed': {
      const { auctionId, result, closedBy, finalPrice, closedAt } = event.data;
      const bidCount = context.bidsSoFar.get(auctionId) ?? 0;
      const summary =
        result === 'SOLD'
          ? `Auction closed${closedBy === 'BUY_NOW' ? ' by a buy-now purchase' : ''}: sold for ${formatUsd(finalPrice ?? 0)} after ${bids(bidCount)}`
          : `Auction closed: ${result === 'NO_BIDS' ? 'no bids' : `reserve not met after ${bids(bidCount)}`}`;
      return { event: 'AUCTION_CLOSED', summary, details: { auctionId, result, closedBy, closedAt, finalPrice: toDollarsOrNull(finalPrice), bidCount } };
    }
    case 'AuctionCancelled':
      return { event: 'AUCTION_CANCELLED', summary: `Auction cancelled: ${event.data.reason}`, details: { auctionId: event.data.auctionId, reason: event.data.reason } };
    case 'ListingRelisted':
      return { event: 'LISTING_RELISTED', summary: 'Back on sale after the sale fell through', details: { listingId: event.data.listingId } };
    // After the hammer: dates and the carrier are public, as a provenance record; who bought it, where
    // it went, the tracking number and what they paid beyond the hammer price are the buyer's alone.
    case 'OrderPlaced':
      if (event.data.origin.kind !== 'SECOND_CHANCE') return null; // the sale itself is LISTING_SOLD
      // The price is the runner-up's own highest bid, which the auction kept private: theirs to see.
      return {
        event: 'SOLD_TO_RUNNER_UP',
        summary: 'Sold to the runner-up',
        details: { auctionId: event.data.auctionId, ...yourOrder(event.data.orderId, context, { hammerPrice: formatUsd(event.data.hammerPrice) }) },
      };
    case 'OrderCancelled':
      return { event: 'SALE_CANCELLED', summary: 'The sale was cancelled: the buyer did not complete it', details: { cancelledAt: event.data.cancelledAt, ...yourOrder(event.data.orderId, context) } };
    case 'OrderPaid':
      return { event: 'ORDER_PAID', summary: 'Paid in full', details: { paidAt: event.data.paidAt, ...yourOrder(event.data.orderId, context) } };
    case 'OrderShipped': {
      // The carrier is what an admin typed: shown to all only when it is a carrier's name, never free text.
      const carrier = publicCarrier(event.data.carrier);
      return {
        event: 'ORDER_SHIPPED',
        summary: carrier ? `Shipped to the buyer with ${carrier}` : 'Shipped to the buyer',
        details: { carrier, shippedAt: event.data.shippedAt, ...yourOrder(event.data.orderId, context, { carrierAsEntered: event.data.carrier, trackingNumber: event.data.trackingNumber }) },
      };
    }
    case 'OrderDelivered':
      return {
        event: 'ORDER_DELIVERED',
        summary: event.data.confirmedBy === 'BUYER' ? 'Delivered: the buyer confirmed receipt' : 'Delivered',
        details: { deliveredAt: event.data.deliveredAt, confirmedBy: event.data.confirmedBy, ...yourOrder(event.data.orderId, context) },
      };
    case 'OrderCompleted':
      return { event: 'SALE_COMPLETED', summary: 'Sale completed: the item is in its new owner’s hands', details: { completedAt: event.data.completedAt, ...yourOrder(event.data.orderId, context) } };
    default:
      // Drafting, editing, saving, the listing's side of a binding, bids and their retractions,
      // and an order's private steps (its address, each payment, offers).
      return null;
  }
}

/** Carriers whose name may stand in the public record, as they spell it. */
const KNOWN_CARRIERS = ['UPS', 'FedEx', 'USPS', 'DHL', 'Royal Mail', 'Canada Post', 'Australia Post', 'Brink’s', 'Malca-Amit'];

function publicCarrier(entered: string): string | null {
  const key = (text: string) => text.toLowerCase().replace(/[^a-z]/g, '');
  return KNOWN_CARRIERS.find((carrier) => key(carrier) === key(entered)) ?? null;
}

/** What only the order's buyer sees in its entries: that it is theirs, and its private facts. */
function yourOrder(orderId: string, context: Context, private_: Record<string, string> = {}): Record<string, string | boolean> {
  return context.yours ? { yourOrderId: orderId, ...private_ } : {};
}

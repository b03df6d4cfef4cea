import {
  fold,
  listingDecider,
  orderDecider,
  type Actor,
  type CommandMetadata,
  type EventMetadata,
  type Instant,
  type ListingEvent,
  type OrderCommand,
  type OrderCommandOf,
  type OrderEvent,
  type OrderEventOf,
  type OrderState,
  type PlacedOrder,
  type ShippingAddress,
} from '../../../engine/domain';
import { admin, AUCTION_ID, buyer, eventMetadata, LISTING_ID, liveListing, metadata, play, scheduler } from '../fixtures';

/**
 * The order of these tests: the auction in fixtures.ts (AUCTION_ID, LISTING_ID) sold to buyer-1 for
 * a $1,000.00 hammer, at a 20% buyer's premium ($200.00) with $25.00 shipping: $1,225.00 in all,
 * due a week after the order is placed.
 */

// ---- the sale ---------------------------------------------------------------------------------

export const ORDER_ID = 'order-1';
export const ORDER_NUMBER = 'PRV-7K3QX9MA';
/** The order a runner-up's accepted second-chance offer places. */
export const SUCCESSOR_ORDER_ID = 'order-2';

export const BUYER_ID = 'buyer-1';
export const orderBuyer: Actor = buyer(BUYER_ID);
/** The runner-up a second chance is offered to, at their own maximum of $950.00. */
export const RUNNER_UP_ID = 'bidder-2';
export const RUNNER_UP_AMOUNT = 95_000;
export const runnerUp: Actor = buyer(RUNNER_UP_ID);
/** The third bidder, at $900.00: the next one to ask when the runner-up says no. */
export const THIRD_BIDDER_ID = 'bidder-3';
export const THIRD_BIDDER_AMOUNT = 90_000;
export const thirdBidder: Actor = buyer(THIRD_BIDDER_ID);

export const HAMMER_PRICE = 100_000;
export const PREMIUM_BASIS_POINTS = 2_000;
export const BUYERS_PREMIUM = 20_000;
export const SHIPPING = 2_500;
export const TOTAL = HAMMER_PRICE + BUYERS_PREMIUM + SHIPPING;
/** A week, the default window. */
export const PAYMENT_WINDOW_SECONDS = 7 * 24 * 3_600;

// ---- the timeline -----------------------------------------------------------------------------

/** The auction's end (fixtures' ENDS_AT): the order is placed as it closes. */
export const PLACED_AT: Instant = '2026-12-08T12:00:00.000Z';
export const ADDRESSED_AT: Instant = '2026-12-08T13:00:00.000Z';
export const PAID_AT: Instant = '2026-12-09T12:00:00.000Z';
export const SHIPPED_AT: Instant = '2026-12-10T12:00:00.000Z';
export const DELIVERED_AT: Instant = '2026-12-12T12:00:00.000Z';
/** PLACED_AT plus the week's window. */
export const PAYMENT_DUE_AT: Instant = '2026-12-15T12:00:00.000Z';
export const CANCELLED_AT: Instant = '2026-12-16T12:00:00.000Z';
export const OFFERED_AT: Instant = '2026-12-16T13:00:00.000Z';
/** OFFERED_AT plus the 48 hours an offer stands. */
export const OFFER_EXPIRES_AT: Instant = '2026-12-18T13:00:00.000Z';

// ---- messages ---------------------------------------------------------------------------------

/** Who issues a command, when, and under what command id. */
export interface Issued {
  readonly actor?: Actor;
  readonly at?: Instant;
  readonly commandId?: string;
}

function issued(type: OrderCommand['type'], defaults: { actor: Actor; at: Instant }, options: Issued): CommandMetadata {
  return metadata(options.actor ?? defaults.actor, options.at ?? defaults.at, options.commandId ?? `cmd-${type}`);
}

/** The metadata every event that `command` causes must carry: its actor, its time, its ids. */
export function causedBy(command: { readonly metadata: CommandMetadata }): EventMetadata {
  const { actor, now, commandId, correlationId } = command.metadata;
  return eventMetadata(actor, now, commandId, correlationId);
}

export const US_ADDRESS: ShippingAddress = {
  name: 'Jordan Avery',
  line1: '350 Fifth Avenue',
  line2: 'Suite 4200',
  city: 'New York',
  region: 'NY',
  postalCode: '10118',
  country: 'US',
};

export const GB_ADDRESS: ShippingAddress = {
  name: 'Jordan Avery',
  line1: '10 Downing Street',
  line2: null,
  city: 'London',
  region: null,
  postalCode: 'SW1A 2AA',
  country: 'GB',
};

type Terms = OrderCommandOf<'PlaceOrder'>['data'];

/** The order's terms as the scheduler places it when the auction closes SOLD. */
export function orderTerms(overrides: Partial<Terms> = {}): Terms {
  return {
    orderId: ORDER_ID,
    orderNumber: ORDER_NUMBER,
    auctionId: AUCTION_ID,
    listingId: LISTING_ID,
    buyerId: BUYER_ID,
    hammerPrice: HAMMER_PRICE,
    buyersPremiumBasisPoints: PREMIUM_BASIS_POINTS,
    shipping: SHIPPING,
    paymentWindowSeconds: PAYMENT_WINDOW_SECONDS,
    origin: { kind: 'SALE' },
    ...overrides,
  };
}

export function placeOrder(overrides: Partial<Terms> = {}, options: Issued = {}): OrderCommandOf<'PlaceOrder'> {
  return { type: 'PlaceOrder', data: orderTerms(overrides), metadata: issued('PlaceOrder', { actor: scheduler, at: PLACED_AT }, options) };
}

/** The OrderPlaced of the sale: $1,000.00 + $200.00 premium + $25.00 shipping, due a week later. */
export function orderPlaced(): OrderEventOf<'OrderPlaced'> {
  return {
    type: 'OrderPlaced',
    data: { ...orderTerms(), buyersPremium: BUYERS_PREMIUM, placedAt: PLACED_AT, paymentDueAt: PAYMENT_DUE_AT },
    metadata: eventMetadata(scheduler, PLACED_AT, 'cmd-PlaceOrder'),
  };
}

export function setShippingAddress(address: ShippingAddress = US_ADDRESS, options: Issued = {}): OrderCommandOf<'SetShippingAddress'> {
  return {
    type: 'SetShippingAddress',
    data: { orderId: ORDER_ID, address },
    metadata: issued('SetShippingAddress', { actor: orderBuyer, at: ADDRESSED_AT }, options),
  };
}

export function changeShippingCharge(shipping: number, options: Issued = {}): OrderCommandOf<'ChangeShippingCharge'> {
  return { type: 'ChangeShippingCharge', data: { orderId: ORDER_ID, shipping }, metadata: issued('ChangeShippingCharge', { actor: admin, at: ADDRESSED_AT }, options) };
}

export interface PaymentOptions extends Issued {
  readonly paymentId?: string;
  readonly reference?: string;
  /** When the money arrived; the command's time unless given. */
  readonly receivedAt?: Instant;
}

/** An admin recording a bank transfer of `amount`; its id and reference default to ones named after the amount. */
export function recordPayment(amount: number, options: PaymentOptions = {}): OrderCommandOf<'RecordPayment'> {
  const meta = issued('RecordPayment', { actor: admin, at: PAID_AT }, options);
  return {
    type: 'RecordPayment',
    data: {
      orderId: ORDER_ID,
      paymentId: options.paymentId ?? `payment-${amount}`,
      method: 'BANK_TRANSFER',
      amount,
      reference: options.reference ?? `WIRE-${amount}`,
      receivedAt: options.receivedAt ?? meta.now,
    },
    metadata: meta,
  };
}

export function markPaymentOverdue(options: Issued = {}): OrderCommandOf<'MarkPaymentOverdue'> {
  return { type: 'MarkPaymentOverdue', data: { orderId: ORDER_ID }, metadata: issued('MarkPaymentOverdue', { actor: scheduler, at: PAYMENT_DUE_AT }, options) };
}

/** The admin shipping to the address they read (the buyer's US address, unless told otherwise). */
export function shipOrder(options: Issued & { carrier?: string; trackingNumber?: string; shipTo?: ShippingAddress | null } = {}): OrderCommandOf<'ShipOrder'> {
  return {
    type: 'ShipOrder',
    data: {
      orderId: ORDER_ID,
      carrier: options.carrier ?? 'UPS',
      trackingNumber: options.trackingNumber ?? '1Z999AA10123456784',
      shipTo: options.shipTo === undefined ? US_ADDRESS : options.shipTo,
    },
    metadata: issued('ShipOrder', { actor: admin, at: SHIPPED_AT }, options),
  };
}

/** The buyer confirming delivery, unless another actor is given. */
export function confirmDelivery(options: Issued = {}): OrderCommandOf<'ConfirmDelivery'> {
  return { type: 'ConfirmDelivery', data: { orderId: ORDER_ID }, metadata: issued('ConfirmDelivery', { actor: orderBuyer, at: DELIVERED_AT }, options) };
}

export function cancelOrder(reason = 'The buyer did not pay', options: Issued = {}): OrderCommandOf<'CancelOrder'> {
  return { type: 'CancelOrder', data: { orderId: ORDER_ID, reason }, metadata: issued('CancelOrder', { actor: admin, at: CANCELLED_AT }, options) };
}

export type Candidate = OrderCommandOf<'OfferSecondChance'>['data']['candidate'];
export const runnerUpCandidate: NonNullable<Candidate> = { bidderId: RUNNER_UP_ID, amount: RUNNER_UP_AMOUNT };
export const thirdBidderCandidate: NonNullable<Candidate> = { bidderId: THIRD_BIDDER_ID, amount: THIRD_BIDDER_AMOUNT };

export function offerSecondChance(candidate: Candidate = runnerUpCandidate, options: Issued & { offerId?: string } = {}): OrderCommandOf<'OfferSecondChance'> {
  return {
    type: 'OfferSecondChance',
    data: { orderId: ORDER_ID, offerId: options.offerId ?? 'offer-1', candidate },
    metadata: issued('OfferSecondChance', { actor: admin, at: OFFERED_AT }, options),
  };
}

type OfferOptions = Issued & { offerId?: string };

/** The runner-up accepting offer-1 (a day after it was made), naming their new order. */
export const SUCCESSOR_ORDER_NUMBER = 'PRV-R4NNER2P';

export function acceptSecondChance(options: OfferOptions & { newOrderId?: string } = {}): OrderCommandOf<'AcceptSecondChance'> {
  return {
    type: 'AcceptSecondChance',
    data: { orderId: ORDER_ID, offerId: options.offerId ?? 'offer-1', newOrderId: options.newOrderId ?? SUCCESSOR_ORDER_ID, newOrderNumber: SUCCESSOR_ORDER_NUMBER },
    metadata: issued('AcceptSecondChance', { actor: runnerUp, at: '2026-12-17T13:00:00.000Z' }, options),
  };
}

export function declineSecondChance(options: OfferOptions = {}): OrderCommandOf<'DeclineSecondChance'> {
  return {
    type: 'DeclineSecondChance',
    data: { orderId: ORDER_ID, offerId: options.offerId ?? 'offer-1' },
    metadata: issued('DeclineSecondChance', { actor: runnerUp, at: '2026-12-17T13:00:00.000Z' }, options),
  };
}

/** The scheduler expiring offer-1 when its 48 hours are up. */
export function expireSecondChance(options: OfferOptions = {}): OrderCommandOf<'ExpireSecondChance'> {
  return {
    type: 'ExpireSecondChance',
    data: { orderId: ORDER_ID, offerId: options.offerId ?? 'offer-1' },
    metadata: issued('ExpireSecondChance', { actor: scheduler, at: OFFER_EXPIRES_AT }, options),
  };
}

export function releaseListing(options: Issued = {}): OrderCommandOf<'ReleaseListing'> {
  return { type: 'ReleaseListing', data: { orderId: ORDER_ID }, metadata: issued('ReleaseListing', { actor: admin, at: '2026-12-20T12:00:00.000Z' }, options) };
}

// ---- histories --------------------------------------------------------------------------------

/** The history after running `commands` through the order decider, from `history`. */
export const after = (history: OrderEvent[], ...commands: OrderCommand[]): OrderEvent[] => play(orderDecider, history, ...commands);

export const stateOf = (history: OrderEvent[]): OrderState => fold(orderDecider, history);

/** The state of a placed order; fails when the history placed none. */
export function placedState(history: OrderEvent[]): PlacedOrder {
  const state = stateOf(history);
  if (state.status === 'NONE') throw new Error('expected a placed order');
  return state;
}

/** Placed, awaiting payment of $1,225.00, no address yet. */
export const placedOrder = (): OrderEvent[] => [orderPlaced()];
/** Placed, with the buyer's US address. */
export const addressedOrder = (): OrderEvent[] => after(placedOrder(), setShippingAddress());
/** Addressed and paid in full by one transfer. */
export const paidOrder = (): OrderEvent[] => after(addressedOrder(), recordPayment(TOTAL));
export const shippedOrder = (): OrderEvent[] => after(paidOrder(), shipOrder());
/** Delivered as the buyer confirmed, and so completed. */
export const completedOrder = (): OrderEvent[] => after(shippedOrder(), confirmDelivery());
/** The week is up and nothing was paid. */
export const overdueOrder = (): OrderEvent[] => after(placedOrder(), markPaymentOverdue());
/** Overdue, then cancelled by an admin. */
export const cancelledOrder = (): OrderEvent[] => after(overdueOrder(), cancelOrder());
/** Cancelled, with offer-1 open to the runner-up at $950.00 until OFFER_EXPIRES_AT. */
export const offeredOrder = (): OrderEvent[] => after(cancelledOrder(), offerSecondChance());

// ---- the listing ------------------------------------------------------------------------------

/** The listing of the sale, SOLD to buyer-1 in AUCTION_ID. */
export function soldListing(): ListingEvent[] {
  return play(listingDecider, liveListing(), {
    type: 'RecordAuctionOutcome',
    data: { listingId: LISTING_ID, auctionId: AUCTION_ID, result: 'SOLD', buyerId: BUYER_ID, finalPrice: HAMMER_PRICE },
    metadata: metadata(scheduler, PLACED_AT, 'cmd-outcome'),
  });
}

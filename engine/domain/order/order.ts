import type { Decider } from '../shared/decider';
import { assertNever, forbidden, invalid, notFound, rejected } from '../shared/errors';
import { eventMetadataFor, hasRole, requireReason, requireRole, type Actor, type CommandMetadata, type Role } from '../shared/messages';
import { formatUsd, type Cents } from '../shared/money';
import { fromMillis, toMillis, type Instant } from '../shared/time';
import type { ShippingAddress } from './address';
import { orderCommandSchema, type OrderCommand, type OrderCommandOf, type OrderEvent, type OrderEventOf } from './messages';

/** A second-chance offer stands this long (eBay's Second Chance Offer: the bidder has 48 hours). */
export const SECOND_CHANCE_OFFER_MS = 48 * 3_600_000;
/** A shipped order the buyer has not confirmed counts as delivered this long after it shipped. */
export const AUTOMATIC_DELIVERY_MS = 14 * 24 * 3_600_000;

/** The status every order has, as buyers, admins and the read models name it. */
export type OrderStatus = 'AWAITING_PAYMENT' | 'PAYMENT_OVERDUE' | 'PAID' | 'SHIPPED' | 'DELIVERED' | 'COMPLETED' | 'CANCELLED' | 'SECOND_CHANCE_OFFERED';

export interface SecondChanceOffer {
  readonly offerId: string;
  readonly bidderId: string;
  readonly amount: Cents;
  readonly expiresAt: Instant;
  readonly outcome: 'OPEN' | 'ACCEPTED' | 'DECLINED' | 'EXPIRED';
}

export type OrderFacts = Omit<OrderEventOf<'OrderPlaced'>['data'], 'shipping'>;

export interface PlacedOrder {
  readonly status: OrderStatus;
  readonly facts: OrderFacts;
  readonly shipping: Cents;
  readonly amountPaid: Cents;
  readonly paymentReferences: readonly string[];
  readonly address: ShippingAddress | null;
  readonly shipment: { readonly carrier: string; readonly trackingNumber: string; readonly shippedAt: Instant } | null;
  /** Every offer made after this order was cancelled, oldest first; the last may be open. */
  readonly offers: readonly SecondChanceOffer[];
  /** The order a runner-up's accepted offer made; the item is theirs now. */
  readonly successorOrderId: string | null;
  /** The item went back to the catalogue to be sold again. */
  readonly listingReleased: boolean;
}

export type OrderState = { readonly status: 'NONE' } | PlacedOrder;

export const initialOrderState: OrderState = { status: 'NONE' };

export function orderStreamId(orderId: string): string {
  return `order-${orderId}`;
}

/**
 * The buyer's premium on a hammer price, rounded half up to the cent. In BigInt: hammer × basis
 * points passes 2^53 for hammer prices the schema accepts (above about $18 billion at 50%), where
 * floating point would round the product and miss the cent.
 */
export function buyersPremiumOn(hammerPrice: Cents, basisPoints: number): Cents {
  return Number((BigInt(hammerPrice) * BigInt(basisPoints) + 5_000n) / 10_000n);
}

/** What the buyer owes in all: hammer price, premium and shipping (no tax: out of scope). */
export function orderTotal(order: Pick<PlacedOrder, 'facts' | 'shipping'>): Cents {
  return order.facts.hammerPrice + order.facts.buyersPremium + order.shipping;
}

export function orderBalance(order: PlacedOrder): Cents {
  return orderTotal(order) - order.amountPaid;
}

/** What the buyer may do with an order in `status`, for screens to offer: the decider's own rules below. */
export function buyerActionsAt(status: OrderStatus): { setShippingAddress: boolean; confirmReceipt: boolean } {
  return { setShippingAddress: isUnpaid(status) || status === 'PAID', confirmReceipt: status === 'SHIPPED' };
}

/** What an admin may do with an order as it stands, for screens to offer: the decider's own rules below. */
export function adminActionsAt(order: Pick<PlacedOrder, 'status' | 'amountPaid' | 'successorOrderId' | 'listingReleased'> & { readonly hasShippingAddress: boolean }): {
  recordPayment: boolean;
  changeShipping: boolean;
  ship: boolean;
  markDelivered: boolean;
  cancel: boolean;
  offerToRunnerUp: boolean;
  relist: boolean;
} {
  const unpaid = isUnpaid(order.status);
  const stillTheAuctions = order.status === 'CANCELLED' && order.successorOrderId === null && !order.listingReleased;
  return {
    recordPayment: unpaid,
    changeShipping: unpaid,
    ship: order.status === 'PAID' && order.hasShippingAddress,
    markDelivered: order.status === 'SHIPPED',
    cancel: unpaid && order.amountPaid === 0,
    offerToRunnerUp: stillTheAuctions,
    relist: stillTheAuctions,
  };
}

/** Before payment in full: awaiting it, or overdue (a late payment is still taken until an admin cancels). */
function isUnpaid(status: OrderStatus): boolean {
  return status === 'AWAITING_PAYMENT' || status === 'PAYMENT_OVERDUE';
}

// ---- evolve ---------------------------------------------------------------------------------

export function evolveOrder(state: OrderState, event: OrderEvent): OrderState {
  if (event.type === 'OrderPlaced') {
    const { shipping, ...facts } = event.data;
    return {
      status: 'AWAITING_PAYMENT',
      facts,
      shipping,
      amountPaid: 0,
      paymentReferences: [],
      address: null,
      shipment: null,
      offers: [],
      successorOrderId: null,
      listingReleased: false,
    };
  }
  if (state.status === 'NONE') return state;
  switch (event.type) {
    case 'ShippingAddressSet':
      return { ...state, address: event.data.address };
    case 'ShippingChargeChanged':
      return { ...state, shipping: event.data.shipping };
    case 'PaymentRecorded':
      return { ...state, amountPaid: event.data.amountPaid, paymentReferences: [...state.paymentReferences, normalizedReference(event.data.reference)] };
    case 'OrderPaid':
      return { ...state, status: 'PAID' };
    case 'OrderPaymentOverdue':
      return { ...state, status: 'PAYMENT_OVERDUE' };
    case 'OrderShipped': {
      const { carrier, trackingNumber, shippedAt } = event.data;
      return { ...state, status: 'SHIPPED', shipment: { carrier, trackingNumber, shippedAt } };
    }
    case 'OrderDelivered':
      return { ...state, status: 'DELIVERED' };
    case 'OrderCompleted':
      return { ...state, status: 'COMPLETED' };
    case 'OrderCancelled':
      return { ...state, status: 'CANCELLED' };
    case 'SecondChanceOffered': {
      const { offerId, bidderId, amount, expiresAt } = event.data;
      return { ...state, status: 'SECOND_CHANCE_OFFERED', offers: [...state.offers, { offerId, bidderId, amount, expiresAt, outcome: 'OPEN' }] };
    }
    case 'SecondChanceAccepted':
      return { ...closeOffer(state, event.data.offerId, 'ACCEPTED'), successorOrderId: event.data.newOrderId };
    case 'SecondChanceDeclined':
      return closeOffer(state, event.data.offerId, 'DECLINED');
    case 'SecondChanceExpired':
      return closeOffer(state, event.data.offerId, 'EXPIRED');
    case 'OrderListingReleased':
      return { ...state, listingReleased: true };
    default:
      return assertNever(event);
  }
}

function closeOffer(state: PlacedOrder, offerId: string, outcome: SecondChanceOffer['outcome']): PlacedOrder {
  return { ...state, status: 'CANCELLED', offers: state.offers.map((offer) => (offer.offerId === offerId ? { ...offer, outcome } : offer)) };
}

// ---- decide ---------------------------------------------------------------------------------

export function decideOrder(unchecked: OrderCommand, state: OrderState): OrderEvent[] {
  // The engine checks what it is told (a card provider's webhook will issue commands too): the
  // schema's trimming and limits apply whoever the caller is.
  const parsed = orderCommandSchema.safeParse(unchecked);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const [, field, ...rest] = issue.path.map(String);
    // A shipping address is the buyer's form: its problems name the address's own field.
    if (field === 'address') throw invalid('ADDRESS_INVALID', issue.message, { field: rest.join('.') });
    throw invalid('INVALID_ORDER_COMMAND', issue.message, { field: issue.path.slice(1).join('.') });
  }
  const command = parsed.data;
  if (command.type === 'PlaceOrder') {
    requireRole(command.metadata.actor, 'SYSTEM');
    return [placeOrder(command.data, state, command)];
  }
  const order = requirePlaced(state);
  switch (command.type) {
    case 'SetShippingAddress':
      return setAddress(command, order);
    case 'ChangeShippingCharge':
      return changeShipping(command, order);
    case 'RecordPayment':
      return recordPayment(command, order);
    case 'MarkPaymentOverdue':
      return markOverdue(command, order);
    case 'ShipOrder':
      return ship(command, order);
    case 'ConfirmDelivery':
      return confirmDelivery(command, order);
    case 'CancelOrder':
      return cancel(command, order);
    case 'OfferSecondChance':
      return offerSecondChance(command, order);
    case 'AcceptSecondChance':
      return [acceptance(command, order)];
    case 'DeclineSecondChance':
    case 'ExpireSecondChance':
      return closeSecondChance(command, order);
    case 'ReleaseListing':
      return releaseListing(command, order);
    default:
      return assertNever(command);
  }
}

export const orderDecider: Decider<OrderCommand, OrderEvent, OrderState> = {
  initialState: initialOrderState,
  evolve: evolveOrder,
  decide: decideOrder,
};

/**
 * A runner-up accepting a second-chance offer: the cancelled order records the acceptance and a new
 * order, theirs, is placed at the offer's amount under the auction's terms. Decided together so the
 * caller appends both streams atomically: never an accepted offer without its order, nor two orders
 * from one offer.
 */
export function decideSecondChanceAcceptance(
  command: OrderCommandOf<'AcceptSecondChance'>,
  original: OrderState,
  successor: OrderState,
  shipping: Cents,
): { originalEvents: OrderEvent[]; successorEvents: OrderEvent[] } {
  const order = requirePlaced(original);
  const accepted = acceptance(command, order);
  const { facts } = order;
  const { offerId, newOrderId, newOrderNumber } = command.data;
  const offer = order.offers.find((candidate) => candidate.offerId === offerId)!;
  const placed = placeOrder(
    {
      orderId: newOrderId,
      orderNumber: newOrderNumber,
      auctionId: facts.auctionId,
      listingId: facts.listingId,
      buyerId: offer.bidderId,
      hammerPrice: offer.amount,
      buyersPremiumBasisPoints: facts.buyersPremiumBasisPoints,
      shipping,
      paymentWindowSeconds: facts.paymentWindowSeconds,
      origin: { kind: 'SECOND_CHANCE', previousOrderId: facts.orderId, offerId },
    },
    successor,
    command,
  );
  return { originalEvents: [accepted], successorEvents: [placed] };
}

function placeOrder(terms: OrderCommandOf<'PlaceOrder'>['data'], state: OrderState, command: { metadata: CommandMetadata }): OrderEvent {
  if (state.status !== 'NONE') throw rejected('ORDER_ALREADY_PLACED', 'This order has already been placed');
  const { now } = command.metadata;
  return {
    type: 'OrderPlaced',
    data: {
      ...terms,
      buyersPremium: buyersPremiumOn(terms.hammerPrice, terms.buyersPremiumBasisPoints),
      placedAt: now,
      paymentDueAt: fromMillis(toMillis(now) + terms.paymentWindowSeconds * 1000),
    },
    metadata: eventMetadataFor(command),
  };
}

function setAddress(command: OrderCommandOf<'SetShippingAddress'>, order: PlacedOrder): OrderEvent[] {
  requireBuyer(command.metadata.actor, order);
  requireNotCancelled(order);
  if (order.shipment !== null) throw rejected('ORDER_ALREADY_SHIPPED', 'This order has shipped: its address can no longer change');
  const { address } = command.data;
  if (order.address !== null && sameAddress(order.address, address)) return [];
  return [{ type: 'ShippingAddressSet', data: { orderId: order.facts.orderId, address }, metadata: eventMetadataFor(command) }];
}

function changeShipping(command: OrderCommandOf<'ChangeShippingCharge'>, order: PlacedOrder): OrderEvent[] {
  requireSettler(command.metadata.actor, order, 'ADMIN');
  requireUnpaid(order);
  const { shipping } = command.data;
  if (shipping === order.shipping) return [];
  const changed = { ...order, shipping };
  if (orderTotal(changed) < order.amountPaid) {
    throw rejected('SHIPPING_BELOW_PAID', `The total would fall below the ${formatUsd(order.amountPaid)} already paid`);
  }
  const metadata = eventMetadataFor(command);
  const events: OrderEvent[] = [{ type: 'ShippingChargeChanged', data: { orderId: order.facts.orderId, previousShipping: order.shipping, shipping }, metadata }];
  if (orderTotal(changed) === order.amountPaid) events.push({ type: 'OrderPaid', data: { orderId: order.facts.orderId, paidAt: command.metadata.now }, metadata });
  return events;
}

function recordPayment(command: OrderCommandOf<'RecordPayment'>, order: PlacedOrder): OrderEvent[] {
  requireSettler(command.metadata.actor, order, 'ADMIN', 'SYSTEM');
  requireUnpaid(order);
  const { paymentId, method, amount, receivedAt } = command.data;
  const reference = command.data.reference.trim();
  const now = command.metadata.now;
  if (toMillis(receivedAt) > toMillis(now)) throw invalid('PAYMENT_IN_FUTURE', 'A payment cannot be received in the future');
  // A day's grace: a date without a time, entered in the admin's own time zone, may read as the day before.
  if (toMillis(receivedAt) < toMillis(order.facts.placedAt) - 86_400_000) {
    throw invalid('PAYMENT_BEFORE_ORDER', 'A payment cannot have been received before the order was placed');
  }
  if (order.paymentReferences.includes(normalizedReference(reference))) {
    throw rejected('PAYMENT_ALREADY_RECORDED', `A payment with the reference ${reference} is already recorded on this order`);
  }
  const balance = orderBalance(order);
  if (amount > balance) {
    throw rejected('PAYMENT_EXCEEDS_BALANCE', `The payment is more than the ${formatUsd(balance)} still owed`, { balance });
  }
  const metadata = eventMetadataFor(command);
  const amountPaid = order.amountPaid + amount;
  const events: OrderEvent[] = [
    { type: 'PaymentRecorded', data: { orderId: order.facts.orderId, paymentId, method, amount, reference, receivedAt, amountPaid }, metadata },
  ];
  if (amount === balance) events.push({ type: 'OrderPaid', data: { orderId: order.facts.orderId, paidAt: now }, metadata });
  return events;
}

function markOverdue(command: OrderCommandOf<'MarkPaymentOverdue'>, order: PlacedOrder): OrderEvent[] {
  requireRole(command.metadata.actor, 'SYSTEM');
  if (order.status === 'PAYMENT_OVERDUE') return [];
  if (order.status !== 'AWAITING_PAYMENT') throw rejected('ORDER_NOT_AWAITING_PAYMENT', `This order is not awaiting payment: it is ${order.status}`);
  const { paymentDueAt } = order.facts;
  if (toMillis(command.metadata.now) < toMillis(paymentDueAt)) throw rejected('PAYMENT_NOT_DUE', 'The payment window has not ended yet', { paymentDueAt });
  return [{ type: 'OrderPaymentOverdue', data: { orderId: order.facts.orderId, paymentDueAt, amountPaid: order.amountPaid }, metadata: eventMetadataFor(command) }];
}

function ship(command: OrderCommandOf<'ShipOrder'>, order: PlacedOrder): OrderEvent[] {
  requireSettler(command.metadata.actor, order, 'ADMIN');
  requireNotCancelled(order);
  if (isUnpaid(order.status)) throw rejected('ORDER_NOT_PAID', 'This order is not paid in full: it cannot ship yet');
  if (order.status !== 'PAID') throw rejected('ORDER_ALREADY_SHIPPED', 'This order has already shipped');
  if (order.address === null) throw rejected('SHIPPING_ADDRESS_REQUIRED', 'The buyer has not given a shipping address yet');
  const { carrier, trackingNumber, shipTo } = command.data;
  // The parcel goes where the admin read it should: a change that came in meanwhile is not shipped past.
  if (shipTo === null || !sameAddress(order.address, shipTo)) throw rejected('ADDRESS_CHANGED', 'The buyer has changed the shipping address: check the new one and ship again');
  return [{ type: 'OrderShipped', data: { orderId: order.facts.orderId, carrier, trackingNumber, shipTo: order.address, shippedAt: command.metadata.now }, metadata: eventMetadataFor(command) }];
}

/**
 * Delivered: the buyer says so, an admin does (the carrier's record), or 14 days after shipping.
 * Completion follows at once: the sale is settled. The two stay separate events so that a return
 * window, when there is one, sits between them without changing the log's meaning.
 */
function confirmDelivery(command: OrderCommandOf<'ConfirmDelivery'>, order: PlacedOrder): OrderEvent[] {
  const { actor, now } = command.metadata;
  const confirmedBy = hasRole(actor, 'SYSTEM') ? 'AUTOMATIC' : actor.userId === order.facts.buyerId ? 'BUYER' : hasRole(actor, 'ADMIN') ? 'ADMIN' : null;
  if (confirmedBy === null) throw forbidden('FORBIDDEN', 'Access denied');
  if (order.status === 'DELIVERED' || order.status === 'COMPLETED') return [];
  requireNotCancelled(order);
  if (order.status !== 'SHIPPED' || order.shipment === null) throw rejected('ORDER_NOT_SHIPPED', 'This order has not shipped yet');
  if (confirmedBy === 'AUTOMATIC' && toMillis(now) < toMillis(order.shipment.shippedAt) + AUTOMATIC_DELIVERY_MS) {
    throw rejected('DELIVERY_NOT_DUE', 'A shipment counts as delivered only 14 days after it shipped');
  }
  const metadata = eventMetadataFor(command);
  const { orderId } = order.facts;
  return [
    { type: 'OrderDelivered', data: { orderId, deliveredAt: now, confirmedBy }, metadata },
    { type: 'OrderCompleted', data: { orderId, completedAt: now }, metadata },
  ];
}

function cancel(command: OrderCommandOf<'CancelOrder'>, order: PlacedOrder): OrderEvent[] {
  requireSettler(command.metadata.actor, order, 'ADMIN');
  const reason = requireReason(command.data.reason);
  if (order.status === 'CANCELLED' || order.status === 'SECOND_CHANCE_OFFERED') throw rejected('ORDER_ALREADY_CANCELLED', 'This order has already been cancelled');
  requireUnpaid(order);
  if (order.amountPaid > 0) {
    throw rejected('ORDER_HAS_PAYMENTS', `${formatUsd(order.amountPaid)} has been paid on this order: it cannot be cancelled`);
  }
  return [{ type: 'OrderCancelled', data: { orderId: order.facts.orderId, reason, cancelledAt: command.metadata.now }, metadata: eventMetadataFor(command) }];
}

function offerSecondChance(command: OrderCommandOf<'OfferSecondChance'>, order: PlacedOrder): OrderEvent[] {
  requireSettler(command.metadata.actor, order, 'ADMIN');
  if (order.status === 'SECOND_CHANCE_OFFERED') throw rejected('SECOND_CHANCE_PENDING', 'An offer to the runner-up is still open');
  requireCancelledAndAvailable(order);
  const { candidate, offerId } = command.data;
  if (order.offers.some((offer) => offer.offerId === offerId)) throw rejected('OFFER_ALREADY_MADE', 'An offer with this id has already been made');
  if (candidate === null) throw rejected('NO_RUNNER_UP', 'No other bidder is left to make an offer to');
  if (candidate.bidderId === command.metadata.actor.userId) throw forbidden('OWN_OFFER', 'You cannot offer an item to yourself: another admin must');
  if (candidate.bidderId === order.facts.buyerId || order.offers.some((offer) => offer.bidderId === candidate.bidderId)) {
    throw rejected('RUNNER_UP_ALREADY_ASKED', 'This bidder has already had this item offered to them');
  }
  const now = command.metadata.now;
  return [
    {
      type: 'SecondChanceOffered',
      data: {
        orderId: order.facts.orderId,
        offerId,
        bidderId: candidate.bidderId,
        amount: candidate.amount,
        offeredAt: now,
        expiresAt: fromMillis(toMillis(now) + SECOND_CHANCE_OFFER_MS),
      },
      metadata: eventMetadataFor(command),
    },
  ];
}

function acceptance(command: OrderCommandOf<'AcceptSecondChance'>, order: PlacedOrder): OrderEvent {
  const offer = requireOpenOffer(command, order);
  if (toMillis(command.metadata.now) >= toMillis(offer.expiresAt)) throw rejected('OFFER_EXPIRED', 'This offer has expired');
  const { offerId, newOrderId } = command.data;
  return { type: 'SecondChanceAccepted', data: { orderId: order.facts.orderId, offerId, bidderId: offer.bidderId, newOrderId }, metadata: eventMetadataFor(command) };
}

function closeSecondChance(command: OrderCommandOf<'DeclineSecondChance' | 'ExpireSecondChance'>, order: PlacedOrder): OrderEvent[] {
  const { offerId } = command.data;
  const metadata = eventMetadataFor(command);
  if (command.type === 'ExpireSecondChance') {
    requireRole(command.metadata.actor, 'SYSTEM');
    const offer = order.offers.find((candidate) => candidate.offerId === offerId);
    if (offer?.outcome !== 'OPEN') return []; // answered (or expired) already
    if (toMillis(command.metadata.now) < toMillis(offer.expiresAt)) throw rejected('OFFER_NOT_EXPIRED', 'This offer has not expired yet');
    return [{ type: 'SecondChanceExpired', data: { orderId: order.facts.orderId, offerId, bidderId: offer.bidderId }, metadata }];
  }
  const offer = requireOpenOffer(command, order);
  return [{ type: 'SecondChanceDeclined', data: { orderId: order.facts.orderId, offerId, bidderId: offer.bidderId }, metadata }];
}

function releaseListing(command: OrderCommandOf<'ReleaseListing'>, order: PlacedOrder): OrderEvent[] {
  requireSettler(command.metadata.actor, order, 'ADMIN');
  if (order.status === 'SECOND_CHANCE_OFFERED') throw rejected('SECOND_CHANCE_PENDING', 'An offer to the runner-up is still open');
  requireCancelledAndAvailable(order);
  return [{ type: 'OrderListingReleased', data: { orderId: order.facts.orderId, listingId: order.facts.listingId }, metadata: eventMetadataFor(command) }];
}

// ---- helpers --------------------------------------------------------------------------------

function requirePlaced(state: OrderState): PlacedOrder {
  if (state.status === 'NONE') throw notFound('ORDER_NOT_FOUND', 'Order not found');
  return state;
}

/** An admin (or the system) settling an order: never their own, which another admin must settle. */
function requireSettler(actor: Actor, order: PlacedOrder, ...roles: Role[]): void {
  requireRole(actor, ...roles);
  if (actor.userId === order.facts.buyerId) throw forbidden('OWN_ORDER', 'You cannot settle an order of your own: another admin must');
}

function requireBuyer(actor: Actor, order: PlacedOrder): void {
  if (actor.userId !== order.facts.buyerId) throw forbidden('FORBIDDEN', 'Access denied');
}

function requireNotCancelled(order: PlacedOrder): void {
  if (order.status === 'CANCELLED' || order.status === 'SECOND_CHANCE_OFFERED') throw rejected('ORDER_CANCELLED', 'This order was cancelled');
}

function requireUnpaid(order: PlacedOrder): void {
  requireNotCancelled(order);
  if (!isUnpaid(order.status)) throw rejected('ORDER_ALREADY_PAID', 'This order is already paid in full');
}

/** A cancelled order whose item is still the auction's to offer: nobody accepted an offer, and it was not relisted. */
function requireCancelledAndAvailable(order: PlacedOrder): void {
  if (order.status !== 'CANCELLED') throw rejected('ORDER_NOT_CANCELLED', 'Cancel the order first');
  if (order.successorOrderId !== null) throw rejected('SECOND_CHANCE_ACCEPTED', 'The runner-up accepted an offer: the item is sold to them');
  if (order.listingReleased) throw rejected('LISTING_RELEASED', 'The item has been relisted');
}

function requireOpenOffer(command: OrderCommandOf<'AcceptSecondChance' | 'DeclineSecondChance'>, order: PlacedOrder): SecondChanceOffer {
  const offer = order.offers.find((candidate) => candidate.offerId === command.data.offerId);
  if (!offer) throw notFound('OFFER_NOT_FOUND', 'Offer not found');
  if (command.metadata.actor.userId !== offer.bidderId) throw forbidden('FORBIDDEN', 'Access denied');
  if (offer.outcome === 'EXPIRED') throw rejected('OFFER_EXPIRED', 'This offer has expired');
  if (offer.outcome !== 'OPEN') throw rejected('OFFER_ANSWERED', `This offer has already been ${offer.outcome.toLowerCase()}`);
  return offer;
}

function sameAddress(a: ShippingAddress, b: ShippingAddress): boolean {
  return (Object.keys(a) as (keyof ShippingAddress)[]).every((key) => a[key] === b[key]);
}

/** References compare on their letters and digits alone: "WIRE-123", "wire 123" and "Wire123" are one transfer. */
function normalizedReference(reference: string): string {
  return reference.replace(/[^\p{L}\p{N}]/gu, '').toUpperCase();
}


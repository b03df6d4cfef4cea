import { randomBytes } from 'node:crypto';
import { auctionDecider, auctionStreamId } from '../domain/auction/auction';
import { afterSaleTermsOf } from '../domain/auction/rules';
import { evolveListing, initialListingState, listingStreamId, type ListingDetails, type ListingEvent } from '../domain/listing/listing';
import type { OrderCommand, OrderCommandOf, OrderEvent, OrderOrigin } from '../domain/order/messages';
import { decideSecondChanceAcceptance, initialOrderState, orderDecider, orderStreamId, type OrderState } from '../domain/order/order';
import { decideListingRelease } from '../domain/order/relist';
import { secondChanceCandidate } from '../domain/order/second-chance';
import { notFound, rejected } from '../domain/shared/errors';
import type { CommandMetadata } from '../domain/shared/messages';
import type { Cents } from '../domain/shared/money';
import { appendDecision, loadStream, type CommandHandler, type HandledCommand } from './command-handler';
import { nameBasedId, uuidNamespace } from './name-based-ids';

/** Namespace for order ids derived from what the order is for (a random, fixed UUID). */
const ORDER_ID_NAMESPACE = uuidNamespace('b7d5e1f2-3c4a-4e8b-9f6d-2a1c0e9b8d7f');

/** The flat shipping charge of each category, from configuration. */
export type ShippingRates = Readonly<Record<ListingDetails['category'], Cents>>;

const listingFold = { initialState: initialListingState, evolve: evolveListing };

/** The order an auction's sale makes: one id per auction, so however often it is placed, it is one order. */
export function orderIdForSale(auctionId: string): string {
  return nameBasedId(`sale:${auctionId}`, ORDER_ID_NAMESPACE);
}

/** The order a runner-up's accepted offer makes: one per offer. */
export function orderIdForOffer(offerId: string): string {
  return nameBasedId(`second-chance:${offerId}`, ORDER_ID_NAMESPACE);
}

/** Crockford's base 32: no I, L, O or U to misread. */
const ORDER_NUMBER_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * A new order number, "PRV-" and 8 random characters (40 bits): what a buyer quotes with a transfer.
 * Random, not derived from the order's id (which anyone can compute from the public auction id), so
 * nobody can work out a winner's payment reference and send them a convincing false invoice.
 */
export function newOrderNumber(): string {
  const bytes = randomBytes(8);
  return `PRV-${[...bytes].map((byte) => ORDER_NUMBER_ALPHABET[byte % 32]).join('')}`;
}

/** Handles a command on one order's stream (those that span streams have handlers below). */
export function handleOrderCommand(handler: CommandHandler, command: OrderCommand): Promise<HandledCommand<OrderEvent, OrderState>> {
  return handler.handle(orderDecider, orderStreamId(command.data.orderId), command);
}

/**
 * The process manager's step after the hammer: a sold auction's order, placed from the log (the
 * auction's closing, its rules' premium and window, the listing's category for shipping). Issued
 * any number of times by any number of processes, it places one order: the id comes from the
 * auction, the command id too, and the decider refuses a second OrderPlaced.
 */
export async function placeOrderForSale(handler: CommandHandler, auctionId: string, rates: ShippingRates, metadata: CommandMetadata): Promise<HandledCommand<OrderEvent, OrderState>> {
  const auction = await loadStream(handler.store, auctionDecider, auctionStreamId(auctionId));
  const state = auction.state;
  if (state.status !== 'ENDED' || state.closing.result !== 'SOLD' || state.closing.winnerId === null || state.closing.finalPrice === null) {
    throw rejected('AUCTION_NOT_SOLD', 'This auction did not end in a sale');
  }
  const listing = await loadStream(handler.store, listingFold, listingStreamId(state.facts.listingId));
  if (listing.state.status === 'NONE') throw notFound('LISTING_NOT_FOUND', 'Listing not found');
  const terms = afterSaleTermsOf(state.facts.rules);
  const command: OrderCommandOf<'PlaceOrder'> = {
    type: 'PlaceOrder',
    data: {
      orderId: orderIdForSale(auctionId),
      orderNumber: newOrderNumber(),
      auctionId,
      listingId: state.facts.listingId,
      buyerId: state.closing.winnerId,
      hammerPrice: state.closing.finalPrice,
      buyersPremiumBasisPoints: terms.buyersPremiumBasisPoints,
      shipping: rates[listing.state.details.category],
      paymentWindowSeconds: terms.paymentWindowSeconds,
      origin: { kind: 'SALE' },
    },
    metadata,
  };
  return handleOrderCommand(handler, command);
}

/**
 * Offers a cancelled sale to the runner-up: the auction's log names them (the best bid of those not
 * yet asked: every earlier buyer and offer along the chain of orders for this lot), the order
 * decides.
 */
export async function offerSecondChance(handler: CommandHandler, orderId: string, offerId: string, metadata: CommandMetadata): Promise<HandledCommand<OrderEvent, OrderState>> {
  const order = await loadStream(handler.store, orderDecider, orderStreamId(orderId));
  if (order.state.status === 'NONE') throw notFound('ORDER_NOT_FOUND', 'Order not found');
  const asked = new Set<string>();
  for (let state: OrderState = order.state; state.status !== 'NONE'; ) {
    asked.add(state.facts.buyerId);
    for (const offer of state.offers) asked.add(offer.bidderId);
    const origin: OrderOrigin = state.facts.origin;
    state = origin.kind === 'SECOND_CHANCE' ? (await loadStream(handler.store, orderDecider, orderStreamId(origin.previousOrderId))).state : initialOrderState;
  }
  const auction = await loadStream(handler.store, auctionDecider, auctionStreamId(order.state.facts.auctionId));
  const candidate = secondChanceCandidate(auction.state, asked);
  return handleOrderCommand(handler, { type: 'OfferSecondChance', data: { orderId, offerId, candidate }, metadata });
}

/** A runner-up accepts: the cancelled order records it and their own order is placed, atomically. */
export async function acceptSecondChance(
  handler: CommandHandler,
  command: Omit<OrderCommandOf<'AcceptSecondChance'>, 'data'> & { data: Omit<OrderCommandOf<'AcceptSecondChance'>['data'], 'newOrderId' | 'newOrderNumber'> },
  rates: ShippingRates,
): Promise<{ orderEvents: readonly OrderEvent[]; newOrderId: string }> {
  const { store } = handler;
  const full: OrderCommandOf<'AcceptSecondChance'> = {
    ...command,
    data: { ...command.data, newOrderId: orderIdForOffer(command.data.offerId), newOrderNumber: newOrderNumber() },
  };
  const originalStream = orderStreamId(full.data.orderId);
  const successorStream = orderStreamId(full.data.newOrderId);
  return handler.exclusive([originalStream, successorStream], async () => {
    const original = await loadStream(store, orderDecider, originalStream);
    const successor = await loadStream(store, orderDecider, successorStream);
    const listingId = original.state.status === 'NONE' ? null : original.state.facts.listingId;
    const listing = listingId === null ? null : await loadStream(store, listingFold, listingStreamId(listingId));
    const shipping = listing && listing.state.status !== 'NONE' ? rates[listing.state.details.category] : 0;
    const decision = decideSecondChanceAcceptance(full, original.state, successor.state, shipping);
    await appendDecision(store, full, [
      { stream: original, events: decision.originalEvents },
      { stream: successor, events: decision.successorEvents },
    ]);
    return { orderEvents: [...decision.originalEvents, ...decision.successorEvents], newOrderId: full.data.newOrderId };
  });
}

/** Relists a cancelled sale's item: the order records it, the listing goes back to NFC_BOUND, atomically. */
export async function releaseListing(handler: CommandHandler, command: OrderCommandOf<'ReleaseListing'>): Promise<{ orderEvents: readonly OrderEvent[]; listingEvents: readonly ListingEvent[]; listingId: string }> {
  const { store } = handler;
  const orderStream = orderStreamId(command.data.orderId);
  const order = await loadStream(store, orderDecider, orderStream);
  if (order.state.status === 'NONE') throw notFound('ORDER_NOT_FOUND', 'Order not found');
  const listingStream = listingStreamId(order.state.facts.listingId);
  const { listingId } = order.state.facts;
  return handler.exclusive([orderStream, listingStream], async () => {
    const current = await loadStream(store, orderDecider, orderStream);
    const listing = await loadStream(store, listingFold, listingStream);
    const decision = decideListingRelease(command, current.state, listing.state);
    await appendDecision(store, command, [
      { stream: current, events: decision.orderEvents },
      { stream: listing, events: decision.listingEvents },
    ]);
    return { ...decision, listingId };
  });
}

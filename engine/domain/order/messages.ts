import { z } from 'zod';
import { centsSchema, positiveCentsSchema } from '../shared/money';
import { commandMetadataSchema, eventMetadataSchema, messageSchema } from '../shared/messages';
import { instantSchema } from '../shared/time';
import { MAX_BUYERS_PREMIUM_BASIS_POINTS } from '../auction/rules';
import { shippingAddressSchema } from './address';

const id = z.string().min(1).max(200);
const reason = z.string().max(2000);

/** How an order came to be: the auction's sale, or a runner-up accepting a second-chance offer after the first order was cancelled. */
export const orderOriginSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('SALE') }),
  z.strictObject({ kind: z.literal('SECOND_CHANCE'), previousOrderId: id, offerId: id }),
]);
export type OrderOrigin = z.infer<typeof orderOriginSchema>;

/** What buyers quote with a transfer and see on the invoice: random, so nobody can work out a winner's from public facts. */
export const orderNumberSchema = z.string().regex(/^PRV-[0-9A-HJKMNP-TV-Z]{8}$/, 'An order number is PRV- and 8 letters or digits');

/** What the buyer owes, fixed when the order is placed: the premium rate comes from the auction's rules. */
const orderTermsSchema = z.strictObject({
  orderId: id,
  orderNumber: orderNumberSchema,
  auctionId: id,
  listingId: id,
  buyerId: id,
  hammerPrice: positiveCentsSchema,
  buyersPremiumBasisPoints: z.number().int().min(0).max(MAX_BUYERS_PREMIUM_BASIS_POINTS),
  shipping: centsSchema,
  /** The payment window, from the auction's rules: the order is due this long after it is placed. */
  paymentWindowSeconds: z.number().int().positive(),
  origin: orderOriginSchema,
});

/** The only way to pay today: a bank transfer or wire an admin records. A card provider would add its own. */
export const paymentMethodSchema = z.enum(['BANK_TRANSFER']);
export type PaymentMethod = z.infer<typeof paymentMethodSchema>;

const carrier = z.string().trim().min(1).max(100);
const trackingNumber = z.string().trim().min(1).max(100);
const paymentReference = z.string().trim().min(1).max(200);

// ---- Commands -------------------------------------------------------------------------------

export const orderCommandSchema = z.discriminatedUnion('type', [
  messageSchema('PlaceOrder', orderTermsSchema, commandMetadataSchema),
  messageSchema('SetShippingAddress', z.strictObject({ orderId: id, address: shippingAddressSchema }), commandMetadataSchema),
  messageSchema('ChangeShippingCharge', z.strictObject({ orderId: id, shipping: centsSchema }), commandMetadataSchema),
  messageSchema(
    'RecordPayment',
    z.strictObject({ orderId: id, paymentId: id, method: paymentMethodSchema, amount: positiveCentsSchema, reference: paymentReference, receivedAt: instantSchema }),
    commandMetadataSchema,
  ),
  messageSchema('MarkPaymentOverdue', z.strictObject({ orderId: id }), commandMetadataSchema),
  messageSchema(
    'ShipOrder',
    /** `shipTo`: the address the admin read and labelled the parcel with; the order's own must still be it. */
    z.strictObject({ orderId: id, carrier, trackingNumber, shipTo: shippingAddressSchema.nullable() }),
    commandMetadataSchema,
  ),
  messageSchema('ConfirmDelivery', z.strictObject({ orderId: id }), commandMetadataSchema),
  messageSchema('CancelOrder', z.strictObject({ orderId: id, reason }), commandMetadataSchema),
  messageSchema(
    'OfferSecondChance',
    z.strictObject({
      orderId: id,
      offerId: id,
      /** The runner-up, as the auction's log names them (secondChanceCandidate); null when nobody is left to offer to. */
      candidate: z.strictObject({ bidderId: id, amount: positiveCentsSchema }).nullable(),
    }),
    commandMetadataSchema,
  ),
  messageSchema(
    'AcceptSecondChance',
    /** `newOrderId`: the runner-up's order, named by the caller from the offer so a retry names the same one; `newOrderNumber` its number. */
    z.strictObject({ orderId: id, offerId: id, newOrderId: id, newOrderNumber: orderNumberSchema }),
    commandMetadataSchema,
  ),
  messageSchema('DeclineSecondChance', z.strictObject({ orderId: id, offerId: id }), commandMetadataSchema),
  messageSchema('ExpireSecondChance', z.strictObject({ orderId: id, offerId: id }), commandMetadataSchema),
  messageSchema('ReleaseListing', z.strictObject({ orderId: id }), commandMetadataSchema),
]);
export type OrderCommand = z.infer<typeof orderCommandSchema>;
export type OrderCommandOf<T extends OrderCommand['type']> = Extract<OrderCommand, { type: T }>;

// ---- Events ---------------------------------------------------------------------------------

export const deliveryConfirmationSchema = z.enum(['BUYER', 'ADMIN', 'AUTOMATIC']);

export const orderEventSchema = z.discriminatedUnion('type', [
  messageSchema(
    'OrderPlaced',
    orderTermsSchema.extend({ buyersPremium: centsSchema, placedAt: instantSchema, paymentDueAt: instantSchema }),
    eventMetadataSchema,
  ),
  messageSchema('ShippingAddressSet', z.strictObject({ orderId: id, address: shippingAddressSchema }), eventMetadataSchema),
  messageSchema('ShippingChargeChanged', z.strictObject({ orderId: id, previousShipping: centsSchema, shipping: centsSchema }), eventMetadataSchema),
  messageSchema(
    'PaymentRecorded',
    z.strictObject({
      orderId: id,
      paymentId: id,
      method: paymentMethodSchema,
      amount: positiveCentsSchema,
      reference: z.string(),
      receivedAt: instantSchema,
      /** Everything paid so far, this payment included. */
      amountPaid: centsSchema,
    }),
    eventMetadataSchema,
  ),
  messageSchema('OrderPaid', z.strictObject({ orderId: id, paidAt: instantSchema }), eventMetadataSchema),
  messageSchema('OrderPaymentOverdue', z.strictObject({ orderId: id, paymentDueAt: instantSchema, amountPaid: centsSchema }), eventMetadataSchema),
  messageSchema(
    'OrderShipped',
    z.strictObject({ orderId: id, carrier: z.string(), trackingNumber: z.string(), shipTo: shippingAddressSchema, shippedAt: instantSchema }),
    eventMetadataSchema,
  ),
  messageSchema('OrderDelivered', z.strictObject({ orderId: id, deliveredAt: instantSchema, confirmedBy: deliveryConfirmationSchema }), eventMetadataSchema),
  messageSchema('OrderCompleted', z.strictObject({ orderId: id, completedAt: instantSchema }), eventMetadataSchema),
  messageSchema('OrderCancelled', z.strictObject({ orderId: id, reason, cancelledAt: instantSchema }), eventMetadataSchema),
  messageSchema(
    'SecondChanceOffered',
    z.strictObject({ orderId: id, offerId: id, bidderId: id, amount: positiveCentsSchema, offeredAt: instantSchema, expiresAt: instantSchema }),
    eventMetadataSchema,
  ),
  messageSchema('SecondChanceAccepted', z.strictObject({ orderId: id, offerId: id, bidderId: id, newOrderId: id }), eventMetadataSchema),
  messageSchema('SecondChanceDeclined', z.strictObject({ orderId: id, offerId: id, bidderId: id }), eventMetadataSchema),
  messageSchema('SecondChanceExpired', z.strictObject({ orderId: id, offerId: id, bidderId: id }), eventMetadataSchema),
  messageSchema('OrderListingReleased', z.strictObject({ orderId: id, listingId: id }), eventMetadataSchema),
]);
export type OrderEvent = z.infer<typeof orderEventSchema>;
export type OrderEventOf<T extends OrderEvent['type']> = Extract<OrderEvent, { type: T }>;

const orderEventTypes: ReadonlySet<string> = new Set(orderEventSchema.options.map((option) => option.shape.type.value));

/** Whether a message read from the log is an event of an order's stream. */
export function isOrderEvent<E extends { readonly type: string }>(event: E): event is Extract<E, { readonly type: OrderEvent['type'] }> {
  return orderEventTypes.has(event.type);
}

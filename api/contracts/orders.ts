import { z } from 'zod';
import { shippingAddressSchema } from '../../engine/domain';
import { dollarsSchema } from './auctions';
import { pageSchema } from './common';

/**
 * After the hammer: the order a sale makes, its invoice, payment, shipping and delivery, and the
 * second-chance offer a runner-up may get when the winner does not pay. Amounts are dollars (numbers,
 * like bids); the engine keeps integer cents.
 */

export const orderStatusSchema = z.enum(['AWAITING_PAYMENT', 'PAYMENT_OVERDUE', 'PAID', 'SHIPPED', 'DELIVERED', 'COMPLETED', 'CANCELLED', 'SECOND_CHANCE_OFFERED']);
export type OrderStatusName = z.infer<typeof orderStatusSchema>;

/** The address form's body, and an order's address: the engine's rule (ISO country, postal code, region). */
export const shippingAddressRequestSchema = shippingAddressSchema;
export type ShippingAddressRequest = z.input<typeof shippingAddressRequestSchema>;

export const orderAddressSchema = z.object({
  name: z.string(),
  line1: z.string(),
  line2: z.string().nullable(),
  city: z.string(),
  region: z.string().nullable(),
  postalCode: z.string(),
  country: z.string(),
});
export type OrderAddress = z.infer<typeof orderAddressSchema>;

export const paymentSchema = z.object({
  method: z.enum(['BANK_TRANSFER']),
  amount: dollarsSchema,
  reference: z.string(),
  receivedAt: z.string(),
});
export type Payment = z.infer<typeof paymentSchema>;

/** How to pay an order that is not paid in full: what the payment method asks of the buyer. */
export const paymentInstructionsSchema = z.object({
  method: z.enum(['BANK_TRANSFER']),
  title: z.string(),
  /** The reference the buyer quotes, so the payment finds its order. */
  reference: z.string(),
  amountDue: dollarsSchema,
  details: z.array(z.object({ label: z.string(), value: z.string() })),
  steps: z.array(z.string()),
});
export type PaymentInstructions = z.infer<typeof paymentInstructionsSchema>;

export const secondChanceOfferSchema = z.object({
  offerId: z.string(),
  bidderId: z.string(),
  amount: dollarsSchema,
  expiresAt: z.string(),
});
export type SecondChanceOfferAnswer = z.infer<typeof secondChanceOfferSchema>;

export const orderSchema = z.object({
  id: z.string(),
  /** Random and short, for a bank transfer's reference and the invoice: "PRV-7K3QX9MA". */
  orderNumber: z.string(),
  listingId: z.string(),
  auctionId: z.string(),
  status: orderStatusSchema,
  listing: z.object({ title: z.string(), slug: z.string(), imageUrl: z.string().nullable(), nfcUid: z.string().nullable() }),
  /** Who the invoice is made out to: the buyer's name and email (null for an account since removed). */
  billedTo: z.object({ name: z.string(), email: z.string() }).nullable(),
  hammerPrice: dollarsSchema,
  buyersPremiumPercent: z.number(),
  buyersPremium: dollarsSchema,
  shipping: dollarsSchema,
  total: dollarsSchema,
  amountPaid: dollarsSchema,
  balance: dollarsSchema,
  placedAt: z.string(),
  paymentDueAt: z.string(),
  paidAt: z.string().nullable(),
  shippingAddress: orderAddressSchema.nullable(),
  carrier: z.string().nullable(),
  trackingNumber: z.string().nullable(),
  shippedAt: z.string().nullable(),
  deliveredAt: z.string().nullable(),
  completedAt: z.string().nullable(),
  cancelledAt: z.string().nullable(),
  cancellationReason: z.string().nullable(),
  /** Set when this order is the runner-up's, from a second-chance offer. */
  secondChance: z.boolean(),
  payments: z.array(paymentSchema),
  /** Null once nothing is owed (or the order was cancelled). */
  howToPay: paymentInstructionsSchema.nullable(),
  /** What the order's people may do next; the engine still decides. */
  actions: z.object({
    setShippingAddress: z.boolean(),
    confirmReceipt: z.boolean(),
  }),
});
export type Order = z.infer<typeof orderSchema>;

export const ordersSchema = z.object({ content: z.array(orderSchema) });
export type Orders = z.infer<typeof ordersSchema>;

const personSchema = z.object({ id: z.string(), email: z.string().nullable(), name: z.string().nullable() });

/** An order as the admin's Orders view shows it: the buyer named, the runner-up offers made, and what the admin may do next. */
export const adminOrderSchema = orderSchema.extend({
  buyer: personSchema,
  offers: z.array(secondChanceOfferSchema.extend({ bidder: personSchema, outcome: z.enum(['OPEN', 'ACCEPTED', 'DECLINED', 'EXPIRED']), newOrderId: z.string().nullable() })),
  listingReleased: z.boolean(),
  successorOrderId: z.string().nullable(),
  /** The steps the order decider would take now (engine/domain/order/order.ts adminActionsAt). */
  adminActions: z.object({
    recordPayment: z.boolean(),
    changeShipping: z.boolean(),
    ship: z.boolean(),
    markDelivered: z.boolean(),
    cancel: z.boolean(),
    offerToRunnerUp: z.boolean(),
    relist: z.boolean(),
  }),
});
export type AdminOrder = z.infer<typeof adminOrderSchema>;

/** A page of the admin's orders, with how many orders each status holds (all of them, whatever the filter). */
export const adminOrdersPageSchema = pageSchema(adminOrderSchema).extend({
  counts: z.record(orderStatusSchema, z.number().int()).describe('Orders per status, all of them'),
});
export type AdminOrdersPage = z.infer<typeof adminOrdersPageSchema>;

export const adminOrdersQuerySchema = z.strictObject({
  status: orderStatusSchema.optional().describe('Only orders in this status. Default: all, overdue first, then by payment due date'),
  search: z.string().trim().max(200).optional().describe("An order number (PRV-1A2B3C4D, or its start), or words of the item's title or the buyer's name or email"),
  page: z.coerce.number().int().min(0).max(10_000).default(0),
  size: z.coerce.number().int().min(1).max(100).default(25),
});
export type AdminOrdersQuery = z.input<typeof adminOrdersQuerySchema>;

/** What offering an order to the runner-up answers the admin: the offer, and who it went to. */
export const adminSecondChanceOfferSchema = secondChanceOfferSchema.extend({ bidder: personSchema });
export type AdminSecondChanceOffer = z.infer<typeof adminSecondChanceOfferSchema>;

const paymentDollars = z.number().positive().max(100_000_000);

export const recordPaymentRequestSchema = z.strictObject({
  amount: paymentDollars.describe('Dollars received, in whole cents; a part keeps the order awaiting the rest'),
  reference: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .describe("The bank's own reference of this transfer (its transaction id, not the order number the buyer quotes): each is recorded once"),
  receivedAt: z
    .union([z.iso.datetime({ offset: true }), z.iso.date()])
    .optional()
    .describe('When the money arrived: an instant, or a date (read as that day, up to now). Default: now'),
});
export type RecordPaymentRequest = z.infer<typeof recordPaymentRequestSchema>;

export const shipmentRequestSchema = z.strictObject({
  carrier: z.string().trim().min(1).max(100),
  trackingNumber: z.string().trim().min(1).max(100),
  shipTo: orderAddressSchema
    .optional()
    .describe("The address on the parcel, as the admin read it: refused (409) when the buyer has changed it since. Default: the order's address as this server reads it"),
});
export type ShipmentRequest = z.infer<typeof shipmentRequestSchema>;

export const shippingChargeRequestSchema = z.strictObject({
  shipping: z.number().min(0).max(100_000).describe('Dollars: the new flat shipping charge'),
});
export type ShippingChargeRequest = z.infer<typeof shippingChargeRequestSchema>;

export const cancelOrderRequestSchema = z.strictObject({ reason: z.string().max(500) });
export type CancelOrderRequest = z.infer<typeof cancelOrderRequestSchema>;

/** What the runner-up sees of an offer made to them. */
export const secondChanceViewSchema = secondChanceOfferSchema.extend({
  outcome: z.enum(['OPEN', 'ACCEPTED', 'DECLINED', 'EXPIRED']),
  listing: z.object({ title: z.string(), slug: z.string(), imageUrl: z.string().nullable() }),
  buyersPremiumPercent: z.number(),
  /** What accepting would cost in all: the amount, the premium on it and the item's shipping. */
  buyersPremium: dollarsSchema,
  shipping: dollarsSchema,
  total: dollarsSchema,
  /** The order accepting it made, once accepted. */
  orderId: z.string().nullable(),
});
export type SecondChanceView = z.infer<typeof secondChanceViewSchema>;

/** A rate in basis points as the percentage people read: 2000 -> 20. */
export function percentOf(basisPoints: number): number {
  return basisPoints / 100;
}

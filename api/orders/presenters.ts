import { buyerActionsAt, type Cents } from '../../engine/domain';
import type { AdminOrder, Order, SecondChanceView } from '../contracts/orders';
import { percentOf } from '../contracts/orders';
import { centsOf, toDollars } from '../http/money';
import type { MediaStorage } from '../media/storage-port';
import type { PaymentMethodPort } from '../payments/payment-method';
import type { findOffer, OfferRow, OrderRow, PaymentRow } from './queries';

/** Short and unambiguous, for a transfer's reference and the invoice: PRV- and the id's first eight hex digits. */
export function orderNumberOf(orderId: string): string {
  return `PRV-${orderId.replace(/-/g, '').slice(0, 8).toUpperCase()}`;
}

export interface OrderPresentation {
  readonly mediaStorage: MediaStorage;
  readonly paymentMethod: PaymentMethodPort;
}

const iso = (value: Date | string | null): string | null => (value === null ? null : new Date(value).toISOString());

export function totalOf(row: OrderRow): Cents {
  return centsOf(row.hammer_price) + centsOf(row.buyers_premium) + centsOf(row.shipping);
}

/** An order as its buyer (or an admin) reads it. */
export function presentOrder(row: OrderRow, payments: readonly PaymentRow[], presentation: OrderPresentation): Order {
  const total = totalOf(row);
  const paid = centsOf(row.amount_paid);
  const balance = total - paid;
  const orderNumber = orderNumberOf(row.id);
  const unpaid = row.status === 'AWAITING_PAYMENT' || row.status === 'PAYMENT_OVERDUE';
  const instructions = unpaid && balance > 0 ? presentation.paymentMethod.instructions({ orderNumber, balance }) : null;
  return {
    id: row.id,
    orderNumber,
    listingId: row.listing_id,
    auctionId: row.auction_id,
    status: row.status,
    listing: {
      title: row.title,
      slug: row.slug,
      imageUrl: row.mediaIds[0] === undefined ? null : presentation.mediaStorage.publicUrl(row.mediaIds[0]),
      nfcUid: row.nfcUid,
    },
    hammerPrice: toDollars(centsOf(row.hammer_price)),
    buyersPremiumPercent: percentOf(row.buyers_premium_basis_points),
    buyersPremium: toDollars(centsOf(row.buyers_premium)),
    shipping: toDollars(centsOf(row.shipping)),
    total: toDollars(total),
    amountPaid: toDollars(paid),
    balance: toDollars(balance),
    placedAt: iso(row.placed_at)!,
    paymentDueAt: iso(row.payment_due_at)!,
    paidAt: iso(row.paid_at),
    shippingAddress: row.shipping_address,
    carrier: row.carrier,
    trackingNumber: row.tracking_number,
    shippedAt: iso(row.shipped_at),
    deliveredAt: iso(row.delivered_at),
    completedAt: iso(row.completed_at),
    cancelledAt: iso(row.cancelled_at),
    cancellationReason: row.cancellation_reason,
    secondChance: row.previous_order_id !== null,
    payments: payments.map((payment) => ({ method: payment.method, amount: toDollars(centsOf(payment.amount)), reference: payment.reference, receivedAt: iso(payment.received_at)! })),
    howToPay: instructions && { ...instructions, amountDue: toDollars(instructions.amountDue), details: [...instructions.details], steps: [...instructions.steps] },
    actions: buyerActionsAt(row.status),
  };
}

export function presentAdminOrder(
  row: OrderRow,
  payments: readonly PaymentRow[],
  offers: readonly OfferRow[],
  buyer: { email: string; first_name: string; last_name: string } | undefined,
  presentation: OrderPresentation,
): AdminOrder {
  return {
    ...presentOrder(row, payments, presentation),
    buyer: { id: row.buyer_id, email: buyer?.email ?? null, name: buyer ? `${buyer.first_name} ${buyer.last_name}`.trim() : null },
    offers: offers.map((offer) => ({ ...presentOffer(offer), outcome: offer.outcome, newOrderId: offer.new_order_id })),
    listingReleased: row.listing_released,
    successorOrderId: row.successor_order_id,
  };
}

export function presentOffer(offer: OfferRow): { offerId: string; bidderId: string; amount: number; expiresAt: string } {
  return { offerId: offer.offer_id, bidderId: offer.bidder_id, amount: toDollars(centsOf(offer.amount)), expiresAt: iso(offer.expires_at)! };
}

export function presentOfferView(offer: NonNullable<Awaited<ReturnType<typeof findOffer>>>, mediaStorage: MediaStorage): SecondChanceView {
  return {
    ...presentOffer(offer),
    outcome: offer.outcome,
    listing: { title: offer.title, slug: offer.slug, imageUrl: offer.mediaIds[0] === undefined ? null : mediaStorage.publicUrl(offer.mediaIds[0]) },
    buyersPremiumPercent: percentOf(offer.premiumBasisPoints),
    orderId: offer.new_order_id,
  };
}

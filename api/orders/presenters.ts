import type { ShippingRates } from '../../engine/application/order-commands';
import { adminActionsAt, buyerActionsAt, buyersPremiumOn, type Cents } from '../../engine/domain';
import type { AdminOrder, Order, SecondChanceView } from '../contracts/orders';
import { percentOf } from '../contracts/orders';
import { centsOf, toDollars } from '../http/money';
import type { MediaStorage } from '../media/storage-port';
import type { PaymentMethodPort } from '../payments/payment-method';
import type { findOffer, OfferRow, OrderRow, PaymentRow, PersonRow } from './queries';

export interface OrderPresentation {
  readonly mediaStorage: MediaStorage;
  readonly paymentMethod: PaymentMethodPort;
}

const iso = (value: Date | string | null): string | null => (value === null ? null : new Date(value).toISOString());

export function totalOf(row: OrderRow): Cents {
  return centsOf(row.hammer_price) + centsOf(row.buyers_premium) + centsOf(row.shipping);
}

/** An order as its buyer (or an admin) reads it; `buyer`: their account, for the invoice's "billed to". */
export function presentOrder(row: OrderRow, payments: readonly PaymentRow[], buyer: PersonRow | undefined, presentation: OrderPresentation): Order {
  const total = totalOf(row);
  const paid = centsOf(row.amount_paid);
  const cancelled = row.status === 'CANCELLED' || row.status === 'SECOND_CHANCE_OFFERED';
  // A cancelled order is owed nothing (it could only be cancelled with nothing paid on it).
  const balance = cancelled ? 0 : total - paid;
  const orderNumber = row.order_number;
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
    billedTo: buyer ? { name: `${buyer.first_name} ${buyer.last_name}`.trim(), email: buyer.email } : null,
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

/** A person as the admin's screens name them: their account's email and name (null for an account since removed). */
export function presentPerson(id: string, person: PersonRow | undefined): { id: string; email: string | null; name: string | null } {
  return { id, email: person?.email ?? null, name: person ? `${person.first_name} ${person.last_name}`.trim() : null };
}

export function presentAdminOrder(
  row: OrderRow,
  payments: readonly PaymentRow[],
  offers: readonly OfferRow[],
  people: ReadonlyMap<string, PersonRow>,
  presentation: OrderPresentation,
): AdminOrder {
  return {
    ...presentOrder(row, payments, people.get(row.buyer_id), presentation),
    buyer: presentPerson(row.buyer_id, people.get(row.buyer_id)),
    offers: offers.map((offer) => ({ ...presentOffer(offer), bidder: presentPerson(offer.bidder_id, people.get(offer.bidder_id)), outcome: offer.outcome, newOrderId: offer.new_order_id })),
    listingReleased: row.listing_released,
    successorOrderId: row.successor_order_id,
    adminActions: adminActionsAt({
      status: row.status,
      amountPaid: centsOf(row.amount_paid),
      successorOrderId: row.successor_order_id,
      listingReleased: row.listing_released,
      hasShippingAddress: row.shipping_address !== null,
    }),
  };
}

export function presentOffer(offer: OfferRow): { offerId: string; bidderId: string; amount: number; expiresAt: string } {
  return { offerId: offer.offer_id, bidderId: offer.bidder_id, amount: toDollars(centsOf(offer.amount)), expiresAt: iso(offer.expires_at)! };
}

/** An offer as the runner-up reads it, with what accepting would cost: the amount, the auction's premium on it, the item's shipping. */
export function presentOfferView(offer: NonNullable<Awaited<ReturnType<typeof findOffer>>>, mediaStorage: MediaStorage, shippingRates: ShippingRates): SecondChanceView {
  const amount = centsOf(offer.amount);
  const premium = buyersPremiumOn(amount, offer.premiumBasisPoints);
  const shipping = shippingRates[offer.category];
  return {
    ...presentOffer(offer),
    outcome: offer.outcome,
    listing: { title: offer.title, slug: offer.slug, imageUrl: offer.mediaIds[0] === undefined ? null : mediaStorage.publicUrl(offer.mediaIds[0]) },
    buyersPremiumPercent: percentOf(offer.premiumBasisPoints),
    buyersPremium: toDollars(premium),
    shipping: toDollars(shipping),
    total: toDollars(amount + premium + shipping),
    orderId: offer.new_order_id,
  };
}

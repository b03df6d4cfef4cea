import type { OrderEvent, OrderNoticeKind } from '../../engine/domain';
import { adminOrderPath, purchasePath, secondChancePath } from '../contracts/order-links';
import { formatInstant, formatPrice } from './wording';

/** What a notice about an order is worded from, besides its event. */
export interface OrderFacts {
  readonly orderId: string;
  readonly orderNumber: string;
  readonly title: string;
  /** Cents: what the order comes to (hammer, premium, shipping). */
  readonly total: number;
  /** For an admin's overdue notice: who has not paid. */
  readonly buyerName?: string;
}

/** Where an order's notice leads: the buyer's order page, the runner-up's offer, or the admin's view of the order. */
export function orderNoticePath(kind: OrderNoticeKind, event: OrderEvent, forAdmin: boolean): string {
  if (event.type === 'SecondChanceOffered') return secondChancePath(event.data.offerId);
  return forAdmin && kind === 'PAYMENT_OVERDUE' ? adminOrderPath(event.data.orderId) : purchasePath(event.data.orderId);
}

/** The title and body of a notice about an order, in the app and as the mail's subject and first lines. */
export function orderNoticeText(kind: OrderNoticeKind, event: OrderEvent, order: OrderFacts, forAdmin: boolean): { title: string; body: string } {
  const { orderNumber } = order;
  const total = formatPrice(order.total);
  switch (event.type) {
    case 'OrderPlaced': {
      const { hammerPrice, buyersPremiumBasisPoints, paymentDueAt, origin } = event.data;
      const bought = origin.kind === 'SECOND_CHANCE' ? `You accepted the offer of ${order.title} at ${formatPrice(hammerPrice)}.` : `You won ${order.title} at ${formatPrice(hammerPrice)}.`;
      return {
        title: `Your invoice for ${order.title}: ${total}`,
        body:
          `${bought} With the buyer's premium (${buyersPremiumBasisPoints / 100}%) and shipping you owe ${total}, ` +
          `due by ${formatInstant(new Date(paymentDueAt))}. Pay by bank transfer quoting ${orderNumber}, and tell us where to ship it.`,
      };
    }
    case 'PaymentRecorded': {
      const { amount, reference, amountPaid } = event.data;
      const left = order.total - amountPaid;
      return left <= 0
        ? { title: `${order.title} is paid in full`, body: `We received ${formatPrice(amount)} (reference ${reference}). We will ship it to your address and send you the tracking number.` }
        : { title: `We received ${formatPrice(amount)} for ${order.title}`, body: `Reference ${reference}. ${formatPrice(left)} is left to pay, quoting ${orderNumber}.` };
    }
    case 'OrderShipped':
      return { title: `${order.title} has shipped`, body: `${event.data.carrier}, tracking number ${event.data.trackingNumber}. Let us know when it reaches you.` };
    case 'OrderPaymentOverdue': {
      const owed = formatPrice(order.total - event.data.amountPaid);
      const due = formatInstant(new Date(event.data.paymentDueAt));
      return forAdmin
        ? { title: `Payment overdue: ${order.title} (${orderNumber})`, body: `${order.buyerName ?? 'The buyer'} has not paid ${owed} of ${total}, due ${due}. Cancel the order to offer the item to the runner-up, or relist it.` }
        : { title: `Payment overdue: ${order.title}`, body: `Payment was due ${due}. Pay ${owed} now quoting ${orderNumber}, or the sale may be cancelled and the item offered to another bidder.` };
    }
    case 'OrderCancelled':
      return { title: `Your order for ${order.title} was cancelled`, body: `Reason: ${event.data.reason}` };
    case 'ShippingAddressSet': {
      const { city, country } = event.data.address;
      return {
        title: `The shipping address of ${order.title} was changed`,
        body: `It now ships to ${city}, ${country}. If you did not change it, change your password now and tell us: reply to this mail.`,
      };
    }
    case 'SecondChanceOffered':
      return {
        title: `Second chance: ${order.title} can be yours`,
        body: `The winning bidder did not complete the purchase. You can buy it at your highest bid, ${formatPrice(event.data.amount)} (plus the buyer's premium and shipping), until ${formatInstant(new Date(event.data.expiresAt))}.`,
      };
    default:
      throw new Error(`No ${kind} notice for ${event.type}`);
  }
}

import { assertNever } from '../shared/errors';
import type { OrderEvent } from './messages';

/** What a buyer (and, for an overdue payment, every admin) is told about an order, as the log tells it. */
export type OrderNoticeKind = 'INVOICE' | 'PAYMENT_RECEIVED' | 'ORDER_SHIPPED' | 'PAYMENT_OVERDUE' | 'ORDER_CANCELLED' | 'SECOND_CHANCE_OFFER' | 'SHIPPING_ADDRESS_CHANGED';

export interface OrderNotice {
  readonly kind: OrderNoticeKind;
  readonly recipientId: string;
}

/** What the notices of one order event depend on, besides the event. */
export interface OrderNoticeContext {
  /** The order's buyer (events after OrderPlaced do not repeat it). */
  readonly buyerId: string;
  /** Everyone who settles orders: told when one goes overdue. */
  readonly adminIds: Iterable<string>;
  /** Whether the order had a shipping address before the event. */
  readonly hadAddress: boolean;
}

/**
 * Who is told what when `event` happens to an order. INVOICE: the buyer, when the order is placed
 * (what is owed, by when, how to pay). PAYMENT_RECEIVED: the buyer, for each payment recorded.
 * ORDER_SHIPPED: the buyer, with the tracking number. PAYMENT_OVERDUE: the buyer and every admin.
 * ORDER_CANCELLED: the buyer. SECOND_CHANCE_OFFER: the runner-up the item is offered to.
 * SHIPPING_ADDRESS_CHANGED: the buyer, when an address they had given is replaced (whoever holds
 * their session could send a paid item elsewhere: they hear of it).
 */
export function orderNotices(event: OrderEvent, context: OrderNoticeContext): OrderNotice[] {
  const buyer = (kind: OrderNoticeKind): OrderNotice[] => [{ kind, recipientId: context.buyerId }];
  switch (event.type) {
    case 'OrderPlaced':
      return [{ kind: 'INVOICE', recipientId: event.data.buyerId }];
    case 'PaymentRecorded':
      return buyer('PAYMENT_RECEIVED');
    case 'OrderShipped':
      return buyer('ORDER_SHIPPED');
    case 'OrderPaymentOverdue': {
      const admins = [...new Set(context.adminIds)].filter((id) => id !== context.buyerId);
      return [...buyer('PAYMENT_OVERDUE'), ...admins.map((recipientId): OrderNotice => ({ kind: 'PAYMENT_OVERDUE', recipientId }))];
    }
    case 'OrderCancelled':
      return buyer('ORDER_CANCELLED');
    case 'SecondChanceOffered':
      return [{ kind: 'SECOND_CHANCE_OFFER', recipientId: event.data.bidderId }];
    case 'ShippingAddressSet':
      return context.hadAddress ? buyer('SHIPPING_ADDRESS_CHANGED') : [];
    case 'ShippingChargeChanged':
    case 'OrderPaid':
    case 'OrderDelivered':
    case 'OrderCompleted':
    case 'SecondChanceAccepted':
    case 'SecondChanceDeclined':
    case 'SecondChanceExpired':
    case 'OrderListingReleased':
      return [];
    default:
      return assertNever(event);
  }
}

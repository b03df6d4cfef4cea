import { describe, expect, it } from 'vitest';
import { orderNotices, type OrderEvent, type OrderEventOf } from '../../../engine/domain';
import { orderPlaced, US_ADDRESS } from './order-fixtures';

const META = { actorId: 'admin-1', actorRoles: ['ADMIN' as const], occurredAt: '2026-12-09T12:00:00.000Z', correlationId: 'c-1', commandId: 'k-1' };
const CONTEXT = { buyerId: 'buyer-1', adminIds: ['admin-1', 'admin-2'], hadAddress: false };

function event<T extends OrderEvent['type']>(type: T, data: OrderEventOf<T>['data']): OrderEvent {
  return { type, data, metadata: META } as OrderEvent;
}

const placed = orderPlaced();

describe('who is told what about an order', () => {
  it('given an order is placed, then its buyer gets the invoice', () => {
    expect(orderNotices(placed, CONTEXT)).toEqual([{ kind: 'INVOICE', recipientId: 'buyer-1' }]);
  });

  it('given a payment, a shipment or a cancellation, then the buyer is told, nobody else', () => {
    const payment = event('PaymentRecorded', { orderId: 'order-1', paymentId: 'p-1', method: 'BANK_TRANSFER', amount: 50_000, reference: 'WIRE-1', receivedAt: META.occurredAt, amountPaid: 50_000 });
    const shipped = event('OrderShipped', { orderId: 'order-1', carrier: 'UPS', trackingNumber: '1Z', shipTo: US_ADDRESS, shippedAt: META.occurredAt });
    const cancelled = event('OrderCancelled', { orderId: 'order-1', reason: 'Not paid', cancelledAt: META.occurredAt });
    expect([payment, shipped, cancelled].map((each) => orderNotices(each, CONTEXT))).toEqual([
      [{ kind: 'PAYMENT_RECEIVED', recipientId: 'buyer-1' }],
      [{ kind: 'ORDER_SHIPPED', recipientId: 'buyer-1' }],
      [{ kind: 'ORDER_CANCELLED', recipientId: 'buyer-1' }],
    ]);
  });

  it('given the payment window ends, then the buyer and every admin are told, an admin who is the buyer once', () => {
    const overdue = event('OrderPaymentOverdue', { orderId: 'order-1', paymentDueAt: '2026-12-15T12:00:00.000Z', amountPaid: 0 });
    expect(orderNotices(overdue, CONTEXT)).toEqual([
      { kind: 'PAYMENT_OVERDUE', recipientId: 'buyer-1' },
      { kind: 'PAYMENT_OVERDUE', recipientId: 'admin-1' },
      { kind: 'PAYMENT_OVERDUE', recipientId: 'admin-2' },
    ]);
    expect(orderNotices(overdue, { buyerId: 'admin-1', adminIds: ['admin-1', 'admin-1'], hadAddress: false })).toEqual([{ kind: 'PAYMENT_OVERDUE', recipientId: 'admin-1' }]);
  });

  it('given a second-chance offer, then the runner-up it is made to is told', () => {
    const offered = event('SecondChanceOffered', { orderId: 'order-1', offerId: 'offer-1', bidderId: 'bidder-2', amount: 95_000, offeredAt: META.occurredAt, expiresAt: '2026-12-11T12:00:00.000Z' });
    expect(orderNotices(offered, CONTEXT)).toEqual([{ kind: 'SECOND_CHANCE_OFFER', recipientId: 'bidder-2' }]);
  });

  it('given an address replacing one given before, then the buyer is told; the first address tells nobody', () => {
    const set = event('ShippingAddressSet', { orderId: 'order-1', address: US_ADDRESS });
    expect(orderNotices(set, CONTEXT)).toEqual([]);
    expect(orderNotices(set, { ...CONTEXT, hadAddress: true })).toEqual([{ kind: 'SHIPPING_ADDRESS_CHANGED', recipientId: 'buyer-1' }]);
  });

  it('given the quiet steps (address, shipping charge, paid, delivered, completed, answers to offers, relisting), then nobody is told', () => {
    const quiet: OrderEvent[] = [
      event('ShippingChargeChanged', { orderId: 'order-1', previousShipping: 2_500, shipping: 3_000 }),
      event('OrderPaid', { orderId: 'order-1', paidAt: META.occurredAt }),
      event('OrderDelivered', { orderId: 'order-1', deliveredAt: META.occurredAt, confirmedBy: 'BUYER' }),
      event('OrderCompleted', { orderId: 'order-1', completedAt: META.occurredAt }),
      event('SecondChanceDeclined', { orderId: 'order-1', offerId: 'offer-1', bidderId: 'bidder-2' }),
      event('SecondChanceExpired', { orderId: 'order-1', offerId: 'offer-1', bidderId: 'bidder-2' }),
      event('SecondChanceAccepted', { orderId: 'order-1', offerId: 'offer-1', bidderId: 'bidder-2', newOrderId: 'order-2' }),
      event('OrderListingReleased', { orderId: 'order-1', listingId: 'listing-1' }),
    ];
    for (const each of quiet) expect(orderNotices(each, CONTEXT), each.type).toEqual([]);
  });
});

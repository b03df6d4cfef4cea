import type { Transaction } from 'kysely';
import { isOrderEvent } from '../../engine/domain';
import type { Projection, ProjectedEvent } from '../projection';
import type { ReadModels } from '../schema';

/**
 * orders, order_payments, second_chance_offers: what buyers and admins see after the hammer. Order
 * events are few (a handful per sale): each is applied on its own.
 */
export const ordersProjection: Projection = {
  name: 'orders',
  async applyBatch(db, events) {
    for (const event of events) if (isOrderEvent(event)) await applyOrderEvent(db, event);
  },
};

async function applyOrderEvent(db: Transaction<ReadModels>, event: ProjectedEvent): Promise<void> {
  const at = event.metadata.occurredAt;
  const order = (orderId: string) => db.updateTable('orders').where('id', '=', orderId);
  const offer = (offerId: string) => db.updateTable('second_chance_offers').where('offer_id', '=', offerId);
  switch (event.type) {
    case 'OrderPlaced': {
      const data = event.data;
      await db
        .insertInto('orders')
        .values({
          id: data.orderId,
          order_number: data.orderNumber,
          auction_id: data.auctionId,
          listing_id: data.listingId,
          buyer_id: data.buyerId,
          status: 'AWAITING_PAYMENT',
          hammer_price: data.hammerPrice,
          buyers_premium_basis_points: data.buyersPremiumBasisPoints,
          buyers_premium: data.buyersPremium,
          shipping: data.shipping,
          amount_paid: 0,
          placed_at: data.placedAt,
          payment_due_at: data.paymentDueAt,
          paid_at: null,
          shipping_address: JSON.stringify(null),
          carrier: null,
          tracking_number: null,
          shipped_at: null,
          delivered_at: null,
          delivery_confirmed_by: null,
          completed_at: null,
          cancelled_at: null,
          cancellation_reason: null,
          previous_order_id: data.origin.kind === 'SECOND_CHANCE' ? data.origin.previousOrderId : null,
          successor_order_id: null,
          listing_released: false,
          updated_at: at,
        })
        .execute();
      return;
    }
    case 'ShippingAddressSet':
      await order(event.data.orderId).set({ shipping_address: JSON.stringify(event.data.address), updated_at: at }).execute();
      return;
    case 'ShippingChargeChanged':
      await order(event.data.orderId).set({ shipping: event.data.shipping, updated_at: at }).execute();
      return;
    case 'PaymentRecorded': {
      const { orderId, paymentId, method, amount, reference, receivedAt, amountPaid } = event.data;
      await db
        .insertInto('order_payments')
        .values({ payment_id: paymentId, order_id: orderId, method, amount, reference, received_at: receivedAt, recorded_at: at, recorded_by: event.metadata.actorId })
        .execute();
      await order(orderId).set({ amount_paid: amountPaid, updated_at: at }).execute();
      return;
    }
    case 'OrderPaid':
      await order(event.data.orderId).set({ status: 'PAID', paid_at: event.data.paidAt, updated_at: at }).execute();
      return;
    case 'OrderPaymentOverdue':
      await order(event.data.orderId).set({ status: 'PAYMENT_OVERDUE', updated_at: at }).execute();
      return;
    case 'OrderShipped': {
      const { orderId, carrier, trackingNumber, shippedAt } = event.data;
      await order(orderId).set({ status: 'SHIPPED', carrier, tracking_number: trackingNumber, shipped_at: shippedAt, updated_at: at }).execute();
      return;
    }
    case 'OrderDelivered':
      await order(event.data.orderId)
        .set({ status: 'DELIVERED', delivered_at: event.data.deliveredAt, delivery_confirmed_by: event.data.confirmedBy, updated_at: at })
        .execute();
      return;
    case 'OrderCompleted':
      await order(event.data.orderId).set({ status: 'COMPLETED', completed_at: event.data.completedAt, updated_at: at }).execute();
      return;
    case 'OrderCancelled':
      await order(event.data.orderId).set({ status: 'CANCELLED', cancelled_at: event.data.cancelledAt, cancellation_reason: event.data.reason, updated_at: at }).execute();
      return;
    case 'SecondChanceOffered': {
      const { orderId, offerId, bidderId, amount, offeredAt, expiresAt } = event.data;
      const placed = await db.selectFrom('orders').select(['auction_id', 'listing_id']).where('id', '=', orderId).executeTakeFirstOrThrow();
      await db
        .insertInto('second_chance_offers')
        .values({
          offer_id: offerId,
          order_id: orderId,
          auction_id: placed.auction_id,
          listing_id: placed.listing_id,
          bidder_id: bidderId,
          amount,
          offered_at: offeredAt,
          expires_at: expiresAt,
          outcome: 'OPEN',
          new_order_id: null,
          updated_at: at,
        })
        .execute();
      await order(orderId).set({ status: 'SECOND_CHANCE_OFFERED', updated_at: at }).execute();
      return;
    }
    case 'SecondChanceAccepted':
    case 'SecondChanceDeclined':
    case 'SecondChanceExpired': {
      const accepted = event.type === 'SecondChanceAccepted';
      const outcome = accepted ? 'ACCEPTED' : event.type === 'SecondChanceDeclined' ? 'DECLINED' : 'EXPIRED';
      await offer(event.data.offerId).set({ outcome, new_order_id: accepted ? event.data.newOrderId : null, updated_at: at }).execute();
      await order(event.data.orderId)
        .set({ status: 'CANCELLED', ...(accepted ? { successor_order_id: event.data.newOrderId } : {}), updated_at: at })
        .execute();
      return;
    }
    case 'OrderListingReleased':
      await order(event.data.orderId).set({ listing_released: true, updated_at: at }).execute();
      return;
    default:
      return;
  }
}

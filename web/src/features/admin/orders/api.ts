import type { AdminOrder, AdminOrdersPage, AdminSecondChanceOffer, OrderAddress, OrderStatusName } from '../../../../../api/contracts/orders';
import { apiRequest } from '../../../lib/api-client';

export type { AdminOrder, AdminOrdersPage, AdminSecondChanceOffer, OrderStatusName };

export const ORDERS_PAGE_SIZE = 25;

/** What the list asks for: a status (null: every status), a search (order number, item, buyer), a page from 0. */
export type OrdersQuery = {
  readonly status: OrderStatusName | null;
  readonly search: string;
  readonly page: number;
};

const orderPath = (orderId: string) => `/api/admin/orders/${encodeURIComponent(orderId)}`;

/** A page of the orders, overdue first, then by payment due date, with how many orders each status holds: the server searches and pages. */
export function fetchOrdersPage(query: OrdersQuery, signal: AbortSignal): Promise<AdminOrdersPage> {
  const params = new URLSearchParams({ page: String(query.page), size: String(ORDERS_PAGE_SIZE) });
  if (query.status) params.set('status', query.status);
  if (query.search) params.set('search', query.search);
  return apiRequest<AdminOrdersPage>(`/api/admin/orders?${params}`, { auth: true, signal });
}

/** How many orders are overdue (the counts come with any page: the smallest is asked for). */
export async function fetchOverdueCount(signal: AbortSignal): Promise<number> {
  const { counts } = await apiRequest<AdminOrdersPage>(`/api/admin/orders?${new URLSearchParams({ size: '1' })}`, { auth: true, signal });
  return counts.PAYMENT_OVERDUE;
}

export function fetchOrder(orderId: string, signal?: AbortSignal): Promise<AdminOrder> {
  return apiRequest<AdminOrder>(orderPath(orderId), { auth: true, ...(signal ? { signal } : {}) });
}

/**
 * One step an admin takes on an order, as the panel sends it. Each answers the order as it now
 * stands; the offer to the runner-up answers the offer (and who it went to), and the order is
 * read again after it.
 */
export type OrderAction =
  | { readonly kind: 'payment'; readonly amount: number; readonly reference: string; readonly receivedAt?: string }
  | { readonly kind: 'shippingCharge'; readonly shipping: number }
  | { readonly kind: 'shipment'; readonly carrier: string; readonly trackingNumber: string; readonly shipTo: OrderAddress }
  | { readonly kind: 'delivered' }
  | { readonly kind: 'cancel'; readonly reason: string }
  | { readonly kind: 'secondChance' }
  | { readonly kind: 'relist' };

export type OrderActionKind = OrderAction['kind'];

export interface ActionOutcome {
  readonly order: AdminOrder;
  /** The offer made, when the action was the offer to the runner-up. */
  readonly offer: AdminSecondChanceOffer | null;
}

export async function runOrderAction(orderId: string, action: OrderAction): Promise<ActionOutcome> {
  const path = orderPath(orderId);
  const done = (order: AdminOrder): ActionOutcome => ({ order, offer: null });
  switch (action.kind) {
    case 'payment': {
      const { amount, reference, receivedAt } = action;
      return done(await apiRequest<AdminOrder>(`${path}/payments`, { auth: true, body: { amount, reference, ...(receivedAt ? { receivedAt } : {}) } }));
    }
    case 'shippingCharge':
      return done(await apiRequest<AdminOrder>(`${path}/shipping-charge`, { method: 'PUT', auth: true, body: { shipping: action.shipping } }));
    case 'shipment':
      return done(await apiRequest<AdminOrder>(`${path}/shipment`, { auth: true, body: { carrier: action.carrier, trackingNumber: action.trackingNumber, shipTo: action.shipTo } }));
    case 'delivered':
      return done(await apiRequest<AdminOrder>(`${path}/delivered`, { method: 'POST', auth: true }));
    case 'cancel':
      return done(await apiRequest<AdminOrder>(`${path}/cancel`, { auth: true, body: { reason: action.reason } }));
    case 'secondChance': {
      const offer = await apiRequest<AdminSecondChanceOffer>(`${path}/second-chance`, { method: 'POST', auth: true });
      return { order: await fetchOrder(orderId), offer };
    }
    case 'relist':
      return done(await apiRequest<AdminOrder>(`${path}/relist`, { method: 'POST', auth: true }));
  }
}

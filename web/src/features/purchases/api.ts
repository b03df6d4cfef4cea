import type { z } from 'zod';
import type { Order, SecondChanceView, shippingAddressRequestSchema } from '../../../../api/contracts/orders';
import { purchasePath } from '../../../../api/contracts/order-links';
import { apiRequest } from '../../lib/api-client';
import { fetchDownload, saveFile } from '../../lib/download';

export type { Order, SecondChanceView };
/** An address as the form's schema leaves it: trimmed, the country upper-cased, empty optional lines null. */
export type ShippingAddress = z.output<typeof shippingAddressRequestSchema>;

/** The buyer's order and second-chance calls, each with the session's token. */

const orderPath = (orderId: string) => `/api/v1/orders/${encodeURIComponent(orderId)}`;
const offerPath = (offerId: string) => `/api/v1/second-chance/${encodeURIComponent(offerId)}`;

/** Where an order's page is (the path notices and mail link to). */
export { purchasePath };

export function fetchOrder(orderId: string, signal?: AbortSignal): Promise<Order> {
  return apiRequest<Order>(orderPath(orderId), { auth: true, ...(signal ? { signal } : {}) });
}

/** The address as the form's schema left it (trimmed, the country upper-cased, empty optional lines null). */
export function saveShippingAddress(orderId: string, address: ShippingAddress): Promise<Order> {
  return apiRequest<Order>(`${orderPath(orderId)}/shipping-address`, { method: 'PUT', auth: true, body: address });
}

/** "I received it": the order is delivered and the sale complete. */
export function confirmReceipt(orderId: string): Promise<Order> {
  return apiRequest<Order>(`${orderPath(orderId)}/confirm-receipt`, { method: 'POST', auth: true });
}

/** The invoice as a PDF, fetched with the token (a plain link could not send it), then saved. */
export async function downloadInvoicePdf(order: Pick<Order, 'id' | 'orderNumber'>, signal?: AbortSignal): Promise<void> {
  const { contents, filename } = await fetchDownload(`${orderPath(order.id)}/invoice.pdf`, {
    accept: 'application/pdf',
    fallbackFilename: `invoice-${order.orderNumber}.pdf`,
    ...(signal ? { signal } : {}),
  });
  saveFile(contents, filename);
}

export function fetchOffer(offerId: string, signal?: AbortSignal): Promise<SecondChanceView> {
  return apiRequest<SecondChanceView>(offerPath(offerId), { auth: true, ...(signal ? { signal } : {}) });
}

/** 201 with the runner-up's new order. */
export function acceptOffer(offerId: string): Promise<Order> {
  return apiRequest<Order>(`${offerPath(offerId)}/accept`, { method: 'POST', auth: true });
}

export function declineOffer(offerId: string): Promise<SecondChanceView> {
  return apiRequest<SecondChanceView>(`${offerPath(offerId)}/decline`, { method: 'POST', auth: true });
}

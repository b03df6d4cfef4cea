import { ORDER_STATUS_LABELS } from '../../../../../api/contracts/invoice';
import { orderStatusSchema } from '../../../../../api/contracts/orders';
import type { OrderStatusName } from './api';

export { ORDER_STATUS_LABELS };

/**
 * Every status an order can have, overdue first (what needs an admin), then in the order of an
 * order's life. Which steps an order allows is the engine's to say: `AdminOrder.adminActions`.
 */
export const ORDER_STATUSES: readonly OrderStatusName[] = [
  'PAYMENT_OVERDUE',
  ...orderStatusSchema.options.filter((status) => status !== 'PAYMENT_OVERDUE'),
];

/** The Manage tab, showing the listings back on sale (NFC bound) to publish again. */
export const RELISTED_LISTINGS_PATH = `/admin/dashboard?${new URLSearchParams({ tab: 'manage', status: 'NFC_BOUND' })}`;

export const orderPath = (orderId: string) => `/admin/orders/${encodeURIComponent(orderId)}`;

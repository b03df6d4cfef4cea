import type { Order, OrderStatusName } from './orders';

/**
 * What an invoice says, line by line: the printable page (web) and the PDF (api/orders/invoice-pdf.ts)
 * both lay out these, so they never disagree.
 */

export interface InvoiceLine {
  readonly label: string;
  /** Dollars. */
  readonly amount: number;
  readonly emphasis?: boolean;
  /** A rule under this line (before the total, before the balance). */
  readonly ruleAfter?: boolean;
}

export const INVOICE_TAX_NOTE = 'Prices exclude sales tax, VAT and import duties: none is charged by Provenance; any that applies where you live is yours to settle.';

export const ORDER_STATUS_LABELS: Readonly<Record<OrderStatusName, string>> = {
  AWAITING_PAYMENT: 'Awaiting payment',
  PAYMENT_OVERDUE: 'Payment overdue',
  PAID: 'Paid',
  SHIPPED: 'Shipped',
  DELIVERED: 'Delivered',
  COMPLETED: 'Completed',
  CANCELLED: 'Cancelled',
  SECOND_CHANCE_OFFERED: 'Cancelled (offered to the runner-up)',
};

/** How an order's status reads at a glance: fine once paid, bad when overdue or cancelled, waiting on the buyer before. */
export function orderStatusTone(status: OrderStatusName): 'good' | 'bad' | 'waiting' {
  if (status === 'PAYMENT_OVERDUE' || status === 'CANCELLED' || status === 'SECOND_CHANCE_OFFERED') return 'bad';
  if (status === 'AWAITING_PAYMENT') return 'waiting';
  return 'good';
}

export function invoiceLines(order: Pick<Order, 'hammerPrice' | 'buyersPremiumPercent' | 'buyersPremium' | 'shipping' | 'total' | 'amountPaid' | 'balance'>): InvoiceLine[] {
  return [
    { label: 'Hammer price', amount: order.hammerPrice },
    { label: `Buyer's premium (${order.buyersPremiumPercent}%)`, amount: order.buyersPremium },
    { label: 'Shipping (insured, tracked)', amount: order.shipping, ruleAfter: true },
    { label: 'Total', amount: order.total, emphasis: true },
    { label: 'Paid', amount: order.amountPaid, ruleAfter: true },
    { label: 'Balance due', amount: order.balance, emphasis: true },
  ];
}

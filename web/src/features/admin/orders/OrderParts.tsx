import { useId, type ReactNode } from 'react';
import { Link, useLocation } from 'react-router';
import type { OrderStatusName } from './api';
import { ORDER_STATUS_LABELS } from './order-rules';

/** What a link from the list carries to an order: the list as it was (filter, search, page), to go back to. */
export interface FromList {
  readonly list: string;
}

export function OrderStatusBadge({ status }: { status: OrderStatusName }) {
  return <span className={`admin-status orders-status orders-status--${status.toLowerCase()}`}>{ORDER_STATUS_LABELS[status]}</span>;
}

/** The Manage tab, where the Orders view is reached from. */
export function BackToManage() {
  return (
    <Link className="button orders__back" to="/admin/dashboard?tab=manage">
      ← Back to Manage
    </Link>
  );
}

/** Back to the list as it was left, or to every order. */
export function BackToOrders() {
  const from = (useLocation().state as FromList | null)?.list;
  return (
    <Link className="button orders__back" to={from && from.startsWith('/admin/orders') ? from : '/admin/orders'}>
      ← All orders
    </Link>
  );
}

/** A card of the order's page, named by its heading. */
export function Section({ title, className, children }: { title: string; className?: string; children: ReactNode }) {
  const id = useId();
  return (
    <section className={`card order-card${className ? ` ${className}` : ''}`} aria-labelledby={id}>
      <h2 id={id} className="order-card__title">
        {title}
      </h2>
      {children}
    </section>
  );
}

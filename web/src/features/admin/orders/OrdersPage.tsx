import { useMachine } from '@xstate/react';
import { useEffect, useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { z } from 'zod';
import { FailedWithRetry } from '../../../components/FailedWithRetry';
import { Pager, SearchForm, SkeletonRows, StatusFilter, TableRegion } from '../../../components/TableParts';
import { formatUsd } from '../../../lib/money';
import type { AdminOrder, AdminOrdersPage, OrdersQuery } from './api';
import { ORDER_STATUS_LABELS, ORDER_STATUSES, orderPath } from './order-rules';
import { formatDateTime, ordersTableMachine } from './orders-machines';
import { readOrdersState, writeOrdersState } from './orders-query';
import { BackToManage, OrderStatusBadge, type FromList } from './OrderParts';
import './orders.css';

const COLUMNS = 7;

const orderSearchSchema = z.object({ search: z.string().max(200, 'At most 200 characters').optional() });

/**
 * /admin/orders: the orders a sale made, overdue first (marked), then by payment due date; a
 * status filter (Overdue one click away), a search by order number, item or buyer, and a page of
 * 25 at a time, all in the URL and all done by the server. Each order opens at /admin/orders/{id}.
 */
export function OrdersPage() {
  const [params, setParams] = useSearchParams();
  const query = useMemo(() => readOrdersState(params), [params]);
  const [table, send] = useMachine(ordersTableMachine, { input: { query } });
  useEffect(() => {
    send({ type: 'QUERY_CHANGED', query });
  }, [query, send]);

  const navigate = (next: OrdersQuery) => setParams(writeOrdersState(params, next));
  const { answer, error } = table.context;
  const loading = table.matches('loading');
  // The counts are of every order, whatever the query: the last ones stay while another page loads.
  const [counts, setCounts] = useState<AdminOrdersPage['counts'] | null>(null);
  if (answer && answer.counts !== counts) setCounts(answer.counts);
  const overdue = counts?.PAYMENT_OVERDUE ?? 0;
  const showingOverdue = query.status === 'PAYMENT_OVERDUE';
  const filtered = query.search !== '' || query.status !== null;
  const from: FromList = { list: `/admin/orders${params.size > 0 ? `?${params}` : ''}` };

  return (
    <div className="orders">
      <div className="orders__head">
        <h1 className="admin__title">Orders</h1>
        <BackToManage />
      </div>
      <p className="muted orders__intro">Each auction that closed with a sale: record the winner’s bank transfer, ship, and settle unpaid ones.</p>

      {query.status === null && overdue > 0 && (
        <div className="orders__overdue-note">
          <p>
            <strong>
              {overdue} {overdue === 1 ? 'order is' : 'orders are'} overdue
            </strong>
            : the payment window ended without payment in full. They are listed first.
          </p>
        </div>
      )}

      <div className="admin-toolbar">
        <SearchForm
          name="Order search"
          label="Search orders"
          hint="Order number, item, buyer name or email"
          value={query.search}
          schema={orderSearchSchema}
          onSearch={(search) => navigate({ ...query, search, page: 0 })}
        />
        <StatusFilter id="order-status-filter" statuses={ORDER_STATUSES} labels={ORDER_STATUS_LABELS} value={query.status} onChange={(status) => navigate({ ...query, status, page: 0 })} />
        <div className="orders__quick">
          <button
            type="button"
            className="button orders__quick-button"
            aria-pressed={showingOverdue}
            onClick={() => navigate({ ...query, status: showingOverdue ? null : 'PAYMENT_OVERDUE', page: 0 })}
          >
            Overdue only
          </button>
          <button type="button" className="button orders__quick-button" disabled={loading} onClick={() => send({ type: 'RELOAD' })}>
            Refresh
          </button>
        </div>
      </div>

      <p className="admin-count" role="status" data-testid="order-count">
        {loading && !answer ? 'Loading orders…' : countText(answer, query)}
      </p>

      {table.matches('failed') && <FailedWithRetry message={error} onRetry={() => send({ type: 'RETRY' })} />}

      <TableRegion label="Orders" busy={loading}>
        {/* On a phone each row is a card (orders.css): the roles keep it a table to screen readers. */}
        <table className="orders-table" role="table">
          <thead role="rowgroup">
            <tr role="row">
              {['Order', 'Item', 'Buyer', 'Status', 'Total', 'Paid', 'Payment due'].map((column) => (
                <th key={column} scope="col" role="columnheader">
                  {column}
                </th>
              ))}
            </tr>
          </thead>
          <tbody role="rowgroup">{answer ? answer.content.map((order) => <OrderRow key={order.id} order={order} from={from} />) : loading ? <SkeletonRows rows={5} columns={COLUMNS} /> : null}</tbody>
        </table>
        {answer && answer.content.length === 0 && (
          <div className="admin-table__empty">
            <p>{filtered ? 'No orders match.' : 'No orders yet: an order is placed when an auction closes with a sale.'}</p>
            {filtered && (
              <button type="button" className="button" onClick={() => navigate({ status: null, search: '', page: 0 })}>
                Show all orders
              </button>
            )}
          </div>
        )}
      </TableRegion>
      <Pager label="Order pages" page={query.page} totalPages={answer?.totalPages ?? 0} busy={loading} onPage={(page) => navigate({ ...query, page })} />
    </div>
  );
}

/** "3 orders", "2 orders payment overdue", "1 of 40 orders matches “PRV-1A”". */
function countText(answer: AdminOrdersPage | null, query: OrdersQuery): string {
  if (!answer) return '';
  const orders = (count: number) => `${count} ${count === 1 ? 'order' : 'orders'}`;
  const status = query.status ? ` ${ORDER_STATUS_LABELS[query.status].toLowerCase()}` : '';
  if (query.search === '') return `${orders(answer.totalElements)}${status}`;
  const all = query.status ? answer.counts[query.status] : Object.values(answer.counts).reduce((sum, count) => sum + count, 0);
  return `${answer.totalElements} of ${orders(all)}${status} ${answer.totalElements === 1 ? 'matches' : 'match'} “${query.search}”`;
}

function OrderRow({ order, from }: { order: AdminOrder; from: FromList }) {
  const overdue = order.status === 'PAYMENT_OVERDUE';
  return (
    <tr role="row" data-testid="order-row" className={`orders-table__row${overdue ? ' orders-row--overdue' : ''}`}>
      <th scope="row" role="rowheader" className="admin-table__mono orders-cell--order">
        <Link className="orders-row__link" to={orderPath(order.id)} state={from}>
          {order.orderNumber}
        </Link>
      </th>
      <td role="cell" className="orders-cell--item">
        <div className="orders-item">
          {order.listing.imageUrl ? (
            <img className="orders-item__thumb" src={order.listing.imageUrl} alt="" loading="lazy" width={40} height={40} />
          ) : (
            <span className="orders-item__thumb" aria-hidden="true" />
          )}
          <span className="orders-item__title">{order.listing.title}</span>
        </div>
      </td>
      <td role="cell" className="orders-buyer orders-cell--buyer">
        <span className="orders-buyer__name">{order.buyer.name ?? 'Unknown buyer'}</span>
        {order.buyer.email && <span className="orders-buyer__email">{order.buyer.email}</span>}
      </td>
      <td role="cell" className="orders-cell--status">
        <OrderStatusBadge status={order.status} />
      </td>
      <td role="cell" className="admin-table__nowrap orders-money orders-cell--total">
        <span className="orders-cell__label">Total </span>
        {formatUsd(order.total)}
      </td>
      <td role="cell" className="admin-table__nowrap orders-money orders-cell--paid">
        <span className="orders-cell__label">Paid </span>
        {formatUsd(order.amountPaid)}
      </td>
      <td role="cell" className="admin-table__nowrap orders-cell--due">
        <span className="orders-cell__label">Payment due </span>
        <time dateTime={order.paymentDueAt}>{formatDateTime(order.paymentDueAt)}</time>
        {overdue && <span className="orders-row__overdue">Overdue</span>}
      </td>
    </tr>
  );
}

import { readChoice, readPage, tableParams } from '../tables/table-params';
import type { OrdersQuery } from './api';
import { ORDER_STATUSES } from './order-rules';

/** The list's state in the URL, as the API takes it: /admin/orders?status=PAYMENT_OVERDUE&search=PRV-1A2B&page=2 (the page from 1 there, from 0 here). */
export function readOrdersState(params: URLSearchParams): OrdersQuery {
  return { status: readChoice(params, 'status', ORDER_STATUSES), search: (params.get('search') ?? '').trim(), page: readPage(params) };
}

export function writeOrdersState(current: URLSearchParams, state: OrdersQuery): URLSearchParams {
  return tableParams(current, { status: state.status, search: state.search }, state.page);
}

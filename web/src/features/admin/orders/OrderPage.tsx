import { useMachine } from '@xstate/react';
import { Link, useLocation, useParams } from 'react-router';
import { invoiceLines } from '../../../../../api/contracts/invoice';
import { FailedWithRetry } from '../../../components/FailedWithRetry';
import { Spinner } from '../../../components/Spinner';
import { formatUsd } from '../../../lib/money';
import type { AdminOrder } from './api';
import { orderPath } from './order-rules';
import { formatDateTime, orderPanelMachine } from './orders-machines';
import { OrderSteps } from './OrderSteps';
import { BackToOrders, OrderStatusBadge, Section, type FromList } from './OrderParts';
import './orders.css';

/** /admin/orders/{id}: one order, read afresh for each id. */
export function OrderPage() {
  const { orderId = '' } = useParams();
  return <OrderPanel key={orderId} orderId={orderId} />;
}

const OUTCOME_LABELS = { OPEN: 'Open', ACCEPTED: 'Accepted', DECLINED: 'Declined', EXPIRED: 'Expired' } as const;

/**
 * The order: its invoice, the next steps its status allows (with what each did, or the server's
 * reason for refusing it), then the buyer and address, the payments received, the shipment and
 * the runner-up offers.
 */
function OrderPanel({ orderId }: { orderId: string }) {
  const [snapshot, send] = useMachine(orderPanelMachine, { input: { orderId } });
  const { order, loadError } = snapshot.context;

  if (snapshot.matches('failed') || (!order && !snapshot.matches('loading'))) {
    return (
      <div className="orders">
        <div className="orders__head">
          <h1 className="admin__title">Order</h1>
          <BackToOrders />
        </div>
        <FailedWithRetry message={loadError} onRetry={() => send({ type: 'RETRY' })} />
      </div>
    );
  }
  if (!order) return <Spinner label="Loading the order" />;

  return (
    <div className="orders order">
      <div className="orders__head">
        <div className="order__title">
          <h1 className="admin__title">Order {order.orderNumber}</h1>
          <OrderStatusBadge status={order.status} />
        </div>
        <BackToOrders />
      </div>
      <p className="order__item">
        <strong>{order.listing.title}</strong>
        <span className="muted">
          {' '}
          · placed <time dateTime={order.placedAt}>{formatDateTime(order.placedAt)}</time>
          {order.secondChance && ' · from a second-chance offer'}
        </span>
      </p>

      <div className="order__layout">
        <Invoice order={order} />
        <OrderSteps snapshot={snapshot} send={send} />
        <div className="order__details">
          <Buyer order={order} />
          <Payments order={order} />
          <Shipment order={order} />
          <AfterCancelling order={order} />
        </div>
      </div>
    </div>
  );
}

function Invoice({ order }: { order: AdminOrder }) {
  const overdue = order.status === 'PAYMENT_OVERDUE';
  const cancelled = order.status === 'CANCELLED' || order.status === 'SECOND_CHANCE_OFFERED';
  // A cancelled order owes nothing: its balance is not shown as due.
  const lines = cancelled ? invoiceLines(order).filter((line) => line.label !== 'Balance due') : invoiceLines(order);
  return (
    <Section title="Invoice" className="order__invoice">
      <table className="order-invoice">
        <tbody>
          {lines.map((line) => (
            <tr key={line.label} className={`${line.emphasis ? 'order-invoice__emphasis' : ''}${line.ruleAfter ? ' order-invoice__rule' : ''}`.trim() || undefined}>
              <th scope="row">{line.label}</th>
              <td>{formatUsd(line.amount)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <dl className="order-facts">
        {cancelled ? (
          <div>
            <dt>Balance due</dt>
            <dd>Nothing: the order was cancelled</dd>
          </div>
        ) : (
          <div>
            <dt>Payment due</dt>
            <dd>
              <time dateTime={order.paymentDueAt}>{formatDateTime(order.paymentDueAt)}</time>
              {overdue && <span className="orders-row__overdue">Overdue</span>}
            </dd>
          </div>
        )}
        {order.paidAt && (
          <div>
            <dt>Paid in full</dt>
            <dd>
              <time dateTime={order.paidAt}>{formatDateTime(order.paidAt)}</time>
            </dd>
          </div>
        )}
        {order.howToPay && (
          <div>
            <dt>Order number the buyer quotes</dt>
            <dd className="admin-table__mono">{order.howToPay.reference}</dd>
          </div>
        )}
      </dl>
    </Section>
  );
}

function Buyer({ order }: { order: AdminOrder }) {
  const address = order.shippingAddress;
  return (
    <Section title="Buyer and address">
      <dl className="order-facts">
        <div>
          <dt>Buyer</dt>
          <dd>{order.buyer.name ?? 'Unknown buyer'}</dd>
        </div>
        <div>
          <dt>Email</dt>
          <dd>{order.buyer.email ? <a href={`mailto:${order.buyer.email}`}>{order.buyer.email}</a> : <span className="muted">—</span>}</dd>
        </div>
      </dl>
      <h3 className="order-card__subtitle">Shipping address</h3>
      {address ? (
        <address className="order-address" data-testid="order-address">
          {[address.name, address.line1, address.line2, [address.city, address.region, address.postalCode].filter(Boolean).join(' '), address.country]
            .filter(Boolean)
            .map((line, index) => (
              <span key={index}>{line}</span>
            ))}
        </address>
      ) : (
        <p className="muted order-card__empty">The buyer has not given an address yet.</p>
      )}
    </Section>
  );
}

function Payments({ order }: { order: AdminOrder }) {
  return (
    <Section title="Payments received">
      {order.payments.length === 0 ? (
        <p className="muted order-card__empty">No payment recorded yet.</p>
      ) : (
        <div className="admin-table order-table" role="region" aria-label="Payments received" tabIndex={0}>
          <table>
            <thead>
              <tr>
                <th scope="col">Received</th>
                <th scope="col">Reference</th>
                <th scope="col">Amount</th>
              </tr>
            </thead>
            <tbody>
              {order.payments.map((payment) => (
                <tr key={`${payment.reference}-${payment.receivedAt}`}>
                  <td className="admin-table__nowrap">
                    <time dateTime={payment.receivedAt}>{formatDateTime(payment.receivedAt)}</time>
                  </td>
                  <td className="admin-table__mono">{payment.reference}</td>
                  <td className="admin-table__nowrap orders-money">{formatUsd(payment.amount)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Section>
  );
}

function Shipment({ order }: { order: AdminOrder }) {
  const stamp = (label: string, at: string | null) =>
    at && (
      <div>
        <dt>{label}</dt>
        <dd>
          <time dateTime={at}>{formatDateTime(at)}</time>
        </dd>
      </div>
    );
  return (
    <Section title="Shipment">
      {order.carrier ? (
        <dl className="order-facts">
          <div>
            <dt>Carrier</dt>
            <dd>{order.carrier}</dd>
          </div>
          <div>
            <dt>Tracking number</dt>
            <dd className="admin-table__mono">{order.trackingNumber}</dd>
          </div>
          {stamp('Shipped', order.shippedAt)}
          {stamp('Delivered', order.deliveredAt)}
          {stamp('Completed', order.completedAt)}
        </dl>
      ) : (
        <p className="muted order-card__empty">Not shipped yet.</p>
      )}
    </Section>
  );
}

/** A cancelled order: why, the offers to the runner-up and what came of them, or the item relisted. */
function AfterCancelling({ order }: { order: AdminOrder }) {
  const location = useLocation();
  if (!order.cancelledAt && order.offers.length === 0) return null;
  return (
    <Section title="Cancellation and runner-up">
      {order.cancelledAt && (
        <dl className="order-facts">
          <div>
            <dt>Cancelled</dt>
            <dd>
              <time dateTime={order.cancelledAt}>{formatDateTime(order.cancelledAt)}</time>
            </dd>
          </div>
          <div>
            <dt>Reason</dt>
            <dd>{order.cancellationReason}</dd>
          </div>
        </dl>
      )}
      <h3 className="order-card__subtitle">Offers to the runner-up</h3>
      {order.offers.length === 0 ? (
        <p className="muted order-card__empty">None made.</p>
      ) : (
        <ul className="order-offers" aria-label="Offers to the runner-up">
          {order.offers.map((offer) => (
            <li key={offer.offerId} className="order-offer" data-testid="runner-up-offer">
              <span className="order-offer__bidder">
                <strong>{offer.bidder.name ?? 'Unknown bidder'}</strong>
                {offer.bidder.email && (
                  <>
                    {' '}
                    <a href={`mailto:${offer.bidder.email}`}>{offer.bidder.email}</a>
                  </>
                )}
              </span>
              <span>
                {formatUsd(offer.amount)} · {offer.outcome === 'OPEN' ? 'open until' : 'expires'}{' '}
                <time dateTime={offer.expiresAt}>{formatDateTime(offer.expiresAt)}</time>
              </span>
              <span className={`admin-status orders-offer--${offer.outcome.toLowerCase()}`}>{OUTCOME_LABELS[offer.outcome]}</span>
              {offer.newOrderId && (
                <Link to={orderPath(offer.newOrderId)} state={location.state as FromList | null}>
                  The runner-up’s order
                </Link>
              )}
            </li>
          ))}
        </ul>
      )}
      {order.listingReleased && <p className="order-card__empty order-card__after">The item was relisted: its listing is back to NFC bound.</p>}
    </Section>
  );
}

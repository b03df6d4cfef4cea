import { useMachine } from '@xstate/react';
import type { ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { invoiceLines, INVOICE_TAX_NOTE, ORDER_STATUS_LABELS, orderStatusTone } from '../../../../api/contracts/invoice';
import { Banner } from '../../components/Banner';
import { FailedWithRetry } from '../../components/FailedWithRetry';
import { Spinner } from '../../components/Spinner';
import { formatUsd } from '../../lib/money';
import { AddressForm } from './AddressForm';
import type { Order } from './api';
import { addressLines, formatDay, formatMoment, formatShortMoment, orderTimeline } from './order-display';
import { orderMachine, type OrderEvent } from './order-machine';
import './purchases.css';

/** Where the dashboard lists the buyer's purchases. */
const PURCHASES_TAB = '/dashboard?tab=purchases';

const ADDRESS_HEADING = 'address-heading';
const SHIPMENT_HEADING = 'shipment-heading';

/** Focus the element `id` once React has shown what changed: the heading of the section a step just changed. */
function focusAfterRender(id: string) {
  requestAnimationFrame(() => document.getElementById(id)?.focus());
}

const pageMachine = orderMachine.provide({ actions: { addressSaved: () => focusAfterRender(ADDRESS_HEADING), receiptConfirmed: () => focusAfterRender(SHIPMENT_HEADING) } });

/**
 * /purchases/:orderId: a won item's order. The invoice (printable: the site's header, the steps'
 * forms and every button vanish on paper; the same lines as the PDF), how to pay and by when, the
 * payments received, the shipping address (a form while it may change), tracking once shipped and
 * "I received it". A timeline says how far the order has come.
 */
export function OrderPage() {
  const { orderId = '' } = useParams();
  // A new order id is a new page: its own machine.
  return <OrderScreen key={orderId} orderId={orderId} />;
}

function OrderScreen({ orderId }: { orderId: string }) {
  const [snapshot, send] = useMachine(pageMachine, { input: { orderId } });
  const { order, loadError, notice, error, downloadError } = snapshot.context;

  const back = (
    <p className="purchase-page__back no-print">
      <Link to={PURCHASES_TAB}>← My purchases</Link>
    </p>
  );
  if (snapshot.matches('loading')) {
    return (
      <div className="purchase-page">
        {back}
        <Spinner label="Loading your order" />
      </div>
    );
  }
  if (snapshot.matches('failed') || !order) {
    return (
      <div className="purchase-page">
        {back}
        {snapshot.context.missing ? (
          <div className="purchase-intro">
            <h1>Order not found</h1>
            <p className="muted">There is no such order among your purchases: the link may be for another account.</p>
          </div>
        ) : (
          <>
            <h1>Your order</h1>
            <FailedWithRetry message={loadError} onRetry={() => send({ type: 'RETRY' })} />
          </>
        )}
      </div>
    );
  }

  const downloading = snapshot.matches({ ready: { download: 'downloading' } });
  return (
    <div className="purchase-page">
      {back}
      <header className="purchase-head no-print">
        <div className="purchase-head__text">
          <h1>{order.listing.title}</h1>
          <p className="purchase-head__meta">
            <span>Order {order.orderNumber},</span>
            <span>
              placed <time dateTime={order.placedAt}>{formatDay(order.placedAt)}</time>
            </span>
            <StatusBadge status={order.status} />
          </p>
        </div>
        <div className="purchase-head__tools">
          <button type="button" className="button" onClick={() => window.print()}>
            Print invoice
          </button>
          <button type="button" className="button" onClick={() => send({ type: 'DOWNLOAD_PDF' })} disabled={downloading} aria-busy={downloading}>
            {downloading ? 'Preparing PDF…' : 'Download PDF'}
          </button>
        </div>
      </header>

      {/* Results are said here as they happen; refusals by the error banners' own alert role. */}
      <div className="purchase-page__messages no-print" aria-live="polite">
        {notice && (
          <Banner kind="success" onDismiss={() => send({ type: 'DISMISS' })}>
            {notice}
          </Banner>
        )}
      </div>
      {error && (
        <div className="no-print">
          <Banner kind="error" onDismiss={() => send({ type: 'DISMISS' })}>
            {error}
          </Banner>
        </div>
      )}
      {downloadError && (
        <div className="no-print">
          <Banner kind="error" onDismiss={() => send({ type: 'DISMISS' })}>
            {downloadError}
          </Banner>
        </div>
      )}
      {order.cancelledAt !== null && (
        <div className="no-print">
          <Banner kind="info">
            This order was cancelled on {formatDay(order.cancelledAt)}
            {order.cancellationReason ? `: ${order.cancellationReason}` : '.'} Nothing more is owed on it.
          </Banner>
        </div>
      )}

      <Timeline order={order} />

      {/* What the buyer does next comes first (on a phone, above the invoice; beside it on a wide screen; after it on paper). */}
      <div className="purchase-grid">
        <div className="purchase-grid__side">
          {order.howToPay && <HowToPay order={order} howToPay={order.howToPay} />}
          {order.shippedAt !== null && <Shipment order={order} confirming={snapshot.matches({ ready: { step: 'confirming' } })} send={send} />}
          <ShippingAddress
            order={order}
            editing={snapshot.context.editingAddress}
            saving={snapshot.matches({ ready: { step: 'savingAddress' } })}
            serverErrors={snapshot.context.addressErrors}
            send={send}
          />
        </div>
        <div className="purchase-grid__main">
          <Invoice order={order} />
        </div>
      </div>
    </div>
  );
}

function StatusBadge({ status }: { status: Order['status'] }) {
  return <span className={`badge purchase-status purchase-status--${orderStatusTone(status)}`}>{ORDER_STATUS_LABELS[status]}</span>;
}

/** Placed, paid, shipped, delivered: each step said in words (done, next, still to come), not by colour alone. */
function Timeline({ order }: { order: Order }) {
  const steps = orderTimeline(order);
  return (
    <ol className="purchase-timeline no-print" aria-label="Order progress">
      {steps.map((step) => (
        <li key={step.label} className={`purchase-timeline__step purchase-timeline__step--${step.state}`} aria-current={step.state === 'current' ? 'step' : undefined}>
          <span className="purchase-timeline__dot" aria-hidden="true">
            {step.state === 'done' ? '✓' : step.state === 'stopped' ? '×' : ''}
          </span>
          <span className="purchase-timeline__label">{step.label}</span>
          <span className="purchase-timeline__when">
            {step.at ? (
              <time dateTime={step.at}>{formatShortMoment(step.at)}</time>
            ) : step.state === 'current' ? (
              'Next'
            ) : (
              'Not yet'
            )}
          </span>
        </li>
      ))}
    </ol>
  );
}

/** The invoice as printed: the lines, the tax note and payments as the PDF lays them out (contracts/invoice.ts). */
function Invoice({ order }: { order: Order }) {
  const { billedTo } = order;
  return (
    <section className="card invoice" aria-labelledby="invoice-heading">
      <div className="invoice__head">
        <div>
          <p className="invoice__brand">Provenance</p>
          <p className="invoice__tagline">Authenticated sports memorabilia, sold at live auction</p>
        </div>
        <div className="invoice__title">
          <h2 id="invoice-heading">Invoice {order.orderNumber}</h2>
          <p>Issued {formatDay(new Date(order.placedAt))}</p>
          <p>Status: {ORDER_STATUS_LABELS[order.status]}</p>
        </div>
      </div>

      <div className="invoice__parties">
        {billedTo && (
          <div>
            <h3 className="invoice__label">Billed to</h3>
            <p className="invoice__lines-of-text">
              {billedTo.name && <span>{billedTo.name}</span>}
              <span>{billedTo.email}</span>
            </p>
          </div>
        )}
        <div>
          <h3 className="invoice__label">Ships to</h3>
          {order.shippingAddress ? (
            <address className="invoice__lines-of-text">
              {addressLines(order.shippingAddress).map((line, index) => (
                <span key={index}>{line}</span>
              ))}
            </address>
          ) : (
            <p className="muted">No shipping address yet.</p>
          )}
        </div>
      </div>

      <div className="invoice__item">
        {order.listing.imageUrl && <img className="invoice__image" src={order.listing.imageUrl} alt="" width={72} height={72} loading="lazy" />}
        <div>
          <h3 className="invoice__label">Item</h3>
          <p className="invoice__item-title">{order.listing.title}</p>
          {order.listing.nfcUid && <p className="invoice__small">NFC tag {order.listing.nfcUid}</p>}
          <p className="invoice__small">
            Won {formatDay(order.placedAt)}
            {order.secondChance ? ' (second-chance offer)' : ''}
          </p>
        </div>
      </div>

      <table className="invoice-lines">
        <caption className="visually-hidden">Amounts in US dollars</caption>
        <tbody>
          {invoiceLines(order).map((line) => (
            <tr key={line.label} className={[line.emphasis ? 'invoice-lines__row--emphasis' : '', line.ruleAfter ? 'invoice-lines__row--rule' : ''].join(' ').trim() || undefined}>
              <th scope="row">{line.label}</th>
              <td>{formatUsd(line.amount)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="invoice__tax">{INVOICE_TAX_NOTE}</p>

      {order.payments.length > 0 && (
        <div className="invoice__payments">
          <h3 className="invoice__label">Payments received</h3>
          <ul className="payments">
            {order.payments.map((payment) => (
              <li key={`${payment.reference}-${payment.receivedAt}`} className="payments__item">
                <span>
                  <time dateTime={payment.receivedAt}>{formatDay(payment.receivedAt)}</time> · Bank transfer · ref. {payment.reference}
                </span>
                <span className="payments__amount">{formatUsd(payment.amount)}</span>
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}

/** The payment method's own instructions: the steps, the amount and reference to quote, the account, and by when (overdue said plainly). */
function HowToPay({ order, howToPay }: { order: Order; howToPay: NonNullable<Order['howToPay']> }) {
  const overdue = order.status === 'PAYMENT_OVERDUE';
  return (
    <section className="card purchase-section how-to-pay" aria-labelledby="pay-heading">
      <h2 id="pay-heading">How to pay</h2>
      {overdue ? (
        <p className="how-to-pay__due how-to-pay__due--overdue">
          <strong>Payment is overdue.</strong> It was due by <time dateTime={order.paymentDueAt}>{formatMoment(order.paymentDueAt)}</time>. Please pay now: an unpaid sale may be cancelled and offered
          to the next bidder.
        </p>
      ) : (
        <p className="how-to-pay__due">
          Pay by <strong><time dateTime={order.paymentDueAt}>{formatMoment(order.paymentDueAt)}</time></strong>.
        </p>
      )}
      <h3 className="purchase-section__subhead">{howToPay.title}</h3>
      <ol className="how-to-pay__steps">
        {howToPay.steps.map((step) => (
          <li key={step}>{step}</li>
        ))}
      </ol>
      <dl className="how-to-pay__key">
        <div>
          <dt>Amount due</dt>
          <dd>{formatUsd(howToPay.amountDue)}</dd>
        </div>
        <div>
          <dt>Reference</dt>
          <dd>{howToPay.reference}</dd>
        </div>
      </dl>
      <h3 className="purchase-section__subhead">Account details</h3>
      <dl className="purchase-details">
        {howToPay.details.map((detail) => (
          <Detail key={detail.label} term={detail.label} value={detail.value} />
        ))}
      </dl>
    </section>
  );
}

function ShippingAddress({
  order,
  editing,
  saving,
  serverErrors,
  send,
}: {
  order: Order;
  editing: boolean;
  saving: boolean;
  serverErrors: Parameters<typeof AddressForm>[0]['serverErrors'];
  send: (event: OrderEvent) => void;
}) {
  const address = order.shippingAddress;
  const canChange = order.actions.setShippingAddress;
  const formOpen = canChange && (address === null || editing);
  return (
    // On paper the invoice's "Ships to" says it.
    <section className="card purchase-section no-print" aria-labelledby={ADDRESS_HEADING}>
      <h2 id={ADDRESS_HEADING} tabIndex={-1}>
        Shipping address
      </h2>
      {formOpen ? (
        <>
          <p className="muted purchase-section__lead no-print">{address ? 'Change where we ship it: you can, until it ships.' : 'Where should we ship it? You can change it until it ships.'}</p>
          <AddressForm
            address={address}
            saving={saving}
            serverErrors={serverErrors}
            labelledBy={ADDRESS_HEADING}
            onSave={(next) => send({ type: 'SAVE_ADDRESS', address: next })}
            {...(address ? { onCancel: () => send({ type: 'CANCEL_ADDRESS' }) } : {})}
          />
        </>
      ) : address ? (
        <>
          <address className="address-block" data-testid="shipping-address">
            {addressLines(address).map((line, index) => (
              <span key={index}>{line}</span>
            ))}
          </address>
          {canChange ? (
            <button type="button" className="button no-print" onClick={() => send({ type: 'EDIT_ADDRESS' })}>
              Change address
            </button>
          ) : (
            order.shippedAt !== null && <p className="muted purchase-section__lead">Shipped to this address.</p>
          )}
        </>
      ) : (
        <p className="muted">No shipping address was given.</p>
      )}
    </section>
  );
}

function Shipment({ order, confirming, send }: { order: Order; confirming: boolean; send: (event: OrderEvent) => void }) {
  return (
    <section className="card purchase-section" aria-labelledby={SHIPMENT_HEADING}>
      <h2 id={SHIPMENT_HEADING} tabIndex={-1}>
        Shipment
      </h2>
      <dl className="purchase-details">
        {order.carrier && <Detail term="Carrier" value={order.carrier} />}
        {order.trackingNumber && <Detail term="Tracking number" value={<span className="purchase-details__code">{order.trackingNumber}</span>} />}
        {order.shippedAt && <Detail term="Shipped" value={<time dateTime={order.shippedAt}>{formatMoment(order.shippedAt)}</time>} />}
        {order.deliveredAt && <Detail term="Delivered" value={<time dateTime={order.deliveredAt}>{formatMoment(order.deliveredAt)}</time>} />}
      </dl>
      {order.actions.confirmReceipt ? (
        <div className="purchase-section__confirm no-print">
          <p>When the item reaches you, tell us, and the sale is complete.</p>
          <button type="button" className="button button--primary" onClick={() => send({ type: 'CONFIRM_RECEIPT' })} disabled={confirming} aria-busy={confirming}>
            {confirming ? 'Confirming…' : 'I received it'}
          </button>
        </div>
      ) : (
        order.deliveredAt !== null && (
          <p className="purchase-section__done">
            <StatusBadge status={order.status} /> {order.status === 'COMPLETED' ? 'Delivered, and the sale is complete. Enjoy it!' : 'Delivered.'}
          </p>
        )
      )}
    </section>
  );
}

function Detail({ term, value }: { term: string; value: ReactNode }) {
  return (
    <div className="purchase-details__row">
      <dt>{term}</dt>
      <dd>{value}</dd>
    </div>
  );
}

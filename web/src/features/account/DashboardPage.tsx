import { useMachine } from '@xstate/react';
import { useId } from 'react';
import { Link, useSearchParams } from 'react-router';
import { assign, fromPromise, setup } from 'xstate';
import { ORDER_STATUS_LABELS, orderStatusTone } from '../../../../api/contracts/invoice';
import { purchasePath } from '../../../../api/contracts/order-links';
import type { Order, Orders } from '../../../../api/contracts/orders';
import { Banner } from '../../components/Banner';
import { FailedWithRetry } from '../../components/FailedWithRetry';
import { Spinner } from '../../components/Spinner';
import { apiRequest, errorMessage, unlessAborted } from '../../lib/api-client';
import { useAuth } from '../../lib/auth/session';
import { listingPath } from '../../lib/listing';
import { formatUsd } from '../../lib/money';
import { RECENT_BIDS_LIMIT, type UserBid } from './api';
import { bidStanding, summarizeBids } from './bid-summary';
import { myBidsMachine } from './bids-machine';
import { EmailVerificationBanner } from './EmailVerificationBanner';
import { Tabs } from './Tabs';
import './account.css';

const placedAt = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });
const dueDay = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' });

const TABS = ['Overview', 'My purchases'] as const;
type Tab = (typeof TABS)[number];

/** /dashboard: Overview (Quick Stats, Recent Activity and Actions, from the user's real bids) and My purchases (`?tab=purchases`: the orders of what they won). */
export function DashboardPage() {
  const { user } = useAuth();
  const [params, setParams] = useSearchParams();
  const tab: Tab = params.get('tab') === 'purchases' ? 'My purchases' : 'Overview';

  return (
    <div className="account-page">
      <header className="account-page__head">
        <h1>Welcome back, {user ? `${user.firstName} ${user.lastName}`.trim() || user.email : 'bidder'}</h1>
        <p className="muted">Your bids, what you won, and where to go next.</p>
      </header>
      <EmailVerificationBanner />
      <Tabs tabs={TABS} active={tab} label="Dashboard" onSelect={(next) => setParams(next === 'My purchases' ? { tab: 'purchases' } : {}, { replace: true })}>
        {tab === 'Overview' ? <Overview /> : <MyPurchases />}
      </Tabs>
    </div>
  );
}

/** Quick Stats, Recent Activity and Actions. */
function Overview() {
  const [snapshot, send] = useMachine(myBidsMachine);
  const { bids, error } = snapshot.context;
  return (
    <>
      {snapshot.matches('failed') && (
        <div className="banner-row">
          <Banner kind="error">Failed to load your bids: {error}</Banner>
          <button type="button" className="button" onClick={() => send({ type: 'RETRY' })}>
            Try Again
          </button>
        </div>
      )}
      <div className="dashboard-grid">
        <section className="card dashboard-card" aria-labelledby="quick-stats">
          <h2 id="quick-stats">Quick Stats</h2>
          {snapshot.matches('loading') ? <SkeletonLines count={3} /> : snapshot.matches('loaded') ? <QuickStats bids={bids} /> : <p className="muted">Not available right now.</p>}
        </section>
        <section className="card dashboard-card dashboard-card--wide" aria-labelledby="recent-activity">
          <h2 id="recent-activity">Recent Activity</h2>
          {snapshot.matches('loading') ? <SkeletonLines count={4} /> : snapshot.matches('loaded') ? <RecentActivity bids={bids} /> : <p className="muted">Not available right now.</p>}
        </section>
        <section className="card dashboard-card" aria-labelledby="actions">
          <h2 id="actions">Actions</h2>
          <nav className="dashboard-actions" aria-label="Account actions">
            <Link className="button button--primary" to="/marketplace">
              Browse the marketplace
            </Link>
            <Link className="button" to="/profile">
              Edit your profile
            </Link>
            <Link className="button" to="/favourites">
              Your favourites
            </Link>
            <Link className="button" to="/notifications">
              Your notifications
            </Link>
            <Link className="button" to="/account/settings?tab=security">
              Security & Privacy
            </Link>
          </nav>
        </section>
      </div>
    </>
  );
}

function QuickStats({ bids }: { bids: readonly UserBid[] }) {
  const summary = summarizeBids(bids);
  const figures: Array<[string, number]> = [
    ['Bids placed', summary.bidsPlaced],
    ['Auctions bid on', summary.auctionsBidOn],
    ['Leading', summary.leading],
    ['Outbid', summary.outbid],
    ['Won', summary.won],
  ];
  return (
    <>
      <dl className="quick-stats">
        {figures.map(([label, value]) => (
          <div key={label} className="quick-stats__item">
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      {bids.length >= RECENT_BIDS_LIMIT && <p className="field__hint">From your {RECENT_BIDS_LIMIT} most recent bids.</p>}
    </>
  );
}

function RecentActivity({ bids }: { bids: readonly UserBid[] }) {
  if (bids.length === 0) {
    return (
      <div className="empty-state empty-state--compact">
        <p>No bids yet.</p>
        <p className="muted">When you bid on an item, it shows up here with where you stand.</p>
        <Link className="button button--primary" to="/marketplace">
          Find something to bid on
        </Link>
      </div>
    );
  }
  return (
    <ul className="activity" aria-label="Your recent bids">
      {bids.map((bid) => {
        // The history names the listing's id and slug together, or neither when it does not know the listing.
        const path = bid.listingId === null ? null : listingPath({ id: bid.listingId, slug: bid.listingSlug });
        const standing = bidStanding(bid);
        const title = bid.listingTitle ?? 'A listing';
        return (
          <li key={bid.id} className="activity__item">
            <div className="activity__main">
              {path ? <Link to={path}>{title}</Link> : <span>{title}</span>}
              <span className="muted activity__meta">
                {bid.kind === 'MAXIMUM' ? `Maximum raised to ${formatUsd(bid.maxAmount ?? bid.amount)}` : `${formatUsd(bid.amount)}${bid.kind === 'AUTO' ? ' by your maximum' : bid.kind === 'BUY_NOW' ? ' (buy now)' : ''}`}
                {' · '}
                <time dateTime={bid.placedAt}>{placedAt.format(new Date(bid.placedAt))}</time>
              </span>
            </div>
            {standing && <span className={`badge standing standing--${standing.toLowerCase()}`}>{standing}</span>}
          </li>
        );
      })}
    </ul>
  );
}

function SkeletonLines({ count }: { count: number }) {
  return (
    <div aria-hidden="true" className="skeleton-lines">
      {Array.from({ length: count }, (_, index) => (
        <div key={index} className="skeleton" style={{ height: 18, width: `${90 - index * 12}%` }} />
      ))}
    </div>
  );
}

/** The buyer's orders: one call, then the list or an error with Try Again. */
const myOrdersMachine = setup({
  types: {
    context: {} as { orders: readonly Order[]; error: string | null },
    events: {} as { type: 'RETRY' },
  },
  actors: {
    loadOrders: fromPromise<Order[]>(({ signal }) =>
      unlessAborted(signal, async (aborted) => (await apiRequest<Orders>('/api/v1/users/me/orders', { auth: true, signal: aborted })).content),
    ),
  },
}).createMachine({
  id: 'myOrders',
  initial: 'loading',
  context: { orders: [], error: null },
  states: {
    loading: {
      invoke: {
        src: 'loadOrders',
        onDone: { target: 'loaded', actions: assign({ orders: ({ event }) => event.output, error: null }) },
        onError: { target: 'failed', actions: assign({ error: ({ event }) => `Failed to load your purchases: ${errorMessage(event.error, 'Network error')}` }) },
      },
    },
    loaded: {},
    failed: { on: { RETRY: 'loading' } },
  },
});

/** What the buyer does next with an order, in words, and the order page's link named for it. */
interface NextStep {
  readonly text: string;
  readonly action: string;
  /** Said in red: the payment is late. */
  readonly urgent?: boolean;
}

function nextStep(order: Order): NextStep {
  const needsAddress = order.actions.setShippingAddress && order.shippingAddress === null;
  const due = dueDay.format(new Date(order.paymentDueAt));
  switch (order.status) {
    case 'AWAITING_PAYMENT':
      return { text: `Pay ${formatUsd(order.balance)} by ${due}${needsAddress ? ', and enter your shipping address' : ''}.`, action: 'How to pay' };
    case 'PAYMENT_OVERDUE':
      return { text: `Payment overdue: ${formatUsd(order.balance)} was due by ${due}. Please pay now.`, action: 'How to pay', urgent: true };
    case 'PAID':
      return needsAddress ? { text: 'Paid. Enter your shipping address so we can ship it.', action: 'Enter your address' } : { text: 'Paid. We are preparing the shipment.', action: 'View order' };
    case 'SHIPPED':
      return { text: `Shipped${order.carrier ? ` with ${order.carrier}` : ''}${order.trackingNumber ? `, tracking ${order.trackingNumber}` : ''}. Tell us when it arrives.`, action: 'Track and confirm receipt' };
    case 'DELIVERED':
    case 'COMPLETED':
      return { text: order.deliveredAt ? `Delivered ${dueDay.format(new Date(order.deliveredAt))}.` : 'Delivered.', action: 'View order' };
    case 'CANCELLED':
    case 'SECOND_CHANCE_OFFERED':
      return { text: `Cancelled${order.cancellationReason ? `: ${order.cancellationReason}` : '.'}`, action: 'View order' };
  }
}

/** Whether the order waits on the buyer (to pay, to give an address, to confirm receipt). */
const waitsOnBuyer = (order: Order) =>
  order.status === 'AWAITING_PAYMENT' || order.status === 'PAYMENT_OVERDUE' || order.actions.confirmReceipt || (order.actions.setShippingAddress && order.shippingAddress === null);

/** Each won item's order: its photo and title, status, total and what to do next, linking to its page. */
function MyPurchases() {
  const [snapshot, send] = useMachine(myOrdersMachine);
  const { orders, error } = snapshot.context;
  if (snapshot.matches('loading')) return <Spinner label="Loading your purchases" />;
  if (snapshot.matches('failed')) return <FailedWithRetry message={error} onRetry={() => send({ type: 'RETRY' })} />;
  if (orders.length === 0) {
    return (
      <div className="empty-state">
        <h2>No purchases yet</h2>
        <p className="muted">When you win an auction, its order appears here: the invoice, how to pay, shipping and tracking.</p>
        <Link className="button button--primary" to="/marketplace">
          Find something to bid on
        </Link>
      </div>
    );
  }
  const waiting = orders.filter(waitsOnBuyer).length;
  return (
    <section aria-labelledby="purchases-heading">
      <h2 id="purchases-heading" className="visually-hidden">
        My purchases
      </h2>
      <p className="muted dashboard-purchases__summary">
        {orders.length === 1 ? '1 purchase' : `${orders.length} purchases`}
        {waiting > 0 ? `, ${waiting} waiting on you` : ''}.
      </p>
      <ul className="dashboard-purchases">
        {orders.map((order) => (
          <PurchaseItem key={order.id} order={order} />
        ))}
      </ul>
    </section>
  );
}

function PurchaseItem({ order }: { order: Order }) {
  const titleId = useId();
  const next = nextStep(order);
  const path = purchasePath(order.id);
  const tone = orderStatusTone(order.status);
  return (
    <li className="card dashboard-purchase" data-testid="purchase">
      <div className="dashboard-purchase__image">{order.listing.imageUrl ? <img src={order.listing.imageUrl} alt="" width={96} height={96} loading="lazy" /> : <span aria-hidden="true">🏆</span>}</div>
      <div className="dashboard-purchase__main">
        <h3 className="dashboard-purchase__title" id={titleId}>
          <Link to={path}>{order.listing.title}</Link>
        </h3>
        <p className="dashboard-purchase__meta muted">
          Order {order.orderNumber} · won <time dateTime={order.placedAt}>{dueDay.format(new Date(order.placedAt))}</time>
        </p>
        <p className={next.urgent ? 'dashboard-purchase__next dashboard-purchase__next--urgent' : 'dashboard-purchase__next'}>{next.text}</p>
      </div>
      <div className="dashboard-purchase__side">
        <span className={`badge dashboard-purchase__status dashboard-purchase__status--${tone}`}>{ORDER_STATUS_LABELS[order.status]}</span>
        <p className="dashboard-purchase__total">
          <span className="muted">Total</span> {formatUsd(order.total)}
        </p>
        <Link className={waitsOnBuyer(order) ? 'button button--primary' : 'button'} to={path} aria-describedby={titleId}>
          {next.action}
        </Link>
      </div>
    </li>
  );
}

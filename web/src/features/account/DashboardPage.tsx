import { useMachine } from '@xstate/react';
import { Link } from 'react-router';
import { Banner } from '../../components/Banner';
import { useAuth } from '../../lib/auth/session';
import { listingPath } from '../../lib/listing';
import { formatUsd } from '../../lib/money';
import { RECENT_BIDS_LIMIT, type UserBid } from './api';
import { bidStanding, summarizeBids } from './bid-summary';
import { myBidsMachine } from './bids-machine';
import { EmailVerificationBanner } from './EmailVerificationBanner';
import './account.css';

const placedAt = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

/** /dashboard: Quick Stats, Recent Activity and Actions, from the user's real bids. */
export function DashboardPage() {
  const { user } = useAuth();
  const [snapshot, send] = useMachine(myBidsMachine);
  const { bids, error } = snapshot.context;

  return (
    <div className="account-page">
      <header className="account-page__head">
        <h1>Welcome back, {user ? `${user.firstName} ${user.lastName}`.trim() || user.email : 'bidder'}</h1>
        <p className="muted">Your bids, where you stand, and where to go next.</p>
      </header>
      <EmailVerificationBanner />
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
    </div>
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

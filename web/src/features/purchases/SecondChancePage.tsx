import { useMachine } from '@xstate/react';
import { useEffect, useMemo, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { Banner } from '../../components/Banner';
import { FailedWithRetry } from '../../components/FailedWithRetry';
import { Spinner } from '../../components/Spinner';
import { formatUsd } from '../../lib/money';
import { purchasePath, type SecondChanceView } from './api';
import { formatMoment } from './order-display';
import { secondChanceMachine } from './second-chance-machine';
import './purchases.css';

/**
 * /second-chance/:offerId, the page the runner-up's notice opens: the item, the price (their own
 * highest bid) and the premium rate, until when; Accept opens the order it places, Decline says no.
 * An offer expired or answered already says so plainly and asks nothing.
 */
export function SecondChancePage() {
  const { offerId = '' } = useParams();
  return <SecondChanceScreen key={offerId} offerId={offerId} />;
}

function SecondChanceScreen({ offerId }: { offerId: string }) {
  const navigate = useNavigate();
  const machine = useMemo(() => secondChanceMachine.provide({ actions: { openOrder: (_, { orderId }) => navigate(purchasePath(orderId)) } }), [navigate]);
  const [snapshot, send] = useMachine(machine, { input: { offerId } });
  const { offer, loadError, error, notice } = snapshot.context;

  if (snapshot.matches('loading')) return <Spinner label="Loading the offer" />;
  if (snapshot.matches('failed') || !offer) {
    return (
      <div className="purchase-page second-chance">
        <h1>Second-chance offer</h1>
        {snapshot.context.missing ? (
          <p className="muted">
            There is no such offer for you: the link may be for another account. Your orders are under <Link to="/dashboard?tab=purchases">My purchases</Link>.
          </p>
        ) : (
          <FailedWithRetry message={loadError} onRetry={() => send({ type: 'RETRY' })} />
        )}
      </div>
    );
  }

  const busy = snapshot.matches({ ready: 'accepting' }) || snapshot.matches({ ready: 'declining' }) || snapshot.matches({ ready: 'accepted' });
  return (
    <div className="purchase-page second-chance">
      <header className="purchase-intro">
        <h1>A second chance at this item</h1>
        <p className="muted">The sale to the winning bidder did not go ahead, so the item is offered to you, at your own highest bid.</p>
      </header>
      <div aria-live="polite">
        {notice && (
          <Banner kind="success" onDismiss={() => send({ type: 'DISMISS' })}>
            {notice}
          </Banner>
        )}
      </div>
      {error && (
        <Banner kind="error" onDismiss={() => send({ type: 'DISMISS' })}>
          {error}
        </Banner>
      )}
      <section className="card second-chance__offer" aria-labelledby="offer-item">
        <div className="second-chance__media">
          {offer.listing.imageUrl ? <img src={offer.listing.imageUrl} alt="" width={320} height={240} /> : <span aria-hidden="true">🏆</span>}
        </div>
        <div className="second-chance__body">
          <h2 id="offer-item">
            <Link to={`/marketplace/${encodeURIComponent(offer.listing.slug)}`}>{offer.listing.title}</Link>
          </h2>
          <dl className="purchase-details">
            <div className="purchase-details__row">
              <dt>Price (your highest bid)</dt>
              <dd className="second-chance__price">{formatUsd(offer.amount)}</dd>
            </div>
            <div className="purchase-details__row">
              <dt>Buyer’s premium ({offer.buyersPremiumPercent}%)</dt>
              <dd>{formatUsd(offer.buyersPremium)}</dd>
            </div>
            <div className="purchase-details__row">
              <dt>Shipping (insured, tracked)</dt>
              <dd>{formatUsd(offer.shipping)}</dd>
            </div>
            <div className="purchase-details__row">
              <dt>Total</dt>
              <dd className="second-chance__price">{formatUsd(offer.total)}</dd>
            </div>
            <div className="purchase-details__row">
              <dt>{offer.outcome === 'OPEN' ? 'Offer open until' : 'Offer was open until'}</dt>
              <dd>
                <time dateTime={offer.expiresAt}>{formatMoment(offer.expiresAt)}</time>
              </dd>
            </div>
          </dl>
          <Answer offer={offer} busy={busy} accepting={snapshot.matches({ ready: 'accepting' }) || snapshot.matches({ ready: 'accepted' })} send={send} />
        </div>
      </section>
    </div>
  );
}

/** Whether `at` has passed, checked again every half minute (an open offer lapses while the page is open). */
function usePassed(at: string): boolean {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(timer);
  }, []);
  return Date.parse(at) <= now;
}

/** Accept and Decline while the offer stands; otherwise what became of it, in words. */
function Answer({ offer, busy, accepting, send }: { offer: SecondChanceView; busy: boolean; accepting: boolean; send: (event: { type: 'ACCEPT' } | { type: 'DECLINE' }) => void }) {
  const passed = usePassed(offer.expiresAt);
  const lapsed = offer.outcome === 'EXPIRED' || (offer.outcome === 'OPEN' && passed);
  if (offer.outcome === 'ACCEPTED') {
    return (
      <div className="second-chance__answer">
        <p className="second-chance__state">You accepted this offer: the item is yours.</p>
        {offer.orderId && (
          <Link className="button button--primary" to={purchasePath(offer.orderId)}>
            View your order
          </Link>
        )}
      </div>
    );
  }
  if (offer.outcome === 'DECLINED') return <p className="second-chance__state">You declined this offer. Nothing is owed.</p>;
  if (lapsed) return <p className="second-chance__state">This offer has expired. Nothing is owed.</p>;
  return (
    <div className="second-chance__answer">
      <p>Accepting places an order in your name for this total; its invoice says how and by when to pay.</p>
      <div className="purchase-actions">
        <button type="button" className="button button--primary" onClick={() => send({ type: 'ACCEPT' })} disabled={busy} aria-busy={accepting}>
          {accepting ? 'Accepting…' : `Accept for ${formatUsd(offer.total)} in all`}
        </button>
        <button type="button" className="button" onClick={() => send({ type: 'DECLINE' })} disabled={busy}>
          Decline
        </button>
      </div>
    </div>
  );
}

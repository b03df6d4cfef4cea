import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useId } from 'react';
import { fromPromise } from 'xstate';
import { Banner } from '../../../components/Banner';
import { useAuth } from '../../../lib/auth/session';
import { authModal } from '../../../lib/auth-modal';
import { formatUsd } from '../../../lib/money';
import { formatTimeLeft } from '../../../lib/time-left';
import { buyNow, fetchAuction, fetchBids, placeBid, type Auction, type BidRequest } from '../api';
import { hasEnded, isLeader, statusAt, takesBids, type Snapshot } from './auction-facts';
import { auctionPanelMachine } from './auction-panel-machine';
import { bidderLabel, saleTerms, statusLabel } from './panel-labels';
import { liveFeed } from './live-feed';
import { YourReceipts } from './YourReceipts';
import './auction-panel.css';

const panelMachine = auctionPanelMachine.provide({
  actors: {
    liveFeed,
    loadSnapshot: fromPromise(async ({ input }: { input: { listingKey: string; auctionId: string } }): Promise<Snapshot> => {
      const [auction, bids] = await Promise.all([fetchAuction(input.listingKey), fetchBids(input.auctionId)]);
      return { auction, bids };
    }),
    placeBid: fromPromise(({ input }: { input: BidRequest }) => placeBid(input)),
    buyNow: fromPromise(({ input }: { input: { auctionId: string; idempotencyKey: string } }) => buyNow(input)),
  },
});

const timeFormat = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' });

/** The live auction panel: price, countdown, bidding and the recent bids, kept live. */
export function AuctionPanel({ listingKey, auction }: { listingKey: string; auction: Auction }) {
  const { user } = useAuth();
  const userId = user?.id ?? null;
  const actor = useActorRef(panelMachine, { input: { listingKey, auction, userId } });
  const context = useSelector(actor, (snapshot) => snapshot.context);
  const connection = useSelector(actor, (snapshot) =>
    snapshot.matches({ connection: { online: 'live' } }) ? 'live' : snapshot.matches({ connection: 'gaveUp' }) || snapshot.matches({ connection: 'closed' }) ? 'down' : 'connecting',
  );
  const placing = useSelector(actor, (snapshot) => snapshot.matches({ bidding: 'placing' }));
  const buyNowStep = useSelector(actor, (snapshot) =>
    snapshot.matches({ bidding: 'confirmingBuyNow' }) ? 'confirming' : snapshot.matches({ bidding: 'buyingNow' }) ? 'buying' : 'offered',
  );
  const ids = useId();

  useEffect(() => actor.send({ type: 'USER.CHANGE', userId }), [actor, userId]);

  // Signed out: the sign-in modal opens and the typed amount stays. After signing in the user
  // presses Place Bid again: a bid commits money, so it is never placed without a press made while
  // signed in (the price may also have moved during the sign-in).
  useEffect(() => {
    const subscription = actor.on('signInRequired', ({ action, amount }) => {
      const next = action === 'bid' ? `Press Place Bid to bid ${formatUsd(amount)}.` : `Press Buy now to buy it for ${formatUsd(amount)}.`;
      authModal.open('login', () => actor.send({ type: 'BANNER.SHOW', banner: { kind: 'info', text: `You are signed in. ${next}` } }));
    });
    return () => subscription.unsubscribe();
  }, [actor]);

  const { auction: facts, now, bids } = context;
  const status = statusAt(facts, now);
  const open = takesBids(facts, now);
  const ended = hasEnded(facts, now);
  // Once ended or cancelled there is nothing to type: only the button says so.
  const over = ended || status === 'CANCELLED';
  const leading = isLeader(facts, userId);
  const openLabel = placing ? (leading ? 'Raising maximum…' : 'Placing bid…') : leading ? 'Raise Maximum' : 'Place Bid';
  const buttonLabel = open ? openLabel : ended ? 'Auction Ended' : status === 'CANCELLED' ? 'Auction Cancelled' : 'Not Open Yet';

  return (
    <section className="card auction-panel" aria-labelledby={`${ids}-title`}>
      <div className="auction-panel__top">
        <h2 id={`${ids}-title`} className={`auction-panel__status auction-panel__status--${status.toLowerCase()}`}>
          {statusLabel(status)}
        </h2>
        <p className={`auction-panel__live auction-panel__live--${connection}`} data-testid="live-status" role="status">
          <span className="auction-panel__live-dot" aria-hidden="true" />
          {connection === 'live' ? 'Live updates active' : connection === 'down' ? 'Live updates stopped' : 'Connecting...'}
        </p>
      </div>

      <div className="auction-panel__figures">
        <div>
          <p className="auction-panel__label">{facts.status === 'ENDED' && facts.result === 'SOLD' ? 'Final price' : facts.bidCount > 0 ? 'Current bid' : 'Starting price'}</p>
          <p className="auction-panel__price" data-testid="current-price">
            {formatUsd(facts.currentPrice)}
          </p>
          <p className="muted auction-panel__meta">
            {facts.bidCount} {facts.bidCount === 1 ? 'bid' : 'bids'}
            {facts.reserveMet !== null && <> · {facts.reserveMet ? 'Reserve met' : 'Reserve not met'}</>}
          </p>
        </div>
        <div className="auction-panel__time">
          {status === 'PENDING' ? (
            <>
              <p className="auction-panel__label">Starts in</p>
              <p className="auction-panel__countdown">{formatTimeLeft(facts.startsAt, now)}</p>
            </>
          ) : (
            <>
              <p className="auction-panel__label">Time left</p>
              <p className="auction-panel__countdown" data-testid="time-left">
                {status === 'CANCELLED' ? '—' : formatTimeLeft(facts.endsAt, now)}
              </p>
            </>
          )}
          <p className="muted auction-panel__meta">
            {status === 'PENDING' ? (
              <>
                Starts <time dateTime={facts.startsAt}>{timeFormat.format(new Date(facts.startsAt))}</time>
              </>
            ) : (
              <>
                {ended ? 'Ended' : 'Ends'} <time dateTime={facts.endsAt}>{timeFormat.format(new Date(facts.endsAt))}</time>
              </>
            )}
          </p>
        </div>
      </div>

      <p className="muted auction-panel__terms" data-testid="sale-terms">
        {saleTerms(facts)}
      </p>

      {facts.status === 'ENDED' && (
        <p className="auction-panel__outcome" role="status">
          {facts.result === 'SOLD' && facts.finalPrice !== null ? `Sold for ${formatUsd(facts.finalPrice)}` : 'Ended without a sale'}
          {facts.result === 'RESERVE_NOT_MET' && <span className="muted"> (reserve not met)</span>}
        </p>
      )}
      {facts.status === 'CANCELLED' && (
        <p className="auction-panel__outcome" role="status">
          This auction was cancelled{context.cancelReason ? `: ${context.cancelReason}` : '.'}
        </p>
      )}
      {leading && open && <p className="auction-panel__leading">You are the highest bidder</p>}

      {context.banner && (
        <Banner kind={context.banner.kind} onDismiss={() => actor.send({ type: 'BANNER.DISMISS' })}>
          {context.banner.text}
        </Banner>
      )}

      {connection === 'down' && (
        <div className="auction-panel__reconnect">
          <p>Live updates stopped: the connection could not be restored. Prices may be out of date.</p>
          <button type="button" className="button" onClick={() => actor.send({ type: 'RECONNECT' })}>
            Reconnect
          </button>
        </div>
      )}

      <form
        className="auction-panel__form"
        // The panel's own messages explain a refused amount; the browser's tooltips would hide them.
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          actor.send({ type: 'BID.SUBMIT' });
        }}
      >
        {!over && (
          <>
            <DollarField
              id={`${ids}-amount`}
              label={leading ? 'Your new maximum' : 'Your bid'}
              hint={
                leading
                  ? `You lead at ${formatUsd(facts.currentPrice)}. To raise your maximum, enter ${formatUsd(facts.minimumBid)} or more; the price moves only when someone bids against you.`
                  : `Enter ${formatUsd(facts.minimumBid)} or more`
              }
              min={facts.minimumBid}
              value={context.amount}
              disabled={!open}
              onChange={(value) => actor.send({ type: 'AMOUNT.CHANGE', value })}
            />
            {/* A leader's amount is their new maximum already. */}
            {!leading && (
              <DollarField
                id={`${ids}-max`}
                label="Maximum bid (optional)"
                hint="We bid for you, one step at a time, only as far as needed to keep you ahead, never above this amount. Nobody else sees it."
                min={facts.minimumBid}
                value={context.maxAmount}
                disabled={!open}
                onChange={(value) => actor.send({ type: 'MAX.CHANGE', value })}
              />
            )}
          </>
        )}
        <button type="submit" className="button button--primary button--block" disabled={!open || placing}>
          {buttonLabel}
        </button>
      </form>

      {open && facts.buyNowAvailable && facts.buyNowPrice !== null && (
        <div className="auction-panel__buy-now">
          {buyNowStep === 'offered' ? (
            <button type="button" className="button button--block" onClick={() => actor.send({ type: 'BUY_NOW.REQUEST' })}>
              Buy now for {formatUsd(facts.buyNowPrice)}
            </button>
          ) : (
            <>
              <p>Buy this item now for {formatUsd(facts.buyNowPrice)}? The auction ends at once and the item is yours.</p>
              <div className="auction-panel__buy-now-actions">
                <button type="button" className="button button--primary" disabled={buyNowStep === 'buying'} onClick={() => actor.send({ type: 'BUY_NOW.CONFIRM' })}>
                  {buyNowStep === 'buying' ? 'Buying…' : `Confirm purchase for ${formatUsd(facts.buyNowPrice)}`}
                </button>
                <button type="button" className="button" disabled={buyNowStep === 'buying'} onClick={() => actor.send({ type: 'BUY_NOW.CANCEL' })}>
                  Cancel
                </button>
              </div>
            </>
          )}
        </div>
      )}

      <div className="auction-panel__history">
        <h3>Recent bids</h3>
        {bids.length === 0 ? (
          <p className="muted">No bids yet.</p>
        ) : (
          <ol className="bid-history" data-testid="bid-history" aria-label="Recent bids">
            {bids.map((bid) => {
              const label = bidderLabel(bid.bidderId, userId);
              return (
                <li key={bid.id} className={`bid-history__entry${bid.status === 'RETRACTED' ? ' bid-history__entry--retracted' : ''}`}>
                  <span className={`bid-history__bidder${label === 'You' ? ' bid-history__bidder--you' : ''}`}>
                    {label}
                    {bid.kind === 'AUTO' && <span className="muted"> (auto)</span>}
                    {bid.status === 'RETRACTED' && <span className="muted"> (retracted)</span>}
                  </span>
                  <span className="bid-history__amount">{formatUsd(bid.amount)}</span>
                  <time className="muted bid-history__time" dateTime={bid.placedAt}>
                    {timeFormat.format(new Date(bid.placedAt))}
                  </time>
                </li>
              );
            })}
          </ol>
        )}
      </div>

      <YourReceipts auctionId={facts.auctionId} panel={actor} />
    </section>
  );
}

/** A dollar amount input with its label and hint: the bid and the optional maximum. */
function DollarField({ id, label, hint, min, value, disabled, onChange }: { id: string; label: string; hint: string; min: number; value: string; disabled: boolean; onChange: (value: string) => void }) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <div className="auction-panel__amount">
        <span aria-hidden="true">$</span>
        <input
          id={id}
          className="input"
          type="number"
          inputMode="decimal"
          min={min}
          step={1}
          value={value}
          disabled={disabled}
          aria-describedby={`${id}-hint`}
          onChange={(event) => onChange(event.target.value)}
        />
      </div>
      <span id={`${id}-hint`} className="field__hint">
        {hint}
      </span>
    </div>
  );
}

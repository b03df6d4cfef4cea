import { useMachine } from '@xstate/react';
import { useEffect, useEffectEvent, useId } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import type { AuctionTimeline, TimelineStep, TimelineSummary } from '../../../../../api/contracts/audit';
import { Banner } from '../../../components/Banner';
import { FailedWithRetry } from '../../../components/FailedWithRetry';
import { Spinner } from '../../../components/Spinner';
import { AUDIT_LOG_PATH } from '../../../lib/audit-links';
import { listingPath } from '../../../lib/listing';
import { formatUsd } from '../../../lib/money';
import { useTheme } from '../../../lib/theme';
import { shortId } from '../format';
import { bundleMachine } from './bundle-machine';
import { integrityFailures } from './integrity';
import { LinkMarkBadge, ShortHash } from './IntegrityMarks';
import { PriceChart } from './PriceChart';
import { timelineMachine } from './timeline-machine';
import { formatUtc, OUTCOME_LABELS, readStep, STATUS_LABELS } from './timeline-view';
import '../audit.css';

/** /admin/auctions/:auctionId/timeline: an auction replayed step by step, for admins and auditors. */
export function AuctionTimelinePage() {
  const { auctionId = '' } = useParams();
  // Another auction is another reading, from its own start.
  return <TimelineLoader key={auctionId} auctionId={auctionId} />;
}

function TimelineLoader({ auctionId }: { auctionId: string }) {
  const [snapshot, send] = useMachine(timelineMachine, { input: { query: { auctionId } } });
  const { answer, error } = snapshot.context;
  return (
    <div className="audit timeline">
      <div className="timeline__head">
        <h1 className="admin__title">Auction timeline</h1>
        <p className="muted timeline__id">
          Auction <code>{auctionId}</code>
        </p>
      </div>
      {snapshot.matches('failed') && <FailedWithRetry message={error} onRetry={() => send({ type: 'RETRY' })} />}
      {snapshot.matches('loading') && <Spinner label="Loading the timeline" />}
      {answer && <TimelineView timeline={answer} />}
    </div>
  );
}

function TimelineView({ timeline }: { timeline: AuctionTimeline }) {
  const [params, setParams] = useSearchParams();
  const theme = useTheme();
  const last = timeline.steps.length - 1;
  const current = readStep(params, last);
  const step = timeline.steps[current];
  // The step is the URL's (a deep link opens at it); moving replaces the entry, so Back leaves the screen.
  const goTo = (next: number) =>
    setParams(
      (previous) => {
        const updated = new URLSearchParams(previous);
        updated.set('step', String(Math.min(Math.max(next, 0), last)));
        return updated;
      },
      { replace: true },
    );

  // Left and Right move a step from anywhere on the screen, except where they already mean something (a field, the slider).
  const onKey = useEffectEvent((event: KeyboardEvent) => {
    if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    const target = event.target as HTMLElement | null;
    if (target?.closest('input, textarea, select, [contenteditable="true"], [role="menu"]')) return;
    if (event.key === 'ArrowLeft' && current > 0) goTo(current - 1);
    else if (event.key === 'ArrowRight' && current < last) goTo(current + 1);
    else return;
    event.preventDefault();
  });
  useEffect(() => {
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  const refused = timeline.steps.filter((each) => each.kind === 'REFUSED');
  return (
    <>
      {/* A log that fails its check says so first. */}
      {integrityFailures(timeline).map((failure) => (
        <Banner key={failure} kind="error">
          {failure}
        </Banner>
      ))}
      <BundleDownload auctionId={timeline.auctionId} />
      <p className="timeline__links">
        <Link to={listingPath({ id: timeline.listingId, slug: null })}>The listing</Link>
        <Link to={`${AUDIT_LOG_PATH}?${new URLSearchParams({ stream: `auction-${timeline.auctionId}` })}`}>This auction’s events in the log</Link>
      </p>
      <RulesCard timeline={timeline} />
      {step && (
        <section className="card timeline__stepper" aria-labelledby="timeline-step-title">
          <Stepper current={current} last={last} onStep={goTo} />
          <div className="timeline__step">
            <StepDetails step={step} maximaRevealed={timeline.maximaRevealed} />
            <SummaryAfter summary={step.summary} refused={step.kind === 'REFUSED'} />
          </div>
        </section>
      )}
      <section className="card timeline__chart-card" aria-labelledby="timeline-chart-title">
        <h2 id="timeline-chart-title" className="timeline__section-title">
          Price over time
        </h2>
        <PriceChart key={theme} timeline={timeline} step={current} onSelect={goTo} />
        <ul className="timeline__legend" aria-label="Chart legend">
          <li>
            <span className="timeline__key timeline__key--price" aria-hidden="true" /> Price after each step
          </li>
          <li>
            <span className="timeline__key timeline__key--refused" aria-hidden="true">
              ✕
            </span>{' '}
            Refused attempt (amount tried)
          </li>
          <li>
            <span className="timeline__key timeline__key--extended" aria-hidden="true" /> End extended
          </li>
          <li>
            <span className="timeline__key timeline__key--closed" aria-hidden="true" /> Closed
          </li>
          <li>
            <span className="timeline__key timeline__key--current" aria-hidden="true" /> Step shown
          </li>
        </ul>
      </section>
      <div className="timeline__lists">
        <StepList title="Every step" steps={timeline.steps} current={current} onStep={goTo} empty="No steps." />
        <StepList title={`Refused attempts (${refused.length})`} steps={refused} current={current} onStep={goTo} empty="No attempt was refused." refusedList />
      </div>
    </>
  );
}

function Stepper({ current, last, onStep }: { current: number; last: number; onStep: (step: number) => void }) {
  const sliderId = useId();
  return (
    <div className="timeline__controls">
      <h2 id="timeline-step-title" className="timeline__position" aria-live="polite" data-testid="step-position">
        Step {current} of {last}
      </h2>
      <div className="timeline__scrubber">
        <button type="button" className="button" disabled={current === 0} onClick={() => onStep(current - 1)}>
          ← Previous
        </button>
        <label htmlFor={sliderId} className="visually-hidden">
          Step
        </label>
        <input id={sliderId} type="range" className="timeline__range" min={0} max={last} step={1} value={current} onChange={(event) => onStep(Number(event.target.value))} />
        <button type="button" className="button" disabled={current === last} onClick={() => onStep(current + 1)}>
          Next →
        </button>
      </div>
      <p className="muted timeline__keys">The Left and Right arrow keys move a step too.</p>
    </div>
  );
}

function StepDetails({ step, maximaRevealed }: { step: TimelineStep; maximaRevealed: boolean }) {
  const refused = step.kind === 'REFUSED';
  const tried = step.tried;
  return (
    <div className={`timeline__details${refused ? ' timeline__details--refused' : ''}`} data-testid="step-details">
      <p className="timeline__outcome">
        <span className={`timeline__badge timeline__badge--${refused ? 'refused' : step.outcome.toLowerCase()}`} data-testid="step-outcome">
          {OUTCOME_LABELS[step.outcome]}
        </span>{' '}
        <code className="timeline__type">{step.type}</code>
      </p>
      <dl className="timeline__facts">
        <div>
          <dt>When</dt>
          <dd>
            <time dateTime={step.at}>{formatUtc(step.at)}</time>
          </dd>
        </div>
        <div>
          <dt>Who</dt>
          <dd className="timeline__id-value" title={step.actorId}>
            {step.actorId}
          </dd>
        </div>
        {tried && (
          <div>
            <dt>Tried</dt>
            <dd data-testid="step-tried">
              {tried.attempt === 'BUY_NOW' ? 'Buy now' : 'A bid'}
              {tried.amount !== null && ` of ${formatUsd(tried.amount)}`}
              {tried.maximum !== null ? `, maximum ${formatUsd(tried.maximum)}` : !maximaRevealed && tried.attempt === 'BID' ? ' (any maximum is private while the auction runs)' : ''}
              {' by '}
              <span title={tried.bidderId}>{shortId(tried.bidderId)}</span>
            </dd>
          </div>
        )}
        <div>
          <dt>In the log</dt>
          <dd>
            Position <code>{step.position}</code>
            {step.revision !== null && (
              <>
                , revision <code>{step.revision}</code>
              </>
            )}{' '}
            · <Link to={`${AUDIT_LOG_PATH}?${new URLSearchParams({ correlation: step.correlationId })}`}>its correlation</Link>
          </dd>
        </div>
        <div className="timeline__chain">
          <dt>Hash chain</dt>
          <dd data-testid="step-chain">
            <LinkMarkBadge mark={step.integrity} />{' '}
            {step.hash === null ? <span className="muted">No hash: stored before events were hashed</span> : <code className="timeline__hash">{step.hash}</code>}
          </dd>
        </div>
      </dl>
      <h3 className="timeline__subtitle">Why</h3>
      <ul className="timeline__explanation" data-testid="step-explanation">
        {step.explanation.map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
    </div>
  );
}

const yesNo = (value: boolean) => (value ? 'Yes' : 'No');

function SummaryAfter({ summary, refused }: { summary: TimelineSummary; refused: boolean }) {
  const rows: ReadonlyArray<readonly [string, string, string?]> = [
    ['Price', formatUsd(summary.price), 'step-price'],
    ['Leader', summary.leaderId ?? 'No bid stands'],
    ['Minimum next bid', formatUsd(summary.minimumNextBid)],
    ['Ends', formatUtc(summary.endsAt)],
    ['Reserve met', summary.reserveMet === null ? 'No reserve' : yesNo(summary.reserveMet)],
    ['Buy now available', yesNo(summary.buyNowAvailable)],
    ['Status', STATUS_LABELS[summary.status]],
    ['Bids', String(summary.bidCount)],
  ];
  return (
    <div className="timeline__summary">
      {/* A refused attempt changes nothing: what it was judged against. */}
      <h3 className="timeline__subtitle">{refused ? 'The auction, unchanged' : 'The auction after this step'}</h3>
      <dl className="timeline__facts timeline__facts--summary">
        {rows.map(([label, value, testId]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd data-testid={testId} className={label === 'Leader' ? 'timeline__id-value' : undefined}>
              {value}
            </dd>
          </div>
        ))}
      </dl>
    </div>
  );
}

function RulesCard({ timeline }: { timeline: AuctionTimeline }) {
  const { rules } = timeline;
  const windowText = (seconds: number) => (seconds % 60 === 0 ? `${seconds / 60} ${seconds === 60 ? 'minute' : 'minutes'}` : `${seconds} seconds`);
  return (
    <section className="card timeline__rules" aria-labelledby="timeline-rules-title">
      <h2 id="timeline-rules-title" className="timeline__section-title">
        Rules, as scheduled
      </h2>
      <dl className="timeline__facts timeline__facts--rules">
        <div>
          <dt>Starting price</dt>
          <dd>{formatUsd(rules.startingPrice)}</dd>
        </div>
        <div>
          <dt>Schedule</dt>
          <dd>
            {formatUtc(rules.startsAt)} to {formatUtc(rules.scheduledEndsAt)}
          </dd>
        </div>
        <div>
          <dt>Soft close</dt>
          <dd>
            {rules.softClose
              ? `A bid in the last ${windowText(rules.softClose.windowSeconds)} moves the end; never past ${formatUtc(rules.softClose.latestEndsAt)}`
              : 'None: a hard close'}
          </dd>
        </div>
        <div>
          <dt>Reserve</dt>
          <dd>{rules.reservePrice === null ? 'None' : formatUsd(rules.reservePrice)}</dd>
        </div>
        <div>
          <dt>Buy now</dt>
          <dd>{rules.buyNowPrice === null ? 'None' : formatUsd(rules.buyNowPrice)}</dd>
        </div>
        <div>
          <dt>Increments</dt>
          <dd>
            <ul className="timeline__bands">
              {rules.incrementTable.map((band) => (
                <li key={band.from}>
                  {band.to === null ? `${formatUsd(band.from)} and up` : `${formatUsd(band.from)}–${formatUsd(band.to)}`}: at least {formatUsd(band.increment)} more
                </li>
              ))}
            </ul>
          </dd>
        </div>
      </dl>
    </section>
  );
}

function StepList({
  title,
  steps,
  current,
  onStep,
  empty,
  refusedList = false,
}: {
  title: string;
  steps: readonly TimelineStep[];
  current: number;
  onStep: (step: number) => void;
  empty: string;
  refusedList?: boolean;
}) {
  const titleId = useId();
  return (
    <section className="card timeline__list" aria-labelledby={titleId} data-testid={refusedList ? 'refused-attempts' : 'every-step'}>
      <h2 id={titleId} className="timeline__section-title">
        {title}
      </h2>
      {steps.length === 0 ? (
        <p className="muted">{empty}</p>
      ) : (
        <ol className="timeline__steps">
          {steps.map((each) => (
            <li key={each.step}>
              <button
                type="button"
                className={`timeline__step-button${each.kind === 'REFUSED' ? ' timeline__step-button--refused' : ''}`}
                aria-current={each.step === current ? 'step' : undefined}
                onClick={() => onStep(each.step)}
              >
                <span className="timeline__step-number">{each.step}</span>
                <span className="timeline__step-text">
                  <strong>{OUTCOME_LABELS[each.outcome]}</strong>
                  <span className="muted">
                    {refusedList && each.tried?.amount != null ? `${formatUsd(each.tried.amount)} tried · ` : ''}
                    {formatUtc(each.at)}
                  </span>
                  <span className="timeline__step-chain">
                    <LinkMarkBadge mark={each.integrity} /> <ShortHash hash={each.hash} />
                  </span>
                  {refusedList && <span className="timeline__step-why">{each.explanation[0]}</span>}
                </span>
                {!refusedList && <span className="timeline__step-price">{formatUsd(each.summary.price)}</span>}
              </button>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

/** The auction's audit bundle, saved under the server's name, and how to check it. */
function BundleDownload({ auctionId }: { auctionId: string }) {
  const [snapshot, send] = useMachine(bundleMachine);
  const { saved, error } = snapshot.context;
  const downloading = snapshot.matches('downloading');
  return (
    <div className="timeline__bundle">
      <div className="timeline__bundle-row">
        <button type="button" className="button" disabled={downloading} onClick={() => send({ type: 'DOWNLOAD', auctionId })} aria-describedby="timeline-bundle-hint">
          {downloading ? 'Downloading…' : 'Download audit bundle'}
        </button>
        <p id="timeline-bundle-hint" className="muted timeline__bundle-hint">
          Check it offline with <code>npm run audit:verify -- bundle.json</code>
        </p>
      </div>
      {error && (
        <Banner kind="error" onDismiss={() => send({ type: 'DISMISS' })}>
          {error}
        </Banner>
      )}
      {saved && (
        <Banner kind="success" onDismiss={() => send({ type: 'DISMISS' })}>
          Saved {saved}
        </Banner>
      )}
    </div>
  );
}

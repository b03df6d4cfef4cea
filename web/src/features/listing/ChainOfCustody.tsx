import { useMachine } from '@xstate/react';
import { assign, fromPromise, setup } from 'xstate';
import { Banner } from '../../components/Banner';
import { Spinner } from '../../components/Spinner';
import { Link } from 'react-router';
import { purchasePath } from '../../../../api/contracts/order-links';
import { fetchChainOfCustody, type ChainOfCustody as Custody } from './api';

/** One read of the public chain of custody (GET /api/public/nfc/{uid}), with Try Again. */
const custodyMachine = setup({
  types: { context: {} as { uid: string; custody: Custody | null; error: string | null }, events: {} as { type: 'RETRY' }, input: {} as { uid: string } },
  actors: {
    load: fromPromise(({ input }: { input: { uid: string } }) => fetchChainOfCustody(input.uid)),
  },
}).createMachine({
  initial: 'loading',
  context: ({ input }) => ({ uid: input.uid, custody: null, error: null }),
  states: {
    loading: {
      invoke: {
        src: 'load',
        input: ({ context }) => ({ uid: context.uid }),
        onDone: { target: 'loaded', actions: assign({ custody: ({ event }) => event.output, error: null }) },
        onError: {
          target: 'failed',
          actions: assign({ error: ({ event }) => (event.error instanceof Error && event.error.message ? event.error.message : 'Failed to load the chain of custody') }),
        },
      },
    },
    loaded: {},
    failed: { on: { RETRY: 'loading' } },
  },
});

/**
 * How a buyer checks an item: every step the tag and the item went through, read from the event
 * log by the API. Bids and people are never named there.
 */
export function ChainOfCustody({ uid }: { uid: string }) {
  const [snapshot, send] = useMachine(custodyMachine, { input: { uid } });
  const { custody, error } = snapshot.context;
  return (
    <section className="card listing__section listing__custody" id="chain-of-custody" aria-labelledby="custody-title">
      <h2 id="custody-title">Chain of custody</h2>
      <p className="muted listing__section-note">
        NFC tag <code>{uid}</code>: its verified history, from the record. Scan the tag on the item to check it matches.
      </p>
      {snapshot.matches('loading') && <Spinner label="Loading the chain of custody" />}
      {snapshot.matches('failed') && (
        <>
          <Banner kind="error">{error}</Banner>
          <button type="button" className="button" onClick={() => send({ type: 'RETRY' })}>
            Try Again
          </button>
        </>
      )}
      {custody &&
        (custody.history.length === 0 ? (
          <p className="muted">No steps recorded yet.</p>
        ) : (
          <ol className="custody">
            {custody.history.map((step) => (
              <li key={step.eventId} className="custody__step">
                <span className="custody__dot" aria-hidden="true" />
                <div>
                  <p className="custody__summary">{step.summary}</p>
                  <YourOrder details={step.details} />
                  <time className="muted custody__time" dateTime={step.at}>
                    {new Date(step.at).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' })}
                  </time>
                </div>
              </li>
            ))}
          </ol>
        ))}
    </section>
  );
}

/** On the buyer's own order's steps (the API adds them only for the signed-in buyer): their tracking number and a way to the order. */
function YourOrder({ details }: { details: Custody['history'][number]['details'] }) {
  const orderId = details.yourOrderId;
  if (typeof orderId !== 'string') return null;
  const carrier = typeof details.carrierAsEntered === 'string' ? details.carrierAsEntered : null;
  const tracking = typeof details.trackingNumber === 'string' ? [carrier, 'tracking', details.trackingNumber].filter(Boolean).join(' ') : null;
  return (
    <p className="custody__yours">
      Your purchase{tracking ? `: ${tracking}` : ''} · <Link to={purchasePath(orderId)}>See your order</Link>
    </p>
  );
}

import { useActorRef, useMachine, useSelector } from '@xstate/react';
import { useEffect, useId } from 'react';
import { Link } from 'react-router';
import { fromPromise, type ActorRefFrom } from 'xstate';
import { unlessAborted } from '../../../lib/api-client';
import { useAuth } from '../../../lib/auth/session';
import { saveFile } from '../../../lib/download';
import { formatUsd } from '../../../lib/money';
import { VERIFY_PATH } from '../../../lib/receipts/links';
import { formatReceiptTime, shortHash } from '../../../lib/receipts/receipt-check';
import { receiptCheckMachine } from '../../../lib/receipts/receipt-check-machine';
import { ReceiptCheckResult } from '../../../lib/receipts/ReceiptCheckResult';
import { fetchMyReceipts, type BidReceipt } from '../api';
import type { auctionPanelMachine } from './auction-panel-machine';
import { receiptsFile, receiptsFilename } from './receipts-list';
import { yourReceiptsMachine } from './your-receipts-machine';

const receiptsMachine = yourReceiptsMachine.provide({
  actors: {
    load: fromPromise(({ input, signal }: { input: { auctionId: string }; signal: AbortSignal }) => unlessAborted(signal, (aborted) => fetchMyReceipts(input.auctionId, aborted))),
  },
});

/**
 * "Your receipts", folded under the panel: a signed-in bidder's signed receipts for this auction,
 * each checked here on demand, all of them saved as one file. Nothing shows to anyone else.
 */
export function YourReceipts({ auctionId, panel }: { auctionId: string; panel: ActorRefFrom<typeof auctionPanelMachine> }) {
  const { user } = useAuth();
  const userId = user?.id ?? null;
  const actor = useActorRef(receiptsMachine, { input: { auctionId, userId } });
  const { receipts, error } = useSelector(actor, (snapshot) => snapshot.context);
  const failed = useSelector(actor, (snapshot) => snapshot.matches('failed'));
  const ids = useId();

  useEffect(() => actor.send({ type: 'USER.CHANGE', userId }), [actor, userId]);
  useEffect(() => {
    const subscription = panel.on('receiptIssued', ({ receipt }) => actor.send({ type: 'RECEIPT.ISSUED', receipt }));
    return () => subscription.unsubscribe();
  }, [actor, panel]);

  // Only a bidder of this auction has any: nobody else sees the section.
  if (receipts.length === 0 && !failed) return null;
  return (
    <details className="your-receipts" data-testid="your-receipts">
      <summary id={`${ids}-summary`} className="your-receipts__summary">
        Your receipts{receipts.length > 0 && <span className="muted"> ({receipts.length})</span>}
      </summary>
      <div className="your-receipts__body">
        {failed ? (
          <div className="your-receipts__failed">
            <p className="banner banner--error">{error}</p>
            <button type="button" className="button" onClick={() => actor.send({ type: 'RETRY' })}>
              Try Again
            </button>
          </div>
        ) : (
          <>
            <p className="muted your-receipts__about">
              Signed by Provenance when each bid was recorded. Keep them: anyone can check one against the auction’s public, signed log.
            </p>
            <ol className="your-receipts__list" aria-labelledby={`${ids}-summary`}>
              {receipts.map((receipt) => (
                <ReceiptItem key={receipt.bidId} receipt={receipt} />
              ))}
            </ol>
            <div className="your-receipts__actions">
              <button type="button" className="button" onClick={() => saveFile(receiptsFile(receipts), receiptsFilename(auctionId))}>
                Download receipts
              </button>
              <Link to={VERIFY_PATH}>Check a receipt</Link>
            </div>
          </>
        )}
      </div>
    </details>
  );
}

/** One receipt: what was bid, when, its event's hash, and its check. */
function ReceiptItem({ receipt }: { receipt: BidReceipt }) {
  const [snapshot, send] = useMachine(receiptCheckMachine, { input: { receipt } });
  const checking = snapshot.matches('checking');
  return (
    <li className="your-receipts__item" data-testid="receipt">
      <div className="your-receipts__facts">
        <span className="your-receipts__amount">{formatUsd(receipt.amount)}</span>
        <time className="muted your-receipts__time" dateTime={receipt.placedAt}>
          {formatReceiptTime(receipt.placedAt)}
        </time>
        <span className="muted your-receipts__hash">
          Hash{' '}
          <code title={receipt.hash}>
            <span aria-hidden="true">{shortHash(receipt.hash)}</span>
            <span className="visually-hidden">{receipt.hash}</span>
          </code>
        </span>
      </div>
      {/* Never disabled while it checks, so that the focus stays on it; a press then changes nothing. */}
      <button type="button" className="button your-receipts__verify" aria-busy={checking} onClick={() => send({ type: 'CHECK' })}>
        {checking ? 'Verifying…' : snapshot.matches('checked') ? 'Verify again' : 'Verify'}
        <span className="visually-hidden"> the {formatUsd(receipt.amount)} receipt</span>
      </button>
      <ReceiptCheckResult snapshot={snapshot} className="your-receipts__check" />
    </li>
  );
}

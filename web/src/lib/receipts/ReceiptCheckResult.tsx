import type { SnapshotFrom } from 'xstate';
import { receiptCheckText, type ReceiptCheck } from './receipt-check';
import type { receiptCheckMachine } from './receipt-check-machine';
import './receipt-check.css';

const LOOK: Record<ReceiptCheck['outcome'], { kind: 'success' | 'info' | 'error'; mark: string }> = {
  VERIFIED: { kind: 'success', mark: '✓' },
  PENDING: { kind: 'info', mark: '…' },
  FAILED: { kind: 'error', mark: '✕' },
};

/**
 * A receipt's check as it stands, in the app's banner colours (a failure in red). The region is
 * always there, so that a screen reader hears each result as it comes.
 */
export function ReceiptCheckResult({ snapshot, className = '' }: { snapshot: SnapshotFrom<typeof receiptCheckMachine>; className?: string }) {
  const { result, error } = snapshot.context;
  const look = result && LOOK[result.outcome];
  return (
    <div className={`receipt-check ${className}`.trim()} aria-live="polite" data-testid="receipt-check">
      {snapshot.matches('checking') ? (
        <p className="muted receipt-check__busy">Checking the receipt…</p>
      ) : error ? (
        <p className="banner banner--error receipt-check__result" data-outcome="ERROR">
          {error}
        </p>
      ) : (
        result &&
        look && (
          <p className={`banner banner--${look.kind} receipt-check__result`} data-outcome={result.outcome}>
            <span className="receipt-check__mark" aria-hidden="true">
              {look.mark}
            </span>
            <span>{receiptCheckText(result)}</span>
          </p>
        )
      )}
    </div>
  );
}

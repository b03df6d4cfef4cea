import { Banner } from './Banner';

/** A reading that failed: why, in the red banner, and Try Again beside it. */
export function FailedWithRetry({ message, onRetry }: { message: string | null; onRetry: () => void }) {
  return (
    <div className="failed-with-retry">
      <Banner kind="error">{message}</Banner>
      <button type="button" className="button" onClick={onRetry}>
        Try Again
      </button>
    </div>
  );
}

/** The account's followed items could not be read: the reason is in the app's notice (Layout), Try Again is here. */
export function FollowedListFailed({ onRetry }: { onRetry: () => void }) {
  return (
    <div className="empty-state">
      <h2>Your followed items could not be loaded</h2>
      <button type="button" className="button button--primary" onClick={onRetry}>
        Try Again
      </button>
    </div>
  );
}

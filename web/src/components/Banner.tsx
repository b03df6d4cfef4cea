import type { ReactNode } from 'react';

/** Errors in red, successes in green (spec section 8, "Presentation"); never a browser alert. */
export function Banner({ kind, children, onDismiss }: { kind: 'error' | 'success' | 'info'; children: ReactNode; onDismiss?: () => void }) {
  return (
    <div className={`banner banner--${kind}`} role={kind === 'error' ? 'alert' : 'status'}>
      <span>{children}</span>
      {onDismiss && (
        <button type="button" className="banner__dismiss" onClick={onDismiss} aria-label="Dismiss">
          ×
        </button>
      )}
    </div>
  );
}

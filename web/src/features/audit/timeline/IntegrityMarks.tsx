import type { LinkMark } from '../../../../../api/contracts/audit';
import { LINK_MARK_HINTS, LINK_MARK_LABELS } from './integrity';

const SYMBOLS: Record<LinkMark, string> = { VERIFIED: '✓', BROKEN: '✕', UNVERIFIED: '?' };

/** A step's place in its stream's hash chain: Verified (a check), Broken link (red) or Unverified. */
export function LinkMarkBadge({ mark }: { mark: LinkMark }) {
  return (
    <span className={`link-mark link-mark--${mark.toLowerCase()}`} title={LINK_MARK_HINTS[mark]} data-testid="link-mark">
      <span aria-hidden="true">{SYMBOLS[mark]}</span> {LINK_MARK_LABELS[mark]}
    </span>
  );
}

/** In the list of steps: its first 12 hex characters, the whole hash in the title (the step's details show it whole, to copy and to screen readers). */
export function ShortHash({ hash }: { hash: string | null }) {
  if (hash === null) return <span className="step-hash">no hash</span>;
  return (
    <code className="step-hash" title={hash} data-testid="step-hash">
      {hash.slice(0, 12)}
    </code>
  );
}

import type { AuctionTimeline, LinkMark } from '../../../../../api/contracts/audit';

/** The timeline's verifiable history in words: each step's link mark, and the streams that fail their check. */

export const LINK_MARK_LABELS: Record<LinkMark, string> = {
  VERIFIED: 'Verified',
  BROKEN: 'Broken link',
  UNVERIFIED: 'Unverified',
};

/** What each mark means, for its title and the legend. */
export const LINK_MARK_HINTS: Record<LinkMark, string> = {
  VERIFIED: 'Its hash covers its contents and it follows the event before it',
  BROKEN: 'The first event that does not match its hash or does not follow the one before it',
  UNVERIFIED: 'After a broken link: nothing vouches for it',
};

/** "The log of this auction fails its check at revision N: <problem>", one line per failing stream (the refused attempts named as such). */
export function integrityFailures(timeline: Pick<AuctionTimeline, 'integrity'>): string[] {
  return timeline.integrity
    .filter((stream) => !stream.valid)
    .map((stream) => {
      const log = stream.streamId.startsWith('auction_rejections-') ? "The log of this auction's refused attempts" : 'The log of this auction';
      const where = stream.firstInvalidRevision === null ? '' : ` at revision ${stream.firstInvalidRevision}`;
      return `${log} fails its check${where}: ${stream.problem ?? 'no reason given'}`;
    });
}

import { sql } from 'kysely';
import { isAuctionEvent } from '../../engine/domain';
import type { Projection } from '../projection';

/** One auction's share of a batch: events added to its log, whether it ended, its last checkpoint. */
interface Change {
  added: number;
  scheduled: boolean;
  closed: boolean;
  checkpoint: { signedSize: number; signedAt: string } | null;
  checkpoints: number;
}

/**
 * auction_logs: for each auction, how many events its log holds (its stream and its refused
 * attempts) and how many the last checkpoint signs, so that the checkpointer finds at once the
 * auctions it owes a checkpoint. Rows start with AuctionScheduled; refusals of an auction never
 * scheduled are not counted (there is no auction to sign).
 */
export const auctionLogsProjection: Projection = {
  name: 'auction_logs',
  async applyBatch(db, events) {
    const changes = new Map<string, Change>();
    const changeOf = (auctionId: string) => {
      const change = changes.get(auctionId) ?? { added: 0, scheduled: false, closed: false, checkpoint: null, checkpoints: 0 };
      changes.set(auctionId, change);
      return change;
    };
    for (const event of events) {
      if (isAuctionEvent(event) || event.type === 'BidRejected') {
        const change = changeOf(event.data.auctionId);
        change.added += 1;
        if (event.type === 'AuctionScheduled') change.scheduled = true;
        if (event.type === 'AuctionClosed' || event.type === 'AuctionCancelled') change.closed = true;
      } else if (event.type === 'LogCheckpointSigned') {
        const change = changeOf(event.data.auctionId);
        change.checkpoint = { signedSize: event.data.streams.reduce((sum, stream) => sum + stream.size, 0), signedAt: event.data.signedAt };
        change.checkpoints += 1;
      }
    }
    if (changes.size === 0) return;
    const rows = [...changes].map(([auctionId, change]) => ({
      auction_id: auctionId,
      added: change.added,
      scheduled: change.scheduled,
      closed: change.closed,
      signed_size: change.checkpoint?.signedSize ?? null,
      signed_at: change.checkpoint?.signedAt ?? null,
      checkpoints: change.checkpoints,
    }));
    // New rows only for auctions scheduled in this batch; the others add to the rows they have.
    await sql`
      INSERT INTO auction_logs AS log (auction_id, log_size, signed_size, signed_at, checkpoints, closed)
      SELECT auction_id, added, coalesce(signed_size, 0), signed_at, checkpoints, closed
      FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
        AS change(auction_id text, added integer, scheduled boolean, closed boolean, signed_size integer, signed_at timestamptz, checkpoints integer)
      WHERE scheduled OR EXISTS (SELECT 1 FROM auction_logs WHERE auction_logs.auction_id = change.auction_id)
      ON CONFLICT (auction_id) DO UPDATE SET
        -- A checkpoint counts every event it signs, refusals recorded before the auction existed included.
        log_size = greatest(log.log_size + excluded.log_size, CASE WHEN excluded.checkpoints > 0 THEN excluded.signed_size ELSE 0 END),
        signed_size = CASE WHEN excluded.checkpoints > 0 THEN excluded.signed_size ELSE log.signed_size END,
        signed_at = CASE WHEN excluded.checkpoints > 0 THEN excluded.signed_at ELSE log.signed_at END,
        checkpoints = log.checkpoints + excluded.checkpoints,
        closed = log.closed OR excluded.closed`.execute(db);
  },
};

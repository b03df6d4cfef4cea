import { listingDecider, listingStreamId, type ListingCommand } from '../../engine/domain';
import { runSystemCommand, systemMetadata, type LifecycleDependencies, type LifecycleLogger, type Outcome } from './system';

type AuctionOutcome = Extract<ListingCommand, { type: 'RecordAuctionOutcome' }>['data']['result'];

/**
 * The listing follows its auction: once an auction has ended (by time or by buy-now) or been
 * cancelled, its live listing becomes SOLD or UNSOLD. Driven by the read models rather than by a
 * subscription of its own, so that a restart (or a second process) simply finds what is left to do.
 */
export async function recordListingOutcomes(
  deps: LifecycleDependencies,
  now: Date,
  options: { limit: number; log: LifecycleLogger; reported: Set<string> },
): Promise<{ outcomes: Outcome[]; more: boolean }> {
  const finished = await deps.db
    .selectFrom('auctions as a')
    .innerJoin('listings as l', 'l.auction_id', 'a.id')
    .select(['a.id as auctionId', 'l.id as listingId', 'a.status', 'a.result', 'a.winner_id', 'a.final_price'])
    .where('a.status', 'in', ['ENDED', 'CANCELLED'])
    .where('l.status', '=', 'LIVE')
    .orderBy('a.id')
    .limit(options.limit)
    .execute();

  const outcomes = await Promise.all(
    finished.map((row) => {
      const result = (row.status === 'CANCELLED' ? 'CANCELLED' : row.result) as AuctionOutcome;
      const sold = result === 'SOLD';
      const command: ListingCommand = {
        type: 'RecordAuctionOutcome',
        data: {
          listingId: row.listingId,
          auctionId: row.auctionId,
          result,
          buyerId: sold ? row.winner_id : null,
          finalPrice: sold && row.final_price !== null ? Number(row.final_price) : null,
        },
        metadata: systemMetadata(now, row.auctionId, `lifecycle:outcome:${row.listingId}:${row.auctionId}`),
      };
      return runSystemCommand(
        `outcome ${row.listingId}`,
        () => deps.commands.handle(listingDecider, listingStreamId(row.listingId), command),
        // The listing moved on already (recorded by another worker, or withdrawn): nothing to do.
        { done: ['LISTING_NOT_LIVE', 'LISTING_NOT_FOUND'], retry: [] },
        options.log,
        options.reported,
      );
    }),
  );
  return { outcomes, more: finished.length === options.limit };
}

import type { Transaction } from 'kysely';
import { autoBidId, type AutoBid } from '../../engine/domain';
import type { Projection } from '../projection';
import type { ReadModels } from '../schema';

/**
 * bids: every bid in log order, as the bid history shows it: the bids bidders placed, the bids
 * their proxies placed for them (AUTO), and buy-now purchases. A retraction marks the bid; it
 * stays in the history. bid_rejections: refused attempts, so a bidder can see why.
 */
export const bidsProjection: Projection = {
  name: 'bids',
  async apply(db, event) {
    switch (event.type) {
      case 'BidPlaced': {
        const { auctionId, bidId, bidderId, amount, maximum, placedAt, autoBids } = event.data;
        await db
          .insertInto('bids')
          .values({ id: bidId, auction_id: auctionId, bidder_id: bidderId, kind: 'BID', amount, maximum, status: 'ACCEPTED', for_bid_id: null, placed_at: placedAt })
          .execute();
        await insertAutoBids(db, auctionId, bidId, autoBids, placedAt);
        return;
      }
      case 'MaximumBidRaised': {
        const { auctionId, bidId, bidderId, amount, maximum, placedAt, autoBids } = event.data;
        await db
          .insertInto('bids')
          .values({ id: bidId, auction_id: auctionId, bidder_id: bidderId, kind: 'MAXIMUM', amount, maximum, status: 'ACCEPTED', for_bid_id: null, placed_at: placedAt })
          .execute();
        await insertAutoBids(db, auctionId, bidId, autoBids, placedAt);
        return;
      }
      case 'BidRetracted':
        await db.updateTable('bids').set({ status: 'RETRACTED' }).where('id', '=', event.data.bidId).execute();
        // Bids a proxy placed on the strength of a retracted bid fall with it.
        await db.updateTable('bids').set({ status: 'RETRACTED' }).where('for_bid_id', '=', event.data.bidId).execute();
        return;
      case 'AuctionClosed': {
        const { auctionId, closedBy, winnerId, winningBidId, finalPrice, closedAt } = event.data;
        if (closedBy !== 'BUY_NOW' || winnerId === null || winningBidId === null || finalPrice === null) return;
        await db
          .insertInto('bids')
          .values({ id: winningBidId, auction_id: auctionId, bidder_id: winnerId, kind: 'BUY_NOW', amount: finalPrice, maximum: null, status: 'ACCEPTED', for_bid_id: null, placed_at: closedAt })
          .execute();
        return;
      }
      case 'BidRejected': {
        const { auctionId, bidId, bidderId, attempt, amount, code, message, attemptedAt } = event.data;
        await db
          .insertInto('bid_rejections')
          .values({ event_id: event.id, auction_id: auctionId, bid_id: bidId, bidder_id: bidderId, attempt, amount, code, message, attempted_at: attemptedAt })
          .execute();
        return;
      }
      default:
        return;
    }
  },
};

async function insertAutoBids(db: Transaction<ReadModels>, auctionId: string, bidId: string, autoBids: readonly AutoBid[], placedAt: string) {
  if (autoBids.length === 0) return;
  await db
    .insertInto('bids')
    .values(
      autoBids.map((auto, index) => ({
        id: autoBidId(bidId, index + 1),
        auction_id: auctionId,
        bidder_id: auto.bidderId,
        kind: 'AUTO' as const,
        amount: auto.amount,
        maximum: null,
        status: 'ACCEPTED' as const,
        for_bid_id: auto.forBidId,
        placed_at: placedAt,
      })),
    )
    .execute();
}

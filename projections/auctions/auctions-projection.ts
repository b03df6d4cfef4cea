import type { Transaction } from 'kysely';
import { buyNowOffered, minimumNextBid, type AuctionRules, type Standing } from '../../engine/domain';
import type { Projection } from '../projection';
import type { ReadModels } from '../schema';

/**
 * auctions: one row per auction with what a bidder needs (price, leader, minimum next bid, end,
 * reserve met, buy-now). It also mirrors price and end onto the auction's listing, which the
 * public listing pages sort and show by.
 */
export const auctionsProjection: Projection = {
  name: 'auctions',
  async apply(db, event) {
    const at = event.metadata.occurredAt;
    switch (event.type) {
      case 'AuctionScheduled': {
        const { auctionId, listingId, sellerId, startsAt, endsAt, rules } = event.data;
        const standing: Standing = { price: rules.startingPrice, leaderId: null, leadingBidId: null, leaderMaximum: null, reserveMet: rules.reservePrice === null ? null : false };
        await db
          .insertInto('auctions')
          .values({
            id: auctionId,
            listing_id: listingId,
            seller_id: sellerId,
            status: 'PENDING',
            starts_at: startsAt,
            ends_at: endsAt,
            scheduled_ends_at: endsAt,
            starting_price: rules.startingPrice,
            current_price: rules.startingPrice,
            minimum_next_bid: minimumNextBid(rules, standing),
            leader_id: null,
            leading_bid_id: null,
            bid_count: 0,
            reserve_price: rules.reservePrice,
            reserve_met: standing.reserveMet,
            buy_now_price: rules.buyNowPrice,
            buy_now_available: buyNowOffered(rules, standing, 0),
            increment_table: JSON.stringify(rules.incrementTable),
            soft_close: JSON.stringify(rules.softClose),
            updated_at: at,
          })
          .execute();
        await db
          .updateTable('listings')
          .set({ auction_id: auctionId, auction_ends_at: endsAt, price: rules.startingPrice, updated_at: at })
          .where('id', '=', listingId)
          .execute();
        return;
      }
      case 'AuctionOpened':
        await db.updateTable('auctions').set({ status: 'ACTIVE', updated_at: at }).where('id', '=', event.data.auctionId).execute();
        return;
      case 'BidPlaced':
      case 'MaximumBidRaised':
      case 'BidRetracted':
        await applyStanding(db, event.data.auctionId, event.data.standing, event.type === 'BidPlaced' ? 1 : 0, at);
        return;
      case 'AuctionExtended': {
        const { auctionId, endsAt } = event.data;
        const auction = await db.updateTable('auctions').set({ ends_at: endsAt, updated_at: at }).where('id', '=', auctionId).returning('listing_id').executeTakeFirst();
        if (auction) await db.updateTable('listings').set({ auction_ends_at: endsAt, updated_at: at }).where('id', '=', auction.listing_id).execute();
        return;
      }
      case 'AuctionClosed': {
        const { auctionId, result, winnerId, winningBidId, finalPrice, closedAt, closedBy } = event.data;
        const auction = await db
          .updateTable('auctions')
          .set({
            status: 'ENDED',
            result,
            winner_id: winnerId,
            winning_bid_id: winningBidId,
            final_price: finalPrice,
            closed_at: closedAt,
            closed_by: closedBy,
            buy_now_available: false,
            ...(finalPrice === null ? {} : { current_price: finalPrice }),
            updated_at: at,
          })
          .where('id', '=', auctionId)
          .returning('listing_id')
          .executeTakeFirst();
        if (auction && finalPrice !== null) {
          await db.updateTable('listings').set({ price: finalPrice, updated_at: at }).where('id', '=', auction.listing_id).execute();
        }
        return;
      }
      case 'AuctionCancelled':
        await db
          .updateTable('auctions')
          .set({ status: 'CANCELLED', cancellation_reason: event.data.reason, buy_now_available: false, updated_at: at })
          .where('id', '=', event.data.auctionId)
          .execute();
        return;
      default:
        return;
    }
  },
};

async function applyStanding(db: Transaction<ReadModels>, auctionId: string, standing: Standing, newBids: number, at: string): Promise<void> {
  const row = await db.selectFrom('auctions').selectAll().where('id', '=', auctionId).executeTakeFirst();
  if (!row) return;
  const rules = rulesOf(row);
  const bidCount = row.bid_count + newBids;
  await db
    .updateTable('auctions')
    .set({
      current_price: standing.price,
      minimum_next_bid: minimumNextBid(rules, standing),
      leader_id: standing.leaderId,
      leading_bid_id: standing.leadingBidId,
      reserve_met: standing.reserveMet,
      bid_count: bidCount,
      buy_now_available: buyNowOffered(rules, standing, bidCount),
      updated_at: at,
    })
    .where('id', '=', auctionId)
    .execute();
  await db.updateTable('listings').set({ price: standing.price, updated_at: at }).where('id', '=', row.listing_id).execute();
}

/** The auction's rules as recorded in its row (jsonb arrives parsed from pg, as text from some drivers). */
function rulesOf(row: { increment_table: unknown; starting_price: unknown; reserve_price: unknown; buy_now_price: unknown; soft_close: unknown }): AuctionRules {
  const parsed = <T>(value: unknown): T => (typeof value === 'string' ? JSON.parse(value) : value) as T;
  return {
    currency: 'USD',
    startingPrice: Number(row.starting_price),
    incrementTable: parsed<AuctionRules['incrementTable']>(row.increment_table),
    softClose: parsed<AuctionRules['softClose']>(row.soft_close),
    reservePrice: row.reserve_price === null ? null : Number(row.reserve_price),
    buyNowPrice: row.buy_now_price === null ? null : Number(row.buy_now_price),
  };
}

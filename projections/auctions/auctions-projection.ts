import type { Insertable, Selectable } from 'kysely';
import {
  assertNever,
  evolveAuctionSummary,
  initialAuctionSummary,
  isAuctionEvent,
  toMillis,
  type AuctionRules,
  type AuctionSummary,
  type Instant,
} from '../../engine/domain';
import type { Projection } from '../projection';
import type { AuctionsTable } from '../schema';

/**
 * auctions: one row per auction, the engine's auction summary (price, leader, minimum next bid,
 * end, reserve met, buy-now, outcome) as columns: each event turns the row into a summary, evolves
 * it and writes it back. It also mirrors price and end onto the auction's listing, which the
 * public listing pages sort and show by.
 */
export const auctionsProjection: Projection = {
  name: 'auctions',
  async apply(db, event) {
    if (!isAuctionEvent(event)) return;
    const { auctionId } = event.data;
    const row = await db.selectFrom('auctions').selectAll().where('id', '=', auctionId).executeTakeFirst();
    const before = row ? auctionSummaryOf(row) : initialAuctionSummary;
    const after = evolveAuctionSummary(before, event);
    if (after.status === 'UNSCHEDULED') return; // news of an auction never scheduled
    const at = event.metadata.occurredAt;
    const values = auctionRowOf(after, at);
    if (row) await db.updateTable('auctions').set(values).where('id', '=', auctionId).execute();
    else await db.insertInto('auctions').values(values).execute();
    if (before.status === 'UNSCHEDULED' || before.price !== after.price || toMillis(before.endsAt) !== toMillis(after.endsAt)) {
      await db
        .updateTable('listings')
        .set({ auction_id: auctionId, price: after.price, auction_ends_at: after.endsAt, updated_at: at })
        .where('id', '=', after.listingId)
        .execute();
    }
  },
};

/** An auctions row, read back as the summary it stores. */
export function auctionSummaryOf(row: Selectable<AuctionsTable>): AuctionSummary {
  const summary = {
    auctionId: row.id,
    listingId: row.listing_id,
    sellerId: row.seller_id,
    startsAt: instantOf(row.starts_at),
    rules: rulesOf(row),
    endsAt: instantOf(row.ends_at),
    scheduledEndsAt: instantOf(row.scheduled_ends_at),
    price: Number(row.current_price),
    leaderId: row.leader_id,
    leadingBidId: row.leading_bid_id,
    reserveMet: row.reserve_met,
    minimumNextBid: Number(row.minimum_next_bid),
    bidCount: row.bid_count,
    buyNowAvailable: row.buy_now_available,
    version: row.version,
  };
  switch (row.status) {
    case 'PENDING':
    case 'ACTIVE':
      return { ...summary, status: row.status };
    case 'ENDED':
      return {
        ...summary,
        status: 'ENDED',
        closing: {
          auctionId: row.id,
          closedAt: instantOf(stored(row.closed_at, 'closed_at')),
          closedBy: stored(row.closed_by, 'closed_by'),
          result: stored(row.result, 'result'),
          winnerId: row.winner_id,
          winningBidId: row.winning_bid_id,
          finalPrice: row.final_price === null ? null : Number(row.final_price),
        },
      };
    case 'CANCELLED':
      return { ...summary, status: 'CANCELLED', cancellationReason: stored(row.cancellation_reason, 'cancellation_reason') };
    default:
      return assertNever(row.status);
  }
}

/** The row that stores `summary`, as of the event at `updatedAt`. */
function auctionRowOf(summary: AuctionSummary, updatedAt: Instant): Insertable<AuctionsTable> {
  const { rules } = summary;
  const closing = summary.status === 'ENDED' ? summary.closing : null;
  return {
    id: summary.auctionId,
    listing_id: summary.listingId,
    seller_id: summary.sellerId,
    status: summary.status,
    starts_at: summary.startsAt,
    ends_at: summary.endsAt,
    scheduled_ends_at: summary.scheduledEndsAt,
    starting_price: rules.startingPrice,
    current_price: summary.price,
    minimum_next_bid: summary.minimumNextBid,
    leader_id: summary.leaderId,
    leading_bid_id: summary.leadingBidId,
    bid_count: summary.bidCount,
    reserve_price: rules.reservePrice,
    reserve_met: summary.reserveMet,
    buy_now_price: rules.buyNowPrice,
    buy_now_available: summary.buyNowAvailable,
    increment_table: JSON.stringify(rules.incrementTable),
    soft_close: JSON.stringify(rules.softClose),
    result: closing?.result ?? null,
    winner_id: closing?.winnerId ?? null,
    winning_bid_id: closing?.winningBidId ?? null,
    final_price: closing?.finalPrice ?? null,
    closed_at: closing?.closedAt ?? null,
    closed_by: closing?.closedBy ?? null,
    cancellation_reason: summary.status === 'CANCELLED' ? summary.cancellationReason : null,
    version: summary.version,
    updated_at: updatedAt,
  };
}

/** The auction's rules as recorded in its row (jsonb arrives parsed from pg, as text from some drivers). */
function rulesOf(row: Selectable<AuctionsTable>): AuctionRules {
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

function instantOf(timestamp: Date | string): Instant {
  return new Date(timestamp).toISOString();
}

/** A column the row's status says is filled; a gap means the row was not written by this projection. */
function stored<T>(value: T | null, column: string): T {
  if (value === null) throw new Error(`auctions row without ${column}`);
  return value;
}

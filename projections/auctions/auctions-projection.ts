import { sql, type Insertable, type Selectable, type Transaction } from 'kysely';
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
import { statementSized, type Projection } from '../projection';
import type { AuctionsTable, ReadModels } from '../schema';

/**
 * auctions: one row per auction, the engine's auction summary (price, leader, minimum next bid,
 * end, reserve met, buy-now, outcome) as columns. A batch reads the rows of the auctions it
 * touches, evolves each summary over its events in memory and writes the rows back in one
 * upsert (split only past PostgreSQL's parameter limit). It also mirrors price and end onto the
 * auction's listing, which the public listing pages sort and show by: once per listing per batch,
 * as the last of its events that moved them left them.
 */
export const auctionsProjection: Projection = {
  name: 'auctions',
  async applyBatch(db, events) {
    const auctionEvents = events.filter(isAuctionEvent);
    if (auctionEvents.length === 0) return;
    const touched = [...new Set(auctionEvents.map((event) => event.data.auctionId))];
    const stored = await db.selectFrom('auctions').selectAll().where((eb) => eb('id', '=', eb.fn.any(eb.val(touched)))).execute();
    const summaries = new Map(stored.map((row) => [row.id, auctionSummaryOf(row)]));
    const changed = new Map<string, { summary: AuctionSummary; at: Instant }>();
    const mirrors = new Map<string, ListingMirror>();
    for (const event of auctionEvents) {
      const { auctionId } = event.data;
      const before = summaries.get(auctionId) ?? initialAuctionSummary;
      const after = evolveAuctionSummary(before, event);
      if (after.status === 'UNSCHEDULED') continue; // news of an auction never scheduled
      const at = event.metadata.occurredAt;
      summaries.set(auctionId, after);
      changed.set(auctionId, { summary: after, at });
      if (before.status === 'UNSCHEDULED' || before.price !== after.price || toMillis(before.endsAt) !== toMillis(after.endsAt)) {
        mirrors.set(after.listingId, { listingId: after.listingId, auctionId, price: after.price, endsAt: after.endsAt, at });
      }
    }
    await upsertAuctions(db, [...changed.values()].map(({ summary, at }) => auctionRowOf(summary, at)));
    await mirrorOntoListings(db, [...mirrors.values()]);
  },
};

/** What an auction shows on its listing. */
interface ListingMirror {
  readonly listingId: string;
  readonly auctionId: string;
  readonly price: number;
  readonly endsAt: Instant;
  readonly at: Instant;
}

async function upsertAuctions(db: Transaction<ReadModels>, rows: readonly Insertable<AuctionsTable>[]): Promise<void> {
  if (rows.length === 0) return;
  const columns = Object.keys(rows[0]!) as (keyof AuctionsTable & string)[];
  for (const slice of statementSized(rows, columns.length)) {
    await db
      .insertInto('auctions')
      .values(slice)
      .onConflict((oc) =>
        oc.column('id').doUpdateSet((eb) => Object.fromEntries(columns.filter((column) => column !== 'id').map((column) => [column, eb.ref(`excluded.${column}`)]))),
      )
      .execute();
  }
}

async function mirrorOntoListings(db: Transaction<ReadModels>, mirrors: readonly ListingMirror[]): Promise<void> {
  for (const slice of statementSized(mirrors, 5)) {
    // Parameters in VALUES have no type of their own: each is cast to its column's.
    const rows = slice.map((m) => sql`(${m.listingId}, ${m.auctionId}, ${m.price}::bigint, ${m.endsAt}::timestamptz, ${m.at}::timestamptz)`);
    const mirror = sql<{ listing_id: string; auction_id: string; price: number; auction_ends_at: string; updated_at: string }>`(VALUES ${sql.join(rows)})`.as<'mirror'>(
      sql`mirror(listing_id, auction_id, price, auction_ends_at, updated_at)`,
    );
    await db
      .updateTable('listings')
      .from(mirror)
      .set((eb) => ({
        auction_id: eb.ref('mirror.auction_id'),
        price: eb.ref('mirror.price'),
        auction_ends_at: eb.ref('mirror.auction_ends_at'),
        updated_at: eb.ref('mirror.updated_at'),
      }))
      .whereRef('listings.id', '=', 'mirror.listing_id')
      .execute();
  }
}

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
    buyers_premium_basis_points: rules.buyersPremiumBasisPoints ?? null,
    payment_window_seconds: rules.paymentWindowSeconds ?? null,
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
    ...(row.buyers_premium_basis_points === null ? {} : { buyersPremiumBasisPoints: row.buyers_premium_basis_points }),
    ...(row.payment_window_seconds === null ? {} : { paymentWindowSeconds: row.payment_window_seconds }),
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

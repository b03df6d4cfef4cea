import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { ListingStatus } from '../../../engine/domain';
import { PUBLIC_BID_KINDS } from '../../bids/queries';
import { topLotStatusSchema, type TopLotStatus } from '../../contracts/admin/analytics';
import type { Database } from '../../database';

/**
 * The admin dashboard's figures, aggregated in SQL over the read models (listings, auctions, bids,
 * nfc_tags). Counts and sums come back as strings from node-postgres and as numbers from PGlite:
 * everything is read with Number(). Money stays in cents here; the route speaks dollars.
 */

/** Listings still on their way to the sale: written, saved, or saved with their tag bound. */
export const PENDING_LISTING_STATUSES = ['DRAFT', 'SAVED', 'NFC_BOUND'] as const satisfies readonly ListingStatus[];

/**
 * Listings that ought to carry an NFC tag: a saved listing needs one before it can be published,
 * and a live or sold item keeps its tag (the engine refuses to unbind it). Drafts cannot be bound
 * yet; unsold and withdrawn items have left the sale and may give their tag back.
 */
export const TAG_REQUIRED_LISTING_STATUSES = ['SAVED', 'NFC_BOUND', 'LIVE', 'SOLD'] as const satisfies readonly ListingStatus[];

/** Top lots are the lots with a real price: live auctions at their current price, sold ones at the final price. */
const TOP_LOT_LISTING_STATUSES = topLotStatusSchema.options;

/**
 * A bid, for the figures, is what the public bid history shows: bids placed by bidders (BID), by
 * their maximums (AUTO), and buy-now purchases. A MAXIMUM row is a leader privately raising their
 * own maximum: it moves no price and nobody sees it, so counting it would inflate activity.
 * Retracted bids do not count: the auction replayed as if they had never been placed.
 */
const COUNTED_BID_KINDS = PUBLIC_BID_KINDS;

export interface ListingStatusCount {
  readonly status: string;
  readonly listings: number;
  /** Of those, the listings with an NFC tag bound. */
  readonly withTag: number;
}

export interface DailyFigure {
  /** YYYY-MM-DD, in UTC. */
  readonly day: string;
  readonly value: number;
}

export interface TopLotRow {
  readonly listingId: string;
  readonly slug: string;
  readonly title: string;
  readonly status: TopLotStatus;
  readonly auctionId: string;
  readonly priceCents: number;
  readonly bidCount: number;
  readonly endsAt: Date;
}

export interface AnalyticsFigures {
  readonly listingsByStatus: ListingStatusCount[];
  readonly tagsByStatus: { readonly status: string; readonly tags: number }[];
  readonly sales: { readonly itemsSold: number; readonly revenueCents: number };
  readonly bidsPerDay: DailyFigure[];
  readonly revenueCentsPerDay: DailyFigure[];
  readonly topLots: TopLotRow[];
}

export interface AnalyticsWindow {
  /** The first day of the series, at 00:00 UTC. */
  readonly from: Date;
  /** The day after the last one, at 00:00 UTC (exclusive). */
  readonly until: Date;
  readonly topLots: number;
}

/**
 * Every figure from one read-only snapshot, so that they agree with one another (revenue with top
 * lots, sold items with sales) even while the projections write.
 */
export async function readAnalytics(db: Kysely<Database>, window: AnalyticsWindow): Promise<AnalyticsFigures> {
  return db
    .transaction()
    .setIsolationLevel('repeatable read')
    .setAccessMode('read only')
    .execute(async (trx) => ({
      listingsByStatus: await listingsByStatus(trx),
      tagsByStatus: await tagsByStatus(trx),
      sales: await salesTotals(trx),
      bidsPerDay: await bidsPerDay(trx, window),
      revenueCentsPerDay: await revenueCentsPerDay(trx, window),
      topLots: await topLots(trx, window.topLots),
    }));
}

async function listingsByStatus(db: Kysely<Database>): Promise<ListingStatusCount[]> {
  const rows = await db
    .selectFrom('listings')
    .select((eb) => ['status', eb.fn.countAll<string | number>().as('listings'), eb.fn.count<string | number>('nfc_uid').as('with_tag')])
    .groupBy('status')
    .execute();
  return rows.map((row) => ({ status: row.status, listings: Number(row.listings), withTag: Number(row.with_tag) }));
}

async function tagsByStatus(db: Kysely<Database>) {
  const rows = await db
    .selectFrom('nfc_tags')
    .select((eb) => ['status', eb.fn.countAll<string | number>().as('tags')])
    .groupBy('status')
    .execute();
  return rows.map((row) => ({ status: row.status, tags: Number(row.tags) }));
}

/**
 * Sales of all time: orders paid in full, and what they brought in (hammer price, buyer's premium and
 * shipping). A lot that sold but was never paid for is no sale; a second chance that was paid is.
 */
async function salesTotals(db: Kysely<Database>) {
  const row = await db
    .selectFrom('orders')
    .select((eb) => [eb.fn.countAll<string | number>().as('items_sold'), eb.fn.coalesce(eb.fn.sum<string | number>(orderTotal), sql<number>`0`).as('revenue')])
    .where('paid_at', 'is not', null)
    .executeTakeFirstOrThrow();
  return { itemsSold: Number(row.items_sold), revenueCents: Number(row.revenue) };
}

/** What an order comes to, in cents: hammer price, premium and shipping. */
const orderTotal = sql<number>`hammer_price + buyers_premium + shipping`;

/** The UTC calendar day of a timestamptz column, as YYYY-MM-DD. */
function utcDay(column: string): RawBuilder<string> {
  return sql<string>`to_char(date_trunc('day', ${sql.ref(column)} AT TIME ZONE 'UTC'), 'YYYY-MM-DD')`;
}

/** Days without a bid are absent here; the route fills them with zeros. */
async function bidsPerDay(db: Kysely<Database>, window: AnalyticsWindow): Promise<DailyFigure[]> {
  const day = utcDay('placed_at');
  const rows = await db
    .selectFrom('bids')
    .select((eb) => [day.as('day'), eb.fn.countAll<string | number>().as('bids')])
    .where('kind', 'in', COUNTED_BID_KINDS)
    .where('status', '=', 'ACCEPTED')
    .where('placed_at', '>=', window.from)
    .where('placed_at', '<', window.until)
    .groupBy(day)
    .execute();
  return rows.map((row) => ({ day: row.day, value: Number(row.bids) }));
}

/** A sale counts on the day its order was paid in full. */
async function revenueCentsPerDay(db: Kysely<Database>, window: AnalyticsWindow): Promise<DailyFigure[]> {
  const day = utcDay('paid_at');
  const rows = await db
    .selectFrom('orders')
    .select((eb) => [day.as('day'), eb.fn.sum<string | number>(orderTotal).as('revenue')])
    .where('paid_at', '>=', window.from)
    .where('paid_at', '<', window.until)
    .groupBy(day)
    .execute();
  return rows.map((row) => ({ day: row.day, value: Number(row.revenue) }));
}

/** Highest price first; among equal prices the busier lot, then the one ending first. */
async function topLots(db: Kysely<Database>, limit: number): Promise<TopLotRow[]> {
  const rows = await db
    .selectFrom('listings')
    .innerJoin('auctions', 'auctions.id', 'listings.auction_id')
    .leftJoin(
      (eb) =>
        eb
          .selectFrom('bids')
          .select((inner) => ['auction_id', inner.fn.countAll<string | number>().as('bids')])
          .where('kind', 'in', COUNTED_BID_KINDS)
          .where('status', '=', 'ACCEPTED')
          .groupBy('auction_id')
          .as('counted'),
      (join) => join.onRef('counted.auction_id', '=', 'auctions.id'),
    )
    .select((eb) => [
      'listings.id',
      'listings.slug',
      'listings.title',
      'listings.status',
      'auctions.id as auction_id',
      'auctions.ends_at',
      eb.fn.coalesce('auctions.final_price', 'auctions.current_price').as('price'),
      eb.fn.coalesce('counted.bids', sql<number>`0`).as('bid_count'),
    ])
    .where('listings.status', 'in', TOP_LOT_LISTING_STATUSES)
    .$narrowType<{ status: TopLotStatus }>()
    .orderBy('price', 'desc')
    .orderBy('bid_count', 'desc')
    .orderBy('auctions.ends_at', 'asc')
    .orderBy('listings.id', 'asc')
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    listingId: row.id,
    slug: row.slug,
    title: row.title,
    status: row.status,
    auctionId: row.auction_id,
    priceCents: Number(row.price),
    bidCount: Number(row.bid_count),
    endsAt: row.ends_at,
  }));
}

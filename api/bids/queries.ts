import type { Kysely, Selectable } from 'kysely';
import type { BidRejectionsTable, BidsTable } from '../../projections/schema';
import type { Database } from '../database';

export type BidRow = Selectable<BidsTable>;
export type BidRejectionRow = Selectable<BidRejectionsTable>;

/** What anyone may see of an auction's bids. MAXIMUM rows are a leader's private raises of their own maximum. */
export const PUBLIC_BID_KINDS = ['BID', 'AUTO', 'BUY_NOW'] as const;

export interface Page {
  readonly limit: number;
  readonly offset: number;
}

export async function findBid(db: Kysely<Database>, bidId: string): Promise<BidRow | undefined> {
  return db.selectFrom('bids').selectAll().where('id', '=', bidId).executeTakeFirst();
}

export async function auctionExists(db: Kysely<Database>, auctionId: string): Promise<boolean> {
  const row = await db.selectFrom('auctions').select('id').where('id', '=', auctionId).executeTakeFirst();
  return row !== undefined;
}

/** Newest first: the log's order, which the bids table keeps in `sequence`. */
export async function auctionBidHistory(db: Kysely<Database>, auctionId: string, page: Page): Promise<{ rows: BidRow[]; total: number }> {
  const visible = db.selectFrom('bids').where('auction_id', '=', auctionId).where('kind', 'in', PUBLIC_BID_KINDS);
  const [rows, counted] = await Promise.all([
    visible.selectAll().orderBy('sequence', 'desc').limit(page.limit).offset(page.offset).execute(),
    visible.select((eb) => eb.fn.countAll<string | number>().as('total')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(counted.total) };
}

/** A bidder's own bids with where each auction stands: every kind, their maximums included. */
export async function userBidHistory(db: Kysely<Database>, bidderId: string, page: Page) {
  return db
    .selectFrom('bids')
    .leftJoin('auctions', 'auctions.id', 'bids.auction_id')
    .leftJoin('listings', 'listings.id', 'auctions.listing_id')
    .selectAll('bids')
    .select([
      'auctions.listing_id',
      'auctions.status as auction_status',
      'auctions.current_price',
      'auctions.leader_id',
      'auctions.ends_at',
      'auctions.result',
      'auctions.winner_id',
      'listings.title as listing_title',
      'listings.slug as listing_slug',
    ])
    .where('bids.bidder_id', '=', bidderId)
    .orderBy('bids.sequence', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}
export type UserBidRow = Awaited<ReturnType<typeof userBidHistory>>[number];

export async function userBidRejections(db: Kysely<Database>, bidderId: string, page: Page): Promise<BidRejectionRow[]> {
  return db
    .selectFrom('bid_rejections')
    .selectAll()
    .where('bidder_id', '=', bidderId)
    .orderBy('sequence', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

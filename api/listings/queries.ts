import { sql, type Kysely, type Selectable } from 'kysely';
import type { ListingDetails, ListingStatus } from '../../engine/domain';
import type { AuctionsTable, ListingsTable } from '../../projections/schema';
import type { Database } from '../database';

export type ListingRow = Selectable<ListingsTable>;
export type AuctionRow = Selectable<AuctionsTable>;

/**
 * What the public sees: published listings and their outcome. Drafts, saved and NFC-bound
 * listings are the admin's work in progress; withdrawn ones were taken off the market.
 */
export const PUBLIC_LISTING_STATUSES = ['LIVE', 'SOLD', 'UNSOLD'] as const;

export const LISTING_SORT_FIELDS = ['createdAt', 'price', 'title', 'endsAt'] as const;
export type ListingSortField = (typeof LISTING_SORT_FIELDS)[number];

export interface ListingSearch {
  readonly page: number;
  readonly size: number;
  /** null: every status (the admin's view). */
  readonly status: ListingStatus | null;
  readonly search: string | undefined;
  readonly category: ListingDetails['category'] | undefined;
  /** Any of these tags (SIGNED and AUTOGRAPHED match each other); undefined or empty: no tag filter. */
  readonly tags?: readonly string[] | undefined;
  readonly sort: { readonly field: ListingSortField; readonly direction: 'asc' | 'desc' };
}

const SORT_COLUMN = {
  createdAt: 'created_at',
  price: 'price',
  title: 'title',
  endsAt: 'auction_ends_at',
} as const satisfies Record<ListingSortField, keyof ListingsTable>;

/**
 * An item signed by the player is tagged either way; the marketplace's "Signed" chip means both.
 * Its filter, `tags ?| array['SIGNED', 'AUTOGRAPHED']` in this order, is the predicate of the
 * listings_signed_* indexes (projections/migrations/2026-11-25T1200-listing-sort-indexes.ts):
 * PostgreSQL uses a partial index only for the very same expression.
 */
const TAG_SYNONYMS: Readonly<Record<string, readonly string[]>> = {
  SIGNED: ['SIGNED', 'AUTOGRAPHED'],
  AUTOGRAPHED: ['SIGNED', 'AUTOGRAPHED'],
};

/** The marketplace's search, and the admin's: the public passes a public status, the admin any or none. */
export async function searchListings(db: Kysely<Database>, criteria: ListingSearch): Promise<{ rows: ListingRow[]; total: number }> {
  const { page, count } = listingSearchQueries(db, criteria);
  const [rows, counted] = await Promise.all([page.execute(), count.executeTakeFirstOrThrow()]);
  return { rows, total: Number(counted.total) };
}

/**
 * The two statements of a search: the page of rows, and the count of all that match. Each
 * filter and sort the marketplace sends has an index in this very order (status or category
 * first, then the sort column, then id), so that a page is read from the index, never sorted.
 */
export function listingSearchQueries(db: Kysely<Database>, criteria: ListingSearch) {
  let matching = db.selectFrom('listings');
  if (criteria.status !== null) matching = matching.where('status', '=', criteria.status);
  if (criteria.category) matching = matching.where('category', '=', criteria.category);
  if (criteria.tags && criteria.tags.length > 0) {
    // tags is a JSONB array of strings: ?| is true when it holds any of the given strings.
    const wanted = [...new Set(criteria.tags.flatMap((tag) => TAG_SYNONYMS[tag] ?? [tag]))];
    matching = matching.where(sql<boolean>`tags ?| array[${sql.join(wanted)}]::text[]`);
  }
  if (criteria.search) {
    // search_text is lower-cased player, team, title and description under a trigram index.
    matching = matching.where(sql<boolean>`search_text LIKE ${`%${escapeLike(criteria.search.toLowerCase())}%`}`);
  }
  const { field, direction } = criteria.sort;
  const column = SORT_COLUMN[field];
  return {
    page: matching
      .selectAll()
      // Only the end can be missing (a listing without an auction): last whichever the direction.
      // Ascending, that is PostgreSQL's own order; descending, it is an order no index here
      // follows, taken only by the API's endsAt,desc, which no screen sends. The other columns are
      // NOT NULL: saying NULLS LAST for them would stop PostgreSQL from reading an index backwards.
      .orderBy(column, (order) => (direction === 'asc' ? order.asc() : column === 'auction_ends_at' ? order.desc().nullsLast() : order.desc()))
      // A stable order, so that paging never repeats or skips a listing; in the sort's direction,
      // so that one index serves both directions.
      .orderBy('id', direction)
      .limit(criteria.size)
      .offset(criteria.page * criteria.size),
    count: matching.select((eb) => eb.fn.countAll<string | number>().as('total')),
  };
}

/** A public listing by its slug or its id (the detail page links by slug, falling back to id). */
export async function findPublicListing(db: Kysely<Database>, slugOrId: string): Promise<ListingRow | undefined> {
  return db
    .selectFrom('listings')
    .selectAll()
    .where((eb) => eb.or([eb('slug', '=', slugOrId), eb('id', '=', slugOrId)]))
    .where('status', 'in', PUBLIC_LISTING_STATUSES)
    .executeTakeFirst();
}

export async function findAuction(db: Kysely<Database>, auctionId: string): Promise<AuctionRow | undefined> {
  return db.selectFrom('auctions').selectAll().where('id', '=', auctionId).executeTakeFirst();
}

/** LIKE treats %, _ and the escape character as patterns; a search for "100%" means the text. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}

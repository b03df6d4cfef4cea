import type { ColumnType } from 'kysely';

type Timestamp = ColumnType<Date, Date | string, Date | string>;

/** The listings each buyer follows (the hearts). Not a foreign key to the listings read model, which is disposable. */
export interface WatchlistTable {
  user_id: string;
  listing_id: string;
  added_at: Timestamp;
}

export interface WatchlistTables {
  watchlist: WatchlistTable;
}

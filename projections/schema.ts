import type { ColumnType, Generated, JSONColumnType } from 'kysely';
import type { AuctionClosing, AuctionState, ClosingResult, ListingDetails, ListingStatus } from '../engine/domain';

/**
 * Row types of the read models. bigint columns come back from node-postgres as strings and from
 * PGlite as numbers; `Money` says "cents, read with Number()".
 */
type Money = ColumnType<string | number, number, number>;
type Timestamp = ColumnType<Date, Date | string, Date | string>;

export interface ListingsTable {
  id: string;
  slug: string;
  owner_id: string;
  status: ListingStatus;
  title: string;
  description: string;
  category: ListingDetails['category'];
  condition: string;
  sport_type: ListingDetails['sportType'];
  asking_price: Money;
  price: Money;
  player_name: string | null;
  team_or_club: string | null;
  league_or_event: string | null;
  date_or_season: string | null;
  size: string | null;
  tags: JSONColumnType<ListingDetails['tags']>;
  jersey: JSONColumnType<ListingDetails['jersey']>;
  media_ids: JSONColumnType<string[]>;
  nfc_uid: string | null;
  auction_id: string | null;
  auction_ends_at: Timestamp | null;
  search_text: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface AuctionsTable {
  id: string;
  listing_id: string;
  seller_id: string;
  status: Exclude<AuctionState['status'], 'UNSCHEDULED'>;
  starts_at: Timestamp;
  ends_at: Timestamp;
  scheduled_ends_at: Timestamp;
  starting_price: Money;
  current_price: Money;
  minimum_next_bid: Money;
  leader_id: string | null;
  leading_bid_id: string | null;
  bid_count: number;
  reserve_price: Money | null;
  reserve_met: boolean | null;
  buy_now_price: Money | null;
  buy_now_available: boolean;
  increment_table: JSONColumnType<Array<{ from: number; increment: number }>>;
  soft_close: JSONColumnType<{ windowSeconds: number; latestEndsAt: string } | null>;
  result: ClosingResult | null;
  winner_id: string | null;
  winning_bid_id: string | null;
  final_price: Money | null;
  closed_at: Timestamp | null;
  closed_by: AuctionClosing['closedBy'] | null;
  cancellation_reason: string | null;
  /** How many of the auction stream's events the row has folded in (AuctionSummary.version). */
  version: number;
  updated_at: Timestamp;
}

export interface BidsTable {
  sequence: Generated<string | number>;
  id: string;
  auction_id: string;
  bidder_id: string;
  /** BID: placed by the bidder; AUTO: placed by their proxy; MAXIMUM: a leader raising their maximum (not shown publicly); BUY_NOW: the buy-now purchase. */
  kind: 'BID' | 'AUTO' | 'MAXIMUM' | 'BUY_NOW';
  amount: Money;
  maximum: Money | null;
  status: 'ACCEPTED' | 'RETRACTED';
  for_bid_id: string | null;
  placed_at: Timestamp;
}

export interface BidRejectionsTable {
  sequence: Generated<string | number>;
  event_id: string;
  auction_id: string;
  bid_id: string;
  bidder_id: string;
  attempt: 'BID' | 'BUY_NOW';
  amount: Money | null;
  code: string;
  message: string;
  attempted_at: Timestamp;
}

export interface NfcTagsTable {
  uid: string;
  claim_code: string | null;
  status: 'AVAILABLE' | 'BOUND';
  listing_id: string | null;
  provisioned_at: Timestamp;
  updated_at: Timestamp;
}

export interface ProjectionCheckpointsTable {
  name: string;
  position: string;
  updated_at: Timestamp;
}

export interface ReadModels {
  listings: ListingsTable;
  auctions: AuctionsTable;
  bids: BidsTable;
  bid_rejections: BidRejectionsTable;
  nfc_tags: NfcTagsTable;
  projection_checkpoints: ProjectionCheckpointsTable;
}

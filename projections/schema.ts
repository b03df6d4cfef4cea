import type { ColumnType, Generated, JSONColumnType } from 'kysely';
import type { AuctionClosing, AuctionState, ClosingResult, ListingDetails, ListingStatus, OrderStatus, PaymentMethod, SecondChanceOffer, ShippingAddress } from '../engine/domain';

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
  /** Null for an auction scheduled before after-sale terms were part of the rules (the defaults apply). */
  buyers_premium_basis_points: number | null;
  payment_window_seconds: number | null;
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

export interface OrdersTable {
  id: string;
  order_number: string;
  auction_id: string;
  listing_id: string;
  buyer_id: string;
  status: OrderStatus;
  hammer_price: Money;
  buyers_premium_basis_points: number;
  buyers_premium: Money;
  shipping: Money;
  amount_paid: Money;
  placed_at: Timestamp;
  payment_due_at: Timestamp;
  paid_at: Timestamp | null;
  shipping_address: JSONColumnType<ShippingAddress | null>;
  carrier: string | null;
  tracking_number: string | null;
  shipped_at: Timestamp | null;
  delivered_at: Timestamp | null;
  delivery_confirmed_by: 'BUYER' | 'ADMIN' | 'AUTOMATIC' | null;
  completed_at: Timestamp | null;
  cancelled_at: Timestamp | null;
  cancellation_reason: string | null;
  /** The order whose cancelled sale this one continues (a second-chance offer taken); null for an auction's own sale. */
  previous_order_id: string | null;
  successor_order_id: string | null;
  listing_released: boolean;
  updated_at: Timestamp;
}

export interface OrderPaymentsTable {
  payment_id: string;
  order_id: string;
  method: PaymentMethod;
  amount: Money;
  reference: string;
  received_at: Timestamp;
  recorded_at: Timestamp;
  recorded_by: string;
}

export interface SecondChanceOffersTable {
  offer_id: string;
  order_id: string;
  auction_id: string;
  listing_id: string;
  bidder_id: string;
  amount: Money;
  offered_at: Timestamp;
  expires_at: Timestamp;
  outcome: SecondChanceOffer['outcome'];
  new_order_id: string | null;
  updated_at: Timestamp;
}

export interface AuctionLogsTable {
  auction_id: string;
  /** Events in the auction's stream and its rejections stream. */
  log_size: number;
  /** Events the last checkpoint signs, of both. */
  signed_size: number;
  signed_at: Timestamp | null;
  /** Checkpoints recorded: the checkpoint stream's next revision. */
  checkpoints: number;
  /** The auction closed or was cancelled. */
  closed: boolean;
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
  orders: OrdersTable;
  order_payments: OrderPaymentsTable;
  second_chance_offers: SecondChanceOffersTable;
  auction_logs: AuctionLogsTable;
  projection_checkpoints: ProjectionCheckpointsTable;
}

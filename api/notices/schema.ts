import type { ColumnType, Generated } from 'kysely';
import type { NoticeKind } from '../contracts/notifications';

type Timestamp = ColumnType<Date, Date | string, Date | string>;

export interface NotificationsTable {
  id: string;
  /** bigserial: a string from node-postgres, a number from PGlite. */
  sequence: Generated<string | number>;
  recipient_id: string;
  kind: NoticeKind;
  listing_id: string | null;
  auction_id: string | null;
  title: string;
  body: string;
  link: string | null;
  /** What made it, unique: a notice is made once however often its cause is seen. */
  cause: string;
  created_at: Timestamp;
  read_at: Timestamp | null;
}

/** The notifier's own view of each auction: whose lead a bid takes, and who bid, when it closes. */
export interface NotifierAuctionsTable {
  auction_id: string;
  listing_id: string;
  leader_id: string | null;
}

export interface NotifierBiddersTable {
  auction_id: string;
  bidder_id: string;
}

/** The notifier's own view of each order: who bought what, and the total a payment is measured against. */
export interface NotifierOrdersTable {
  order_id: string;
  order_number: string;
  buyer_id: string;
  listing_id: string;
  auction_id: string;
  /** Cents; bigint: a string from node-postgres, a number from PGlite. */
  total: ColumnType<string | number, number, number>;
  /** Whether the buyer has given an address: a later one is a change they are told of. */
  has_address: ColumnType<boolean, boolean | undefined, boolean>;
}

/** Where a consumer of the log that is not a read model (the notifier) has got to. */
export interface LogConsumerCheckpointsTable {
  name: string;
  position: string;
  updated_at: Timestamp;
}

export interface NoticeTables {
  notifications: NotificationsTable;
  notifier_auctions: NotifierAuctionsTable;
  notifier_bidders: NotifierBiddersTable;
  notifier_orders: NotifierOrdersTable;
  log_consumer_checkpoints: LogConsumerCheckpointsTable;
}

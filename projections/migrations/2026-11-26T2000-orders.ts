import { sql, type Kysely } from 'kysely';

/**
 * After the hammer: orders, the payments recorded on them, and second-chance offers to runners-up;
 * and each auction's after-sale terms (null for auctions scheduled before they were part of the rules).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('auctions').addColumn('buyers_premium_basis_points', 'integer').execute();
  await db.schema.alterTable('auctions').addColumn('payment_window_seconds', 'integer').execute();
  // The lifecycle worker looks for recent sales without their order.
  await db.schema.createIndex('auctions_sold_closed_at').on('auctions').column('closed_at').where(sql.ref('result'), '=', 'SOLD').execute();
  await db.schema
    .createTable('orders')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('order_number', 'text', (c) => c.notNull())
    .addColumn('auction_id', 'text', (c) => c.notNull())
    .addColumn('listing_id', 'text', (c) => c.notNull())
    .addColumn('buyer_id', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('hammer_price', 'bigint', (c) => c.notNull())
    .addColumn('buyers_premium_basis_points', 'integer', (c) => c.notNull())
    .addColumn('buyers_premium', 'bigint', (c) => c.notNull())
    .addColumn('shipping', 'bigint', (c) => c.notNull())
    .addColumn('amount_paid', 'bigint', (c) => c.notNull())
    .addColumn('placed_at', 'timestamptz', (c) => c.notNull())
    .addColumn('payment_due_at', 'timestamptz', (c) => c.notNull())
    .addColumn('paid_at', 'timestamptz')
    .addColumn('shipping_address', 'jsonb')
    .addColumn('carrier', 'text')
    .addColumn('tracking_number', 'text')
    .addColumn('shipped_at', 'timestamptz')
    .addColumn('delivered_at', 'timestamptz')
    .addColumn('delivery_confirmed_by', 'text')
    .addColumn('completed_at', 'timestamptz')
    .addColumn('cancelled_at', 'timestamptz')
    .addColumn('cancellation_reason', 'text')
    .addColumn('previous_order_id', 'text')
    .addColumn('successor_order_id', 'text')
    .addColumn('listing_released', 'boolean', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('orders_buyer').on('orders').columns(['buyer_id', 'placed_at']).execute();
  await db.schema.createIndex('orders_status_due').on('orders').columns(['status', 'payment_due_at']).execute();
  await db.schema.createIndex('orders_auction').on('orders').column('auction_id').execute();
  await db.schema.createIndex('orders_listing').on('orders').column('listing_id').execute();
  await db.schema.createIndex('orders_number').on('orders').column('order_number').execute();

  await db.schema
    .createTable('order_payments')
    .addColumn('payment_id', 'text', (c) => c.primaryKey())
    .addColumn('order_id', 'text', (c) => c.notNull())
    .addColumn('method', 'text', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('reference', 'text', (c) => c.notNull())
    .addColumn('received_at', 'timestamptz', (c) => c.notNull())
    .addColumn('recorded_at', 'timestamptz', (c) => c.notNull())
    .addColumn('recorded_by', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('order_payments_order').on('order_payments').columns(['order_id', 'received_at']).execute();

  await db.schema
    .createTable('second_chance_offers')
    .addColumn('offer_id', 'text', (c) => c.primaryKey())
    .addColumn('order_id', 'text', (c) => c.notNull())
    .addColumn('auction_id', 'text', (c) => c.notNull())
    .addColumn('listing_id', 'text', (c) => c.notNull())
    .addColumn('bidder_id', 'text', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('offered_at', 'timestamptz', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('outcome', 'text', (c) => c.notNull())
    .addColumn('new_order_id', 'text')
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('second_chance_offers_order').on('second_chance_offers').column('order_id').execute();
  await db.schema.createIndex('second_chance_offers_open').on('second_chance_offers').columns(['outcome', 'expires_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['second_chance_offers', 'order_payments', 'orders']) await db.schema.dropTable(table).execute();
  await db.schema.dropIndex('auctions_sold_closed_at').execute();
  await db.schema.alterTable('auctions').dropColumn('payment_window_seconds').execute();
  await db.schema.alterTable('auctions').dropColumn('buyers_premium_basis_points').execute();
}

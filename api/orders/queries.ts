import type { Kysely, Selectable } from 'kysely';
import type { OrderStatus } from '../../engine/domain';
import type { OrderPaymentsTable, OrdersTable, SecondChanceOffersTable } from '../../projections/schema';
import type { Database } from '../database';

export type OrderRow = Selectable<OrdersTable> & { title: string; slug: string; mediaIds: string[]; nfcUid: string | null };
export type PaymentRow = Selectable<OrderPaymentsTable>;
export type OfferRow = Selectable<SecondChanceOffersTable>;

/** An order with what it shows of its listing. */
function ordersWithListing(db: Kysely<Database>) {
  return db
    .selectFrom('orders as o')
    .innerJoin('listings as l', 'l.id', 'o.listing_id')
    .selectAll('o')
    .select(['l.title', 'l.slug', 'l.media_ids as mediaIds', 'l.nfc_uid as nfcUid']);
}

export async function findOrder(db: Kysely<Database>, orderId: string): Promise<OrderRow | undefined> {
  return ordersWithListing(db).where('o.id', '=', orderId).executeTakeFirst();
}

/** The signed-in buyer's orders, newest first. */
export async function ordersOfBuyer(db: Kysely<Database>, buyerId: string): Promise<OrderRow[]> {
  return ordersWithListing(db).where('o.buyer_id', '=', buyerId).orderBy('o.placed_at', 'desc').orderBy('o.id').limit(500).execute();
}

/** What needs an admin first: overdue orders, then by payment due date (soonest first), then newest. */
export async function ordersForAdmin(db: Kysely<Database>, status: OrderStatus | undefined): Promise<OrderRow[]> {
  let query = ordersWithListing(db);
  if (status) query = query.where('o.status', '=', status);
  return query
    .orderBy((eb) => eb.case().when('o.status', '=', 'PAYMENT_OVERDUE').then(0).else(1).end())
    .orderBy('o.payment_due_at')
    .orderBy('o.id')
    .limit(1_000)
    .execute();
}

export async function paymentsOf(db: Kysely<Database>, orderIds: readonly string[]): Promise<Map<string, PaymentRow[]>> {
  const rows = orderIds.length === 0 ? [] : await db.selectFrom('order_payments').selectAll().where('order_id', 'in', orderIds).orderBy('received_at').orderBy('recorded_at').execute();
  return groupBy(rows, (row) => row.order_id);
}

export async function offersOf(db: Kysely<Database>, orderIds: readonly string[]): Promise<Map<string, OfferRow[]>> {
  const rows = orderIds.length === 0 ? [] : await db.selectFrom('second_chance_offers').selectAll().where('order_id', 'in', orderIds).orderBy('offered_at').execute();
  return groupBy(rows, (row) => row.order_id);
}

export async function findOffer(db: Kysely<Database>, offerId: string): Promise<(OfferRow & { title: string; slug: string; mediaIds: string[]; premiumBasisPoints: number }) | undefined> {
  return db
    .selectFrom('second_chance_offers as s')
    .innerJoin('listings as l', 'l.id', 's.listing_id')
    .innerJoin('orders as o', 'o.id', 's.order_id')
    .selectAll('s')
    .select(['l.title', 'l.slug', 'l.media_ids as mediaIds', 'o.buyers_premium_basis_points as premiumBasisPoints'])
    .where('s.offer_id', '=', offerId)
    .executeTakeFirst();
}

function groupBy<Row>(rows: readonly Row[], key: (row: Row) => string): Map<string, Row[]> {
  const groups = new Map<string, Row[]>();
  for (const row of rows) groups.set(key(row), [...(groups.get(key(row)) ?? []), row]);
  return groups;
}

import { sql, type Kysely, type Selectable } from 'kysely';
import type { ListingDetails, OrderStatus } from '../../engine/domain';
import type { OrderPaymentsTable, OrdersTable, SecondChanceOffersTable } from '../../projections/schema';
import type { Database } from '../database';
import { escapeLike } from '../listings/queries';

export type OrderRow = Selectable<OrdersTable> & { title: string; slug: string; mediaIds: string[]; nfcUid: string | null };
export type PaymentRow = Selectable<OrderPaymentsTable>;
export type OfferRow = Selectable<SecondChanceOffersTable>;

/** The account of an order's buyer or a runner-up. */
export interface PersonRow {
  readonly id: string;
  readonly email: string;
  readonly first_name: string;
  readonly last_name: string;
}

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

/** One page of the admin's orders: what needs an admin first (overdue, then by payment due date), with the total matched. */
export async function ordersForAdmin(
  db: Kysely<Database>,
  query: { status?: OrderStatus | undefined; search?: string | undefined; page: number; size: number },
): Promise<{ rows: OrderRow[]; total: number }> {
  // A left join: an order whose buyer's account is gone stays listed (and counted).
  let matching = ordersWithListing(db).leftJoin('users as u', 'u.id', 'o.buyer_id');
  if (query.status) matching = matching.where('o.status', '=', query.status);
  const search = query.search?.trim();
  if (search) {
    const number = /^(?:PRV-?)?([0-9A-Z]{1,8})$/i.exec(search)?.[1];
    const words = `%${escapeLike(search)}%`;
    matching = matching.where((eb) =>
      eb.or([
        ...(number ? [eb('o.order_number', 'like', `PRV-${number.toUpperCase()}%`)] : []),
        eb('l.title', 'ilike', words),
        eb('u.email', 'ilike', words),
        eb(sql<string>`u.first_name || ' ' || u.last_name`, 'ilike', words),
      ]),
    );
  }
  const [rows, count] = await Promise.all([
    matching
      .orderBy((eb) => eb.case().when('o.status', '=', 'PAYMENT_OVERDUE').then(0).else(1).end())
      .orderBy('o.payment_due_at')
      .orderBy('o.id')
      .limit(query.size)
      .offset(query.page * query.size)
      .execute(),
    matching.clearSelect().select((eb) => eb.fn.countAll<string | number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

/** How many orders each status holds. */
export async function orderCountsByStatus(db: Kysely<Database>): Promise<Map<OrderStatus, number>> {
  const rows = await db.selectFrom('orders').select((eb) => ['status', eb.fn.countAll<string | number>().as('n')]).groupBy('status').execute();
  return new Map(rows.map((row) => [row.status, Number(row.n)]));
}

/** The accounts of these people (buyers, runners-up), by id. */
export async function peopleById(db: Kysely<Database>, ids: Iterable<string>): Promise<Map<string, PersonRow>> {
  const unique = [...new Set(ids)];
  const rows = unique.length === 0 ? [] : await db.selectFrom('users').select(['id', 'email', 'first_name', 'last_name']).where('id', 'in', unique).execute();
  return new Map(rows.map((row) => [row.id, row]));
}

export async function paymentsOf(db: Kysely<Database>, orderIds: readonly string[]): Promise<Map<string, PaymentRow[]>> {
  const rows = orderIds.length === 0 ? [] : await db.selectFrom('order_payments').selectAll().where('order_id', 'in', orderIds).orderBy('received_at').orderBy('recorded_at').execute();
  return groupBy(rows, (row) => row.order_id);
}

export async function offersOf(db: Kysely<Database>, orderIds: readonly string[]): Promise<Map<string, OfferRow[]>> {
  const rows = orderIds.length === 0 ? [] : await db.selectFrom('second_chance_offers').selectAll().where('order_id', 'in', orderIds).orderBy('offered_at').execute();
  return groupBy(rows, (row) => row.order_id);
}

export async function findOffer(
  db: Kysely<Database>,
  offerId: string,
): Promise<(OfferRow & { title: string; slug: string; mediaIds: string[]; category: ListingDetails['category']; premiumBasisPoints: number }) | undefined> {
  return db
    .selectFrom('second_chance_offers as s')
    .innerJoin('listings as l', 'l.id', 's.listing_id')
    .innerJoin('orders as o', 'o.id', 's.order_id')
    .selectAll('s')
    .select(['l.title', 'l.slug', 'l.media_ids as mediaIds', 'l.category', 'o.buyers_premium_basis_points as premiumBasisPoints'])
    .where('s.offer_id', '=', offerId)
    .executeTakeFirst();
}

function groupBy<Row>(rows: readonly Row[], key: (row: Row) => string): Map<string, Row[]> {
  const groups = new Map<string, Row[]>();
  for (const row of rows) groups.set(key(row), [...(groups.get(key(row)) ?? []), row]);
  return groups;
}

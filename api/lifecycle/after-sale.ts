import { sql } from 'kysely';
import type { Logger } from '../../engine/application/logger';
import { handleOrderCommand, placeOrderForSale } from '../../engine/application/order-commands';
import { AUTOMATIC_DELIVERY_MS, type OrderCommand } from '../../engine/domain';
import { runSystemCommand, systemMetadata, type LifecycleDependencies, type Outcome } from './system';

/** How far back a sale without its order is looked for: a process down longer than this (or a sale from before orders existed) is left to an operator. */
const ORDER_LOOKBACK_MS = 30 * 24 * 3_600_000;

/**
 * The after-sale process manager's steps, run in each lifecycle round: a sold auction gets its order,
 * an unpaid order goes overdue when its window ends, an unanswered second-chance offer expires, a
 * shipment nobody confirmed counts as delivered after 14 days. Like the rest of the lifecycle, it
 * reads what is due from the read models and issues commands whose ids come from what they are
 * about: any number of processes, restarted any number of times, make each step once.
 */
export class AfterSaleSteps {
  constructor(
    private readonly deps: LifecycleDependencies,
    private readonly log: Logger,
    private readonly reported: Set<string>,
  ) {}

  async run(now: Date, limit: number): Promise<{ outcomes: Outcome[]; more: boolean }> {
    const { db } = this.deps;
    const deliveredBefore = new Date(now.getTime() - AUTOMATIC_DELIVERY_MS);
    const [sold, overdue, expired, delivered] = await Promise.all([
      // Sales of the last 30 days (an index on the sold auctions' close keeps this small however many
      // there have been), once the listing has recorded the sale (ListingSold): the order follows the
      // sale, in the log as in life.
      db
        .selectFrom('auctions as a')
        .innerJoin('listings as l', 'l.auction_id', 'a.id')
        .select('a.id')
        .where('a.result', '=', 'SOLD')
        .where('a.closed_at', '>=', new Date(now.getTime() - ORDER_LOOKBACK_MS))
        .where('l.status', '=', 'SOLD')
        .where(({ not, exists, selectFrom }) => not(exists(selectFrom('orders as o').select(sql`1`.as('one')).whereRef('o.auction_id', '=', 'a.id').where('o.previous_order_id', 'is', null))))
        .orderBy('a.closed_at')
        .limit(limit)
        .execute(),
      db.selectFrom('orders').select('id').where('status', '=', 'AWAITING_PAYMENT').where('payment_due_at', '<=', now).orderBy('payment_due_at').limit(limit).execute(),
      db
        .selectFrom('second_chance_offers')
        .select(['offer_id', 'order_id'])
        .where('outcome', '=', 'OPEN')
        .where('expires_at', '<=', now)
        .orderBy('expires_at')
        .limit(limit)
        .execute(),
      db.selectFrom('orders').select('id').where('status', '=', 'SHIPPED').where('shipped_at', '<=', deliveredBefore).orderBy('shipped_at').limit(limit).execute(),
    ]);
    const outcomes = await Promise.all([
      ...sold.map(({ id }) =>
        runSystemCommand(
          `order for ${id}`,
          () => placeOrderForSale(this.deps.commands, id, this.deps.shippingRates, systemMetadata(now, id, `lifecycle:order:${id}`)),
          { done: ['ORDER_ALREADY_PLACED', 'AUCTION_NOT_SOLD', 'LISTING_NOT_FOUND'], retry: [] },
          this.log,
          this.reported,
        ),
      ),
      ...overdue.map(({ id }) =>
        this.#order(`overdue ${id}`, { type: 'MarkPaymentOverdue', data: { orderId: id }, metadata: systemMetadata(now, id, `lifecycle:overdue:${id}`) }, {
          done: ['ORDER_NOT_AWAITING_PAYMENT', 'ORDER_NOT_FOUND'],
          retry: ['PAYMENT_NOT_DUE'],
        }),
      ),
      ...expired.map(({ offer_id, order_id }) =>
        this.#order(
          `expire offer ${offer_id}`,
          { type: 'ExpireSecondChance', data: { orderId: order_id, offerId: offer_id }, metadata: systemMetadata(now, order_id, `lifecycle:offer-expiry:${offer_id}`) },
          { done: ['ORDER_NOT_FOUND'], retry: ['OFFER_NOT_EXPIRED'] },
        ),
      ),
      ...delivered.map(({ id }) =>
        this.#order(`deliver ${id}`, { type: 'ConfirmDelivery', data: { orderId: id }, metadata: systemMetadata(now, id, `lifecycle:delivered:${id}`) }, {
          done: ['ORDER_NOT_SHIPPED', 'ORDER_CANCELLED', 'ORDER_NOT_FOUND'],
          retry: ['DELIVERY_NOT_DUE'],
        }),
      ),
    ]);
    const full = [sold, overdue, expired, delivered].some((rows) => rows.length === limit);
    return { outcomes, more: full };
  }

  /** The next payment deadline, offer expiry or automatic delivery after `now`, as the read models see them. */
  async nextDueAfter(now: Date): Promise<Date | null> {
    const { db } = this.deps;
    const [payment, offer, shipment] = await Promise.all([
      db.selectFrom('orders').select('payment_due_at as at').where('status', '=', 'AWAITING_PAYMENT').where('payment_due_at', '>', now).orderBy('payment_due_at').limit(1).executeTakeFirst(),
      db.selectFrom('second_chance_offers').select('expires_at as at').where('outcome', '=', 'OPEN').where('expires_at', '>', now).orderBy('expires_at').limit(1).executeTakeFirst(),
      db
        .selectFrom('orders')
        .select('shipped_at as at')
        .where('status', '=', 'SHIPPED')
        .where('shipped_at', '>', new Date(now.getTime() - AUTOMATIC_DELIVERY_MS))
        .orderBy('shipped_at')
        .limit(1)
        .executeTakeFirst(),
    ]);
    const times = [payment?.at, offer?.at].filter((at) => at !== undefined && at !== null).map((at) => new Date(at).getTime());
    if (shipment?.at) times.push(new Date(shipment.at).getTime() + AUTOMATIC_DELIVERY_MS);
    return times.length === 0 ? null : new Date(Math.min(...times));
  }

  #order(key: string, command: OrderCommand, codes: { done: string[]; retry: string[] }): Promise<Outcome> {
    return runSystemCommand(key, () => handleOrderCommand(this.deps.commands, command), codes, this.log, this.reported);
  }
}

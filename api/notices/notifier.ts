import { sql, type Kysely, type Transaction } from 'kysely';
import type { Logger } from '../../engine/application/logger';
import {
  auctionNotices,
  biddersIn,
  ENDING_SOON_WINDOW_MS,
  isAuctionEvent,
  isOrderEvent,
  orderNotices,
  type AuctionEvent,
  type AuctionNotice,
  type OrderEvent,
  type OrderNotice,
} from '../../engine/domain';
import type { EventStore } from '../../engine/eventstore/port';
import { ProjectionRunner, type ReadModels } from '../../projections';
import type { ProjectedEvent, Projection } from '../../projections/projection';
import type { Database } from '../database';
import type { AppLinks } from '../mail/links';
import { mailLotNotices, recordNotices, type NewNotice } from './record';
import { orderNoticePath, orderNoticeText } from './order-wording';
import { lotNoticeText, lotPath } from './wording';

/** OUTBID mail about one lot reaches a person at most once in each window of this long (by the bid's time); every outbid is still a notice in the app. */
export const OUTBID_MAIL_INTERVAL_MS = 10 * 60_000;

/** How often each process looks for lots entering their last hour. */
const SWEEP_MS = 30_000;

/**
 * The least time between two of the notifier's transactions: under a bidding war its fixed cost per
 * batch (some eight statements) is paid a few times a second, not once a bid; a notice is at most
 * this much later.
 */
const BATCH_INTERVAL_MS = 200;

interface AuctionView {
  listingId: string;
  leaderId: string | null;
  changed: boolean;
  /**
   * Taken from the read models (an auction scheduled before the notifier first ran), which may be
   * ahead of or behind this batch: its leader is not known for sure until the next bid says.
   */
  seeded: boolean;
}

interface OrderView {
  orderNumber: string;
  hasAddress: boolean;
  buyerId: string;
  listingId: string;
  auctionId: string;
  /** Cents. */
  total: number;
}

interface Draft {
  readonly notice: AuctionNotice;
  readonly event: ProjectedEvent & AuctionEvent;
}

/**
 * Tells people what happened to the lots they bid on or follow. Driven by the event log like the
 * read models: a catch-up subscription from a checkpoint of its own (apart from the read models'
 * checkpoints, so a rebuild of those makes no notice again), each batch applied in one transaction
 * with the checkpoint, and each notice keyed by its cause: a notice is made once across restarts and
 * any number of API processes. Lots entering their last hour (ENDING_SOON, not an event) are found
 * by a sweep every 30 s. The mail of a notice is queued in the same transaction (the mail outbox);
 * sending it is the MailSender's business, never a bid's.
 */
export class Notifier {
  readonly #runner: ProjectionRunner;
  readonly #db: Kysely<Database>;
  readonly #links: AppLinks;
  readonly #clock: () => Date;
  readonly #log: Logger;
  #timer: NodeJS.Timeout | undefined;
  #sweeping: Promise<unknown> = Promise.resolve();

  constructor(deps: { store: EventStore; db: Kysely<Database>; links: AppLinks; clock: () => Date; log: Logger }) {
    this.#db = deps.db;
    this.#links = deps.links;
    this.#clock = deps.clock;
    this.#log = deps.log;
    const projection: Projection = { name: 'notices', applyBatch: (trx, events) => this.#apply(trx as unknown as Transaction<Database>, events) };
    this.#runner = new ProjectionRunner(deps.store, deps.db as unknown as Kysely<ReadModels>, {
      projections: [projection],
      log: deps.log,
      checkpointTable: 'log_consumer_checkpoints',
      startAtEnd: true,
      batchIntervalMs: BATCH_INTERVAL_MS,
    });
  }

  async start(): Promise<void> {
    await this.#runner.start();
    this.#timer = setInterval(() => void this.sweepEndingSoon(), SWEEP_MS);
    this.#timer.unref();
    void this.sweepEndingSoon();
  }

  async stop(): Promise<void> {
    clearInterval(this.#timer);
    await this.#sweeping;
    await this.#runner.stop();
  }

  /** Resolves once every event committed by now has been looked at. */
  caughtUp(): Promise<void> {
    return this.#runner.caughtUp();
  }

  /**
   * ENDING_SOON for each person following or having bid on a lot that ends within the hour, once
   * per lot per person. Resolves to how many notices were made.
   */
  sweepEndingSoon(): Promise<number> {
    const sweep = this.#sweepEndingSoon().catch((error: unknown) => {
      this.#log.error({ err: error }, 'notices: the ending-soon sweep failed; trying again at the next');
      return 0;
    });
    this.#sweeping = sweep;
    return sweep;
  }

  async #sweepEndingSoon(): Promise<number> {
    const now = this.#clock();
    const lots = await this.#db
      .selectFrom('auctions as a')
      .innerJoin('listings as l', 'l.id', 'a.listing_id')
      .select(['a.id as auctionId', 'a.listing_id as listingId', 'a.ends_at as endsAt', 'a.current_price as price', 'l.title', 'l.slug'])
      .where('a.status', 'in', ['PENDING', 'ACTIVE'])
      .where('a.starts_at', '<=', now)
      .where('a.ends_at', '>', now)
      .where('a.ends_at', '<=', new Date(now.getTime() + ENDING_SOON_WINDOW_MS))
      .execute();
    if (lots.length === 0) return 0;
    const [followers, bidders] = await Promise.all([
      this.#db.selectFrom('watchlist').select(['user_id as userId', 'listing_id as key']).where('listing_id', 'in', lots.map((lot) => lot.listingId)).execute(),
      this.#db.selectFrom('bids').select(['bidder_id as userId', 'auction_id as key']).distinct().where('auction_id', 'in', lots.map((lot) => lot.auctionId)).execute(),
    ]);
    const peopleOf = (rows: ReadonlyArray<{ userId: string; key: string }>) => {
      const byKey = new Map<string, string[]>();
      for (const row of rows) byKey.set(row.key, [...(byKey.get(row.key) ?? []), row.userId]);
      return byKey;
    };
    const followersOf = peopleOf(followers);
    const biddersOf = peopleOf(bidders);
    const notices: NewNotice[] = [];
    for (const lot of lots) {
      const people = new Set([...(followersOf.get(lot.listingId) ?? []), ...(biddersOf.get(lot.auctionId) ?? [])]);
      const text = lotNoticeText('ENDING_SOON', { title: lot.title, priceCents: Number(lot.price), endsAt: new Date(lot.endsAt) });
      for (const person of people) {
        notices.push({ recipientId: person, kind: 'ENDING_SOON', listingId: lot.listingId, auctionId: lot.auctionId, ...text, link: lotPath(lot.slug, lot.listingId), cause: `ENDING_SOON:${lot.auctionId}:${person}` });
      }
    }
    return this.#db.transaction().execute(async (trx) => {
      const made = await recordNotices(trx, notices, now);
      await mailLotNotices(trx, this.#links, made, now);
      return made.length;
    });
  }

  /** One batch of the log: the notifier's view of each auction and order moves on, and the notices it calls for are made. */
  async #apply(trx: Transaction<Database>, events: readonly ProjectedEvent[]): Promise<void> {
    await this.#applyAuctionEvents(trx, events.filter((event): event is ProjectedEvent & AuctionEvent => isAuctionEvent(event)));
    await this.#applyOrderEvents(trx, events.filter((event): event is ProjectedEvent & OrderEvent => isOrderEvent(event)));
  }

  async #applyAuctionEvents(trx: Transaction<Database>, auctionEvents: ReadonlyArray<ProjectedEvent & AuctionEvent>): Promise<void> {
    if (auctionEvents.length === 0) return;
    const views = await this.#views(trx, auctionEvents);
    const newBidders = new Map<string, Set<string>>();
    const drafts: Draft[] = [];
    for (const event of auctionEvents) {
      const { auctionId } = event.data;
      if (event.type === 'AuctionScheduled') {
        views.set(auctionId, { listingId: event.data.listingId, leaderId: null, changed: true, seeded: false });
        continue;
      }
      const view = views.get(auctionId);
      if (!view) continue; // an auction the log never scheduled: nothing to tell anyone
      if (event.type === 'AuctionClosed') {
        const bidders = new Set([...(await this.#biddersOf(trx, auctionId)), ...(newBidders.get(auctionId) ?? [])]);
        for (const notice of auctionNotices(event, { leaderBefore: view.leaderId, bidders })) drafts.push({ notice, event });
        continue;
      }
      // An uncertain leader outbids nobody: better no notice than a wrong one.
      if (!view.seeded) for (const notice of auctionNotices(event, { leaderBefore: view.leaderId, bidders: [] })) drafts.push({ notice, event });
      if (event.type === 'BidPlaced' || event.type === 'MaximumBidRaised' || event.type === 'BidRetracted') {
        view.leaderId = event.data.standing.leaderId;
        view.changed = true;
        view.seeded = false;
      }
      if (event.type === 'BidPlaced' || event.type === 'MaximumBidRaised') {
        let set = newBidders.get(auctionId);
        if (!set) newBidders.set(auctionId, (set = new Set()));
        for (const bidder of biddersIn(event)) set.add(bidder);
      }
    }
    await this.#save(trx, views, newBidders);
    if (drafts.length === 0) return;
    const now = this.#clock();
    const notices = await this.#word(trx, drafts, views);
    const made = await recordNotices(trx, notices, now);
    await mailLotNotices(trx, this.#links, made, now);
  }

  /**
   * Orders: the buyer told of the invoice, each payment, the shipment, an overdue payment (every
   * admin too), a cancellation; a runner-up told of an offer. The notifier keeps its own view of each
   * order (buyer, lot, total) from OrderPlaced on, as it does of auctions.
   */
  async #applyOrderEvents(trx: Transaction<Database>, orderEvents: ReadonlyArray<ProjectedEvent & OrderEvent>): Promise<void> {
    if (orderEvents.length === 0) return;
    const ids = [...new Set(orderEvents.map((event) => event.data.orderId))];
    const rows = await trx.selectFrom('notifier_orders').selectAll().where('order_id', 'in', ids).execute();
    const views = new Map<string, OrderView>(
      rows.map((row) => [row.order_id, { orderNumber: row.order_number, buyerId: row.buyer_id, listingId: row.listing_id, auctionId: row.auction_id, total: Number(row.total), hasAddress: row.has_address }]),
    );
    // An order placed before the notifier first ran (it starts at the log's end) is taken from the read models.
    const unseen = ids.filter((id) => !views.has(id) && !orderEvents.some((event) => event.type === 'OrderPlaced' && event.data.orderId === id));
    if (unseen.length > 0) {
      const known = await trx
        .selectFrom('orders')
        .select(['id', 'order_number', 'buyer_id', 'listing_id', 'auction_id', 'hammer_price', 'buyers_premium', 'shipping', 'shipping_address'])
        .where('id', 'in', unseen)
        .execute();
      for (const row of known) {
        const total = Number(row.hammer_price) + Number(row.buyers_premium) + Number(row.shipping);
        const view = { orderNumber: row.order_number, buyerId: row.buyer_id, listingId: row.listing_id, auctionId: row.auction_id, total, hasAddress: row.shipping_address !== null };
        views.set(row.id, view);
        await trx
          .insertInto('notifier_orders')
          .values({ order_id: row.id, order_number: view.orderNumber, buyer_id: view.buyerId, listing_id: view.listingId, auction_id: view.auctionId, total, has_address: view.hasAddress })
          .onConflict((oc) => oc.column('order_id').doNothing())
          .execute();
      }
    }
    const needsAdmins = orderEvents.some((event) => event.type === 'OrderPaymentOverdue');
    const admins = needsAdmins
      ? await trx.selectFrom('users').select(['id']).where(sql<boolean>`roles @> '["ADMIN"]'::jsonb`).where('status', '=', 'ACTIVE').execute()
      : [];
    const drafts: Array<{ notice: OrderNotice; event: ProjectedEvent & OrderEvent; view: OrderView }> = [];
    for (const event of orderEvents) {
      const { orderId } = event.data;
      if (event.type === 'OrderPlaced') {
        const { orderNumber, buyerId, listingId, auctionId, hammerPrice, buyersPremium, shipping } = event.data;
        const view = { orderNumber, buyerId, listingId, auctionId, total: hammerPrice + buyersPremium + shipping, hasAddress: false };
        views.set(orderId, view);
        await trx
          .insertInto('notifier_orders')
          .values({ order_id: orderId, order_number: orderNumber, buyer_id: buyerId, listing_id: listingId, auction_id: auctionId, total: view.total })
          .onConflict((oc) => oc.column('order_id').doNothing())
          .execute();
      }
      const view = views.get(orderId);
      if (!view) continue; // an order placed before the notifier first ran: nothing it can word
      if (event.type === 'ShippingChargeChanged') {
        view.total += event.data.shipping - event.data.previousShipping;
        await trx.updateTable('notifier_orders').set({ total: view.total }).where('order_id', '=', orderId).execute();
      }
      for (const notice of orderNotices(event, { buyerId: view.buyerId, adminIds: admins.map((admin) => admin.id), hadAddress: view.hasAddress })) {
        drafts.push({ notice, event, view: { ...view } });
      }
      if (event.type === 'ShippingAddressSet' && !view.hasAddress) {
        view.hasAddress = true;
        await trx.updateTable('notifier_orders').set({ has_address: true }).where('order_id', '=', orderId).execute();
      }
    }
    if (drafts.length === 0) return;
    const listingIds = [...new Set(drafts.map((draft) => draft.view.listingId))];
    const buyerIds = [...new Set(drafts.filter((draft) => draft.notice.kind === 'PAYMENT_OVERDUE').map((draft) => draft.view.buyerId))];
    const [listings, buyers] = await Promise.all([
      trx.selectFrom('listings').select(['id', 'title']).where('id', 'in', listingIds).execute(),
      buyerIds.length === 0 ? [] : trx.selectFrom('users').select(['id', 'email', 'first_name', 'last_name']).where('id', 'in', buyerIds).execute(),
    ]);
    const titleOf = new Map(listings.map((listing) => [listing.id, listing.title]));
    const buyerOf = new Map(buyers.map((buyer) => [buyer.id, `${buyer.first_name} ${buyer.last_name} (${buyer.email})`]));
    const notices: NewNotice[] = drafts.map(({ notice, event, view }) => {
      const forAdmin = notice.recipientId !== view.buyerId && notice.kind === 'PAYMENT_OVERDUE';
      const facts = { orderId: event.data.orderId, orderNumber: view.orderNumber, title: titleOf.get(view.listingId) ?? 'your lot', total: view.total, buyerName: buyerOf.get(view.buyerId) };
      return {
        recipientId: notice.recipientId,
        kind: notice.kind,
        listingId: view.listingId,
        auctionId: view.auctionId,
        ...orderNoticeText(notice.kind, event, facts, forAdmin),
        link: orderNoticePath(notice.kind, event, forAdmin),
        cause: `${event.id}:${notice.kind}:${notice.recipientId}`,
      };
    });
    const now = this.#clock();
    const made = await recordNotices(trx, notices, now);
    await mailLotNotices(trx, this.#links, made, now);
  }

  /**
   * The notifier's view of the batch's auctions. An auction scheduled before the notifier first
   * ran (it starts at the end of the log) is taken from the read models once, bidders included:
   * they may stand at another point of the log, so its first bid here outbids nobody, and a bidder
   * the read models had not shown yet may miss a LOST at its close (only while rolling out).
   */
  async #views(trx: Transaction<Database>, events: readonly AuctionEvent[]): Promise<Map<string, AuctionView>> {
    const ids = [...new Set(events.map((event) => event.data.auctionId))];
    const rows = await trx.selectFrom('notifier_auctions').selectAll().where('auction_id', 'in', ids).execute();
    const views = new Map<string, AuctionView>(rows.map((row) => [row.auction_id, { listingId: row.listing_id, leaderId: row.leader_id, changed: false, seeded: false }]));
    const unknown = ids.filter((id) => !views.has(id));
    if (unknown.length === 0) return views;
    const known = await trx.selectFrom('auctions').select(['id', 'listing_id', 'leader_id']).where('id', 'in', unknown).execute();
    for (const auction of known) views.set(auction.id, { listingId: auction.listing_id, leaderId: auction.leader_id, changed: true, seeded: true });
    if (known.length > 0) {
      await trx
        .insertInto('notifier_bidders')
        .columns(['auction_id', 'bidder_id'])
        .expression((eb) => eb.selectFrom('bids').select(['auction_id', 'bidder_id']).distinct().where('auction_id', 'in', known.map((auction) => auction.id)))
        .onConflict((oc) => oc.doNothing())
        .execute();
    }
    return views;
  }

  async #biddersOf(trx: Transaction<Database>, auctionId: string): Promise<string[]> {
    const rows = await trx.selectFrom('notifier_bidders').select('bidder_id').where('auction_id', '=', auctionId).execute();
    return rows.map((row) => row.bidder_id);
  }

  async #save(trx: Transaction<Database>, views: Map<string, AuctionView>, newBidders: Map<string, Set<string>>): Promise<void> {
    const changed = [...views].filter(([, view]) => view.changed);
    if (changed.length > 0) {
      await trx
        .insertInto('notifier_auctions')
        .values(changed.map(([auctionId, view]) => ({ auction_id: auctionId, listing_id: view.listingId, leader_id: view.leaderId })))
        .onConflict((oc) => oc.column('auction_id').doUpdateSet((eb) => ({ leader_id: eb.ref('excluded.leader_id') })))
        .execute();
    }
    const pairs = [...newBidders].flatMap(([auctionId, bidders]) => [...bidders].map((bidder) => ({ auction_id: auctionId, bidder_id: bidder })));
    if (pairs.length > 0) await trx.insertInto('notifier_bidders').values(pairs).onConflict((oc) => oc.doNothing()).execute();
  }

  /** Each draft worded with its lot's title and price, and keyed by the event that caused it. */
  async #word(trx: Transaction<Database>, drafts: readonly Draft[], views: Map<string, AuctionView>): Promise<NewNotice[]> {
    const listingIds = [...new Set(drafts.map((draft) => views.get(draft.event.data.auctionId)!.listingId))];
    const listings = await trx.selectFrom('listings').select(['id', 'title', 'slug']).where('id', 'in', listingIds).execute();
    const byId = new Map(listings.map((listing) => [listing.id, listing]));
    return drafts.map(({ notice, event }) => {
      const { auctionId } = event.data;
      const listingId = views.get(auctionId)!.listingId;
      const listing = byId.get(listingId);
      const title = listing?.title ?? 'a lot you bid on';
      const cause = `${event.id}:${notice.kind}:${notice.recipientId}`;
      let text: { title: string; body: string };
      let mailCause: string | undefined;
      if (event.type === 'AuctionClosed') {
        const kind = notice.kind as 'WON' | 'LOST';
        text = lotNoticeText(kind, { title, priceCents: event.data.finalPrice, reserveNotMet: event.data.result === 'RESERVE_NOT_MET' });
      } else {
        const standing = 'standing' in event.data ? event.data.standing : null;
        text = lotNoticeText('OUTBID', { title, priceCents: standing?.price ?? null });
        // One outbid mail per lot and person in each 10-minute window: a bidding war is not a stream of mail.
        const placedAt = 'placedAt' in event.data ? new Date(event.data.placedAt).getTime() : 0;
        mailCause = `mail:OUTBID:${auctionId}:${notice.recipientId}:${Math.floor(placedAt / OUTBID_MAIL_INTERVAL_MS)}`;
      }
      return {
        recipientId: notice.recipientId,
        kind: notice.kind,
        listingId,
        auctionId,
        ...text,
        link: listing ? lotPath(listing.slug, listingId) : null,
        cause,
        ...(mailCause ? { mailCause } : {}),
      };
    });
  }
}

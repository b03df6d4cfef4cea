import { randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { handleOrderCommand, offerSecondChance, releaseListing } from '../../../engine/application/order-commands';
import { commandMetadata, listingStreamId, orderStreamId, type OrderCommand } from '../../../engine/domain';
import { errorResponses } from '../../contracts/common';
import {
  adminOrderSchema,
  adminOrdersPageSchema,
  adminOrdersQuerySchema,
  adminSecondChanceOfferSchema,
  cancelOrderRequestSchema,
  orderStatusSchema,
  recordPaymentRequestSchema,
  shipmentRequestSchema,
  shippingChargeRequestSchema,
  type AdminOrder,
  type AdminOrdersPage,
} from '../../contracts/orders';
import type { AppDependencies } from '../../dependencies';
import { toCents } from '../../http/money';
import { presentAdminOrder, presentOffer, presentPerson } from '../../orders/presenters';
import { findOrder, offersOf, orderCountsByStatus, ordersForAdmin, paymentsOf, peopleById, type OrderRow } from '../../orders/queries';
import { HttpError } from '../../http/errors';
import { readModelsCaughtUpWith } from '../../read-after-write';

const orderParams = z.strictObject({ orderId: z.uuid() });

/**
 * The admin's side of the after-sale pipeline (ADMIN only, by the scope these routes sit in): the
 * orders, overdue first; recording a bank transfer, changing the shipping charge before payment,
 * shipping with a tracking number, marking delivery, cancelling, offering the item to the runner-up,
 * relisting it. The order decider decides each; a step out of order is a 409 with its reason.
 */
export const adminOrderRoutes: FastifyPluginAsyncZod<{ deps: AppDependencies }> = async (app, { deps }) => {
  const { db } = deps;
  const presentation = { mediaStorage: deps.mediaStorage, paymentMethod: deps.afterSale.paymentMethod };

  async function present(rows: readonly OrderRow[]): Promise<AdminOrder[]> {
    const ids = rows.map((row) => row.id);
    const [payments, offers] = await Promise.all([paymentsOf(db, ids), offersOf(db, ids)]);
    const people = await peopleById(db, [...rows.map((row) => row.buyer_id), ...[...offers.values()].flat().map((offer) => offer.bidder_id)]);
    return rows.map((row) => presentAdminOrder(row, payments.get(row.id) ?? [], offers.get(row.id) ?? [], people, presentation));
  }

  async function existing(orderId: string): Promise<void> {
    if (!(await findOrder(db, orderId))) throw new HttpError(404, 'Order not found', 'ORDER_NOT_FOUND');
  }

  async function afterCommand(orderId: string): Promise<AdminOrder> {
    await readModelsCaughtUpWith(deps, orderStreamId(orderId));
    const row = await findOrder(db, orderId);
    if (!row) throw new Error(`Order ${orderId} missing from the read model after its own command`);
    return (await present([row]))[0]!;
  }

  /** One order command, as the signed-in admin, then the order as it now stands. */
  async function run(orderId: string, request: FastifyRequest, command: (metadata: OrderCommand['metadata']) => OrderCommand): Promise<AdminOrder> {
    await existing(orderId);
    await handleOrderCommand(deps.commands, command(commandMetadata(request.actor!, deps.clock(), { correlationId: request.id, commandId: randomUUID() })));
    return afterCommand(orderId);
  }

  app.get(
    '/api/admin/orders',
    {
      schema: {
        tags: ['admin'],
        summary: 'Orders, a page at a time: overdue first, then by payment due date; filter by status, search by order number, item or buyer',
        description: 'Also answers how many orders each status holds (all of them, whatever the filter).',
        security: [{ bearer: [] }],
        querystring: adminOrdersQuerySchema,
        response: { 200: adminOrdersPageSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => {
      const { page, size } = request.query;
      const [{ rows, total }, counts] = await Promise.all([ordersForAdmin(db, request.query), orderCountsByStatus(db)]);
      const totalPages = Math.ceil(total / size);
      return {
        content: await present(rows),
        totalElements: total,
        totalPages,
        number: page,
        size,
        first: page === 0,
        last: page >= totalPages - 1,
        counts: Object.fromEntries(orderStatusSchema.options.map((status) => [status, counts.get(status) ?? 0])) as AdminOrdersPage['counts'],
      };
    },
  );

  app.get(
    '/api/admin/orders/:orderId',
    {
      schema: {
        tags: ['admin'],
        summary: 'One order, with its buyer, payments and runner-up offers',
        security: [{ bearer: [] }],
        params: orderParams,
        response: { 200: adminOrderSchema, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => {
      const row = await findOrder(db, request.params.orderId);
      if (!row) throw new HttpError(404, 'Order not found', 'ORDER_NOT_FOUND');
      return (await present([row]))[0]!;
    },
  );

  app.post(
    '/api/admin/orders/:orderId/payments',
    {
      schema: {
        tags: ['admin'],
        summary: 'Record a bank transfer or wire that arrived: the whole balance pays the order, a part keeps it awaiting the rest',
        description: '409 when the order is paid or cancelled, when the amount exceeds what is owed, or when a payment with this reference is recorded already.',
        security: [{ bearer: [] }],
        params: orderParams,
        body: recordPaymentRequestSchema,
        response: { 200: adminOrderSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => {
      const { orderId } = request.params;
      const { amount, reference, receivedAt } = request.body;
      const cents = toCents(amount, 'amount');
      return run(orderId, request, (metadata) => ({
        type: 'RecordPayment',
        data: { orderId, paymentId: randomUUID(), method: 'BANK_TRANSFER', amount: cents, reference, receivedAt: receivedAtOf(receivedAt, metadata.now) },
        metadata,
      }));
    },
  );

  app.put(
    '/api/admin/orders/:orderId/shipping-charge',
    {
      schema: {
        tags: ['admin'],
        summary: "Change the order's shipping charge (before it is paid in full)",
        security: [{ bearer: [] }],
        params: orderParams,
        body: shippingChargeRequestSchema,
        response: { 200: adminOrderSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => {
      const { orderId } = request.params;
      const shipping = toCents(request.body.shipping, 'shipping');
      return run(orderId, request, (metadata) => ({ type: 'ChangeShippingCharge', data: { orderId, shipping }, metadata }));
    },
  );

  app.post(
    '/api/admin/orders/:orderId/shipment',
    {
      schema: {
        tags: ['admin'],
        summary: 'Ship a paid order: carrier and tracking number (the buyer is told)',
        description: '409 when the order is not paid in full, has no shipping address yet, has shipped already, or its address is no longer `shipTo`.',
        security: [{ bearer: [] }],
        params: orderParams,
        body: shipmentRequestSchema,
        response: { 200: adminOrderSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => {
      const { orderId } = request.params;
      const { carrier, trackingNumber } = request.body;
      // Without shipTo, the address the read model holds: a change the engine has seen since is refused.
      const shipTo = request.body.shipTo ?? (await findOrder(db, orderId))?.shipping_address ?? null;
      return run(orderId, request, (metadata) => ({ type: 'ShipOrder', data: { orderId, carrier, trackingNumber, shipTo }, metadata }));
    },
  );

  app.post(
    '/api/admin/orders/:orderId/delivered',
    {
      schema: {
        tags: ['admin'],
        summary: "Mark a shipped order delivered (the carrier's record): the sale is complete",
        security: [{ bearer: [] }],
        params: orderParams,
        response: { 200: adminOrderSchema, ...errorResponses(401, 403, 404, 409) },
      },
    },
    async (request) => {
      const { orderId } = request.params;
      return run(orderId, request, (metadata) => ({ type: 'ConfirmDelivery', data: { orderId }, metadata }));
    },
  );

  app.post(
    '/api/admin/orders/:orderId/cancel',
    {
      schema: {
        tags: ['admin'],
        summary: 'Cancel an unpaid order, with a reason (then offer the item to the runner-up, or relist it)',
        description: '400 without a reason; 409 when anything has been paid, or it is paid or cancelled already.',
        security: [{ bearer: [] }],
        params: orderParams,
        body: cancelOrderRequestSchema,
        response: { 200: adminOrderSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => {
      const { orderId } = request.params;
      return run(orderId, request, (metadata) => ({ type: 'CancelOrder', data: { orderId, reason: request.body.reason }, metadata }));
    },
  );

  app.post(
    '/api/admin/orders/:orderId/second-chance',
    {
      schema: {
        tags: ['admin'],
        summary: "Offer a cancelled sale to the runner-up at their own highest bid, valid 48 hours (eBay's Second Chance Offer)",
        description: '409 when the order is not cancelled, an offer is open, the item was relisted, or no other bidder is left.',
        security: [{ bearer: [] }],
        params: orderParams,
        response: { 201: adminSecondChanceOfferSchema, ...errorResponses(401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      const { orderId } = request.params;
      await existing(orderId);
      const offerId = randomUUID();
      await offerSecondChance(deps.commands, orderId, offerId, commandMetadata(request.actor!, deps.clock(), { correlationId: request.id, commandId: randomUUID() }));
      await readModelsCaughtUpWith(deps, orderStreamId(orderId));
      const offer = (await offersOf(db, [orderId])).get(orderId)?.find((candidate) => candidate.offer_id === offerId);
      if (!offer) throw new Error(`Offer ${offerId} missing from the read model after its own command`);
      const people = await peopleById(db, [offer.bidder_id]);
      return reply.code(201).send({ ...presentOffer(offer), bidder: presentPerson(offer.bidder_id, people.get(offer.bidder_id)) });
    },
  );

  app.post(
    '/api/admin/orders/:orderId/relist',
    {
      schema: {
        tags: ['admin'],
        summary: "Put a cancelled sale's item back on sale: the listing returns to NFC bound (its tag stays), ready to publish at a new auction",
        description: '409 when the order is not cancelled, an offer to the runner-up is open or was accepted, or it was relisted already.',
        security: [{ bearer: [] }],
        params: orderParams,
        response: { 200: adminOrderSchema, ...errorResponses(401, 403, 404, 409) },
      },
    },
    async (request) => {
      const { orderId } = request.params;
      await existing(orderId);
      const released = await releaseListing(deps.commands, {
        type: 'ReleaseListing',
        data: { orderId },
        metadata: commandMetadata(request.actor!, deps.clock(), { correlationId: request.id, commandId: randomUUID() }),
      });
      await readModelsCaughtUpWith(deps, listingStreamId(released.listingId));
      return afterCommand(orderId);
    },
  );
};

/**
 * When a payment arrived: now by default; a date alone is noon UTC of that day (the same calendar day
 * wherever it is read, from UTC-11 to UTC+11), or now if that is later than now.
 */
function receivedAtOf(given: string | undefined, now: string): string {
  if (given === undefined) return now;
  if (/^\d{4}-\d{2}-\d{2}$/.test(given)) return new Date(Math.min(Date.parse(`${given}T12:00:00.000Z`), Date.parse(now))).toISOString();
  return new Date(given).toISOString();
}

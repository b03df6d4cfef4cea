import { randomUUID } from 'node:crypto';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { acceptSecondChance, handleOrderCommand } from '../../engine/application/order-commands';
import { commandMetadata, orderStreamId, type Actor } from '../../engine/domain';
import { errorResponses } from '../contracts/common';
import { orderSchema, ordersSchema, secondChanceViewSchema, shippingAddressRequestSchema, type Order } from '../contracts/orders';
import type { AppDependencies } from '../dependencies';
import { HttpError } from '../http/errors';
import { readModelsCaughtUpWith } from '../read-after-write';
import { invoicePdf } from './invoice-pdf';
import { presentOfferView, presentOrder } from './presenters';
import { findOffer, findOrder, ordersOfBuyer, paymentsOf, peopleById, type OrderRow } from './queries';

const orderParams = z.strictObject({ orderId: z.uuid() });
const offerParams = z.strictObject({ offerId: z.uuid() });

/**
 * The buyer's side of the after-sale pipeline: their orders (invoice, how to pay, tracking), the
 * shipping address, "I received it", the invoice as a PDF, and the second-chance offers made to
 * them. Every route needs a signed-in user; an order is its buyer's (and any admin's) to read.
 */
export const orderRoutes: FastifyPluginAsyncZod<{ deps: AppDependencies }> = async (app, { deps }) => {
  const { db } = deps;
  const presentation = { mediaStorage: deps.mediaStorage, paymentMethod: deps.afterSale.paymentMethod };

  /** The order, if `actor` may read it: 404 when there is none, 403 when it is someone else's. */
  async function readableOrder(orderId: string, actor: Actor): Promise<OrderRow> {
    const row = await findOrder(db, orderId);
    if (!row) throw new HttpError(404, 'Order not found', 'ORDER_NOT_FOUND');
    if (row.buyer_id !== actor.userId && !actor.roles.includes('ADMIN')) throw new HttpError(403, 'Access denied', 'FORBIDDEN');
    return row;
  }

  async function present(rows: readonly OrderRow[]): Promise<Order[]> {
    const ids = rows.map((row) => row.id);
    const [payments, buyers] = await Promise.all([paymentsOf(db, ids), peopleById(db, rows.map((row) => row.buyer_id))]);
    return rows.map((row) => presentOrder(row, payments.get(row.id) ?? [], buyers.get(row.buyer_id), presentation));
  }

  /** The order as it stands after the request's own command. */
  async function presented(orderId: string): Promise<Order> {
    const row = await findOrder(db, orderId);
    if (!row) throw new Error(`Order ${orderId} missing from the read model after its own command`);
    return (await present([row]))[0]!;
  }

  app.get(
    '/api/v1/users/me/orders',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['orders'],
        summary: "The signed-in user's purchases, newest first: each order's status, invoice and what to do next",
        security: [{ bearer: [] }],
        response: { 200: ordersSchema, ...errorResponses(401) },
      },
    },
    async (request) => {
      return { content: await present(await ordersOfBuyer(db, request.actor!.userId)) };
    },
  );

  app.get(
    '/api/v1/orders/:orderId',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['orders'],
        summary: 'One order: the invoice (hammer price, premium, shipping, total, paid), how to pay, shipping and tracking',
        description: 'The buyer or an admin; 403 for anyone else.',
        security: [{ bearer: [] }],
        params: orderParams,
        response: { 200: orderSchema, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => {
      return (await present([await readableOrder(request.params.orderId, request.actor!)]))[0]!;
    },
  );

  app.put(
    '/api/v1/orders/:orderId/shipping-address',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['orders'],
        summary: 'Where the item ships: asked once the auction is won, changeable until it ships',
        description: '400 with the field at fault (country: an ISO 3166-1 two-letter code); 403 for anyone but the buyer; 409 once shipped or cancelled.',
        security: [{ bearer: [] }],
        params: orderParams,
        body: shippingAddressRequestSchema,
        response: { 200: orderSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => {
      const { orderId } = request.params;
      await readableOrder(orderId, request.actor!);
      await handleOrderCommand(deps.commands, {
        type: 'SetShippingAddress',
        data: { orderId, address: request.body },
        metadata: commandMetadata(request.actor!, deps.clock(), { correlationId: request.id, commandId: randomUUID() }),
      });
      await readModelsCaughtUpWith(deps, orderStreamId(orderId));
      return presented(orderId);
    },
  );

  app.post(
    '/api/v1/orders/:orderId/confirm-receipt',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['orders'],
        summary: '"I received it": the order is delivered, and the sale complete',
        description: 'The buyer (an admin marks delivery at /api/admin/orders/{id}/delivered). 409 before it ships; again after delivery changes nothing.',
        security: [{ bearer: [] }],
        params: orderParams,
        response: { 200: orderSchema, ...errorResponses(401, 403, 404, 409) },
      },
    },
    async (request) => {
      const { orderId } = request.params;
      const row = await readableOrder(orderId, request.actor!);
      if (row.buyer_id !== request.actor!.userId) throw new HttpError(403, 'Access denied', 'FORBIDDEN');
      await handleOrderCommand(deps.commands, {
        type: 'ConfirmDelivery',
        data: { orderId },
        metadata: commandMetadata(request.actor!, deps.clock(), { correlationId: request.id, commandId: randomUUID() }),
      });
      await readModelsCaughtUpWith(deps, orderStreamId(orderId));
      return presented(orderId);
    },
  );

  app.get(
    '/api/v1/orders/:orderId/invoice.pdf',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['orders'],
        summary: "The order's invoice as a PDF",
        security: [{ bearer: [] }],
        params: orderParams,
        produces: ['application/pdf'],
      },
    },
    async (request, reply) => {
      const row = await readableOrder(request.params.orderId, request.actor!);
      const pdf = await invoicePdf((await present([row]))[0]!);
      return reply
        .type('application/pdf')
        .header('content-disposition', `inline; filename="invoice-${row.order_number}.pdf"`)
        .header('cache-control', 'private, no-store')
        .send(pdf);
    },
  );

  app.get(
    '/api/v1/second-chance/:offerId',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['orders'],
        summary: 'A second-chance offer made to the signed-in runner-up: the item, the amount (their own highest bid), until when',
        security: [{ bearer: [] }],
        params: offerParams,
        response: { 200: secondChanceViewSchema, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => {
      const offer = await findOffer(db, request.params.offerId);
      if (!offer) throw new HttpError(404, 'Offer not found', 'OFFER_NOT_FOUND');
      if (offer.bidder_id !== request.actor!.userId && !request.actor!.roles.includes('ADMIN')) throw new HttpError(403, 'Access denied', 'FORBIDDEN');
      return presentOfferView(offer, deps.mediaStorage, deps.afterSale.shippingRates);
    },
  );

  app.post(
    '/api/v1/second-chance/:offerId/accept',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['orders'],
        summary: 'Accept a second-chance offer: the item is yours at the offer, and an order of your own is placed',
        description: '403 for anyone but the bidder it was made to; 409 when it has expired or was answered already.',
        security: [{ bearer: [] }],
        params: offerParams,
        response: { 201: orderSchema, ...errorResponses(401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      const offer = await findOffer(db, request.params.offerId);
      if (!offer) throw new HttpError(404, 'Offer not found', 'OFFER_NOT_FOUND');
      const { newOrderId } = await acceptSecondChance(
        deps.commands,
        {
          type: 'AcceptSecondChance',
          data: { orderId: offer.order_id, offerId: offer.offer_id },
          metadata: commandMetadata(request.actor!, deps.clock(), { correlationId: request.id, commandId: randomUUID() }),
        },
        deps.afterSale.shippingRates,
      );
      await readModelsCaughtUpWith(deps, orderStreamId(offer.order_id), orderStreamId(newOrderId));
      return reply.code(201).send(await presented(newOrderId));
    },
  );

  app.post(
    '/api/v1/second-chance/:offerId/decline',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['orders'],
        summary: 'Decline a second-chance offer',
        security: [{ bearer: [] }],
        params: offerParams,
        response: { 200: secondChanceViewSchema, ...errorResponses(401, 403, 404, 409) },
      },
    },
    async (request) => {
      const offer = await findOffer(db, request.params.offerId);
      if (!offer) throw new HttpError(404, 'Offer not found', 'OFFER_NOT_FOUND');
      await handleOrderCommand(deps.commands, {
        type: 'DeclineSecondChance',
        data: { orderId: offer.order_id, offerId: offer.offer_id },
        metadata: commandMetadata(request.actor!, deps.clock(), { correlationId: request.id, commandId: randomUUID() }),
      });
      await readModelsCaughtUpWith(deps, orderStreamId(offer.order_id));
      return presentOfferView((await findOffer(db, offer.offer_id))!, deps.mediaStorage, deps.afterSale.shippingRates);
    },
  );
};

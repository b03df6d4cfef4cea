import { randomUUID } from 'node:crypto';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { bidIdPattern, commandMetadata, type AuctionCommand } from '../../engine/domain';
import type { AppDependencies } from '../dependencies';
import { HttpError } from '../http/errors';
import { toCents } from '../http/money';
import { IdempotencyKeyStore, idempotencyKeyHeaders, idempotencyKeys } from './idempotency';
import { bidRejectionSchema, bidSchema, buyNowRequestSchema, placeBidRequestSchema, placedBidSchema, purchaseSchema, userBidSchema, type BuyNowRequest, type PlaceBidRequest } from '../contracts/bids';
import { presentBid, presentBidRejection, presentPlacedBid, presentPurchase, presentUserBid } from './presenters';
import { auctionBidHistory, auctionExists, findBid, userBidHistory, userBidRejections } from './queries';
import { receiptSchema } from '../contracts/receipts';
import { receiptForHandled, receiptsOf } from '../integrity/receipts';

const paging = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
});

const UUID = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';
const bidIdParams = z.object({
  // A proxy's bids are named after the bid they answer: "{bidId}/auto/{n}" (send the slash as %2F).
  id: z.string().regex(bidIdPattern(UUID), 'must be a bid id'),
});

/** Placing bids (signed in), and the bid history of an auction (public) or of the caller. */
export const bidRoutes: FastifyPluginAsyncZod<{ deps: AppDependencies }> = async (app, { deps }) => {
  const keys = new IdempotencyKeyStore(deps.db);
  const idempotency = idempotencyKeys({
    store: keys,
    clock: deps.clock,
    fingerprint: (request) => {
      const { auctionId, amount, maxAmount } = request.body as PlaceBidRequest;
      return ['POST /api/bids', auctionId, amount, maxAmount ?? null];
    },
  });

  app.post(
    '/api/bids',
    {
      preHandler: [app.authenticate, app.limitRate('bids'), idempotency.claim],
      onSend: idempotency.record,
      schema: {
        tags: ['bids'],
        summary: 'Place a bid; durable in the auction\'s log before the answer',
        description:
          'Refusals come back with the engine\'s message, e.g. 409 "Bid must be higher than current price of $50.00". ' +
          'With an Idempotency-Key, a retry gets the first answer (the same status and body) and never bids twice; ' +
          'the same key with another body is 422. Past the account\'s limit (RATE_LIMIT_BIDS, shared with buy-now), 429 with Retry-After.',
        security: [{ bearer: [] }],
        headers: idempotencyKeyHeaders,
        body: placeBidRequestSchema,
        response: { 201: placedBidSchema },
      },
    },
    async (request, reply) => {
      const { auctionId, amount, maxAmount } = request.body;
      const command: AuctionCommand = {
        type: 'PlaceBid',
        data: {
          auctionId,
          bidId: randomUUID(),
          amount: toCents(amount, 'Amount'),
          maximum: maxAmount == null ? null : toCents(maxAmount, 'Maximum amount'),
        },
        metadata: commandMetadata(request.actor!, deps.clock(), { correlationId: request.id, commandId: idempotency.commandIdOf(request) }),
      };
      const handled = await deps.metrics.countBid('bid', deps.auctionCommands.handle(command));
      return reply.code(201).send(presentPlacedBid(handled, await receiptForHandled(deps, handled, request.actor!.userId)));
    },
  );

  const buyNowIdempotency = idempotencyKeys({
    store: keys,
    clock: deps.clock,
    fingerprint: (request) => ['POST /api/bids/buy-now', (request.body as BuyNowRequest).auctionId],
  });

  app.post(
    '/api/bids/buy-now',
    {
      preHandler: [app.authenticate, app.limitRate('bids'), buyNowIdempotency.claim],
      onSend: buyNowIdempotency.record,
      schema: {
        tags: ['bids'],
        summary: 'Buy the lot now at its buy-now price: the auction closes, sold to you',
        description:
          'Offered until the first bid (with a reserve: until the reserve is met). Refusals come back with the engine\'s message, ' +
          'e.g. 409 "Buy now is no longer available: bidding has started". Idempotency-Key and rate limit as for bids.',
        security: [{ bearer: [] }],
        headers: idempotencyKeyHeaders,
        body: buyNowRequestSchema,
        response: { 201: purchaseSchema },
      },
    },
    async (request, reply) => {
      const command: AuctionCommand = {
        type: 'BuyNow',
        data: { auctionId: request.body.auctionId, bidId: randomUUID() },
        metadata: commandMetadata(request.actor!, deps.clock(), { correlationId: request.id, commandId: buyNowIdempotency.commandIdOf(request) }),
      };
      const handled = await deps.metrics.countBid('buy_now', deps.auctionCommands.handle(command));
      return reply.code(201).send(presentPurchase(handled, await receiptForHandled(deps, handled, request.actor!.userId)));
    },
  );

  app.get(
    '/api/bids/user/history',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['bids'],
        summary: 'Your own bids, newest first, with the state of each auction',
        description: 'Includes raises of your own maximum (kind MAXIMUM) and the bids your maximum placed for you (AUTO); your maximums are shown.',
        security: [{ bearer: [] }],
        querystring: paging,
        response: { 200: z.array(userBidSchema) },
      },
    },
    async (request) => (await userBidHistory(deps.db, request.actor!.userId, request.query)).map(presentUserBid),
  );

  app.get(
    '/api/bids/user/receipts',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['bids'],
        summary: 'Your signed receipts for one auction: each bid, raised maximum or buy-now you made there, in order',
        description:
          'Each receipt is signed now by the server\'s current key (see /.well-known/provenance-keys.json), over the event as the log ' +
          'holds it; an event whose hash chain no longer checks gets none. Prove a receipt later with GET /api/public/receipts/{bidId}/proof.',
        security: [{ bearer: [] }],
        querystring: z.object({ auctionId: z.uuid() }),
        response: { 200: z.array(receiptSchema) },
      },
    },
    async (request) => {
      const { auctionId } = request.query;
      if (!(await auctionExists(deps.db, auctionId))) throw new HttpError(404, 'Auction not found', 'AUCTION_NOT_FOUND');
      return receiptsOf(deps, auctionId, request.actor!.userId);
    },
  );

  app.get(
    '/api/bids/user/rejections',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['bids'],
        summary: 'Your refused bid attempts, newest first, with why each was refused',
        security: [{ bearer: [] }],
        querystring: paging,
        response: { 200: z.array(bidRejectionSchema) },
      },
    },
    async (request) => (await userBidRejections(deps.db, request.actor!.userId, request.query)).map(presentBidRejection),
  );

  app.get(
    '/api/bids/auction/:auctionId',
    {
      schema: {
        tags: ['bids'],
        summary: "An auction's bid history, newest first: a plain array of bids",
        description:
          'Bids placed by bidders (BID), by their maximums (AUTO) and buy-now purchases; a leader raising their own maximum is private. ' +
          'The X-Total-Count header gives the number of bids in the whole history. 404 "Auction not found".',
        params: z.object({ auctionId: z.uuid() }),
        querystring: paging,
        response: { 200: z.array(bidSchema) },
      },
    },
    async (request, reply) => {
      const { auctionId } = request.params;
      if (!(await auctionExists(deps.db, auctionId))) throw new HttpError(404, 'Auction not found', 'AUCTION_NOT_FOUND');
      const { rows, total } = await auctionBidHistory(deps.db, auctionId, request.query);
      return reply.header('x-total-count', String(total)).send(rows.map(presentBid));
    },
  );

  app.get(
    '/api/bids/:id',
    {
      schema: {
        tags: ['bids'],
        summary: 'One bid; 404 "Bid not found"',
        params: bidIdParams,
        response: { 200: bidSchema },
      },
    },
    async (request) => {
      const bid = await findBid(deps.db, request.params.id);
      if (!bid) throw new HttpError(404, 'Bid not found', 'BID_NOT_FOUND');
      return presentBid(bid);
    },
  );
};

import { randomUUID } from 'node:crypto';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { handleAuctionCommand } from '../../../engine/application/auction-commands';
import { auctionStreamId, commandMetadata } from '../../../engine/domain';
import { bidRetractionAnswerSchema, retractBidRequestSchema } from '../../contracts/admin/auctions';
import { errorResponses } from '../../contracts/common';
import type { AppDependencies } from '../../dependencies';
import { presentAuction } from '../../listings/presenters';
import { findAuction } from '../../listings/queries';
import { readModelsCaughtUpWith } from '../../read-after-write';

const retractionParams = z.object({ auctionId: z.uuid(), bidId: z.uuid() });

/** Moderation of running auctions: the engine decides (ADMIN only, a reason, an open auction, a bid not yet retracted). */
export const adminAuctionRoutes: FastifyPluginAsyncZod<{ deps: AppDependencies }> = async (app, { deps }) => {
  app.post(
    '/api/admin/auctions/:auctionId/bids/:bidId/retract',
    {
      schema: {
        tags: ['admin'],
        summary: 'Retract a bid with a reason: the leader and price are worked out again from the bids left',
        description:
          'The bid is one a bidder placed (its automatic answers go with it). 400 "A reason is required"; 404 "Bid not found"; ' +
          '409 when the auction is not open or the bid was retracted already. Buyers see it live as bid_retracted.',
        security: [{ bearer: [] }],
        params: retractionParams,
        body: retractBidRequestSchema,
        response: { 200: bidRetractionAnswerSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => {
      const { auctionId, bidId } = request.params;
      const handled = await handleAuctionCommand(deps.commands, {
        type: 'RetractBid',
        data: { auctionId, bidId, reason: request.body.reason },
        metadata: commandMetadata(request.actor!, deps.clock(), { correlationId: request.id, commandId: randomUUID() }),
      });
      const retracted = handled.events.find((event) => event.type === 'BidRetracted');
      await readModelsCaughtUpWith(deps, auctionStreamId(auctionId));
      const auction = await findAuction(deps.db, auctionId);
      if (retracted?.type !== 'BidRetracted' || !auction) throw new Error('An accepted retraction without its BidRetracted event or its auction');
      return { auctionId, bidId, reason: retracted.data.reason, auction: presentAuction(auction, deps.clock()) };
    },
  );
};

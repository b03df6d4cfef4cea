import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { Database } from '../database';
import type { AppDependencies } from '../dependencies';
import { HttpError } from '../http/errors';
import { auctionSchema, auctionStatusAnswerSchema } from '../contracts/auctions';
import { pageSchema } from '../contracts/common';
import { listingSchema } from '../contracts/listings';
import { presentAuction, presentListing } from './presenters';
import { listingSearchQuery, printableText, toPage } from './paging';
import { findAuction, findPublicListing, PUBLIC_LISTING_STATUSES, searchListings, type AuctionRow, type ListingRow } from './queries';

const listingsQuery = listingSearchQuery.extend({
  status: z.enum(PUBLIC_LISTING_STATUSES).default('LIVE').describe('LIVE (the marketplace, default), or SOLD and UNSOLD for past lots'),
});

const slugOrIdParams = z.object({
  slugOrId: printableText(200).min(1).describe("The listing's slug or its id"),
});

/** The marketplace, read from the listings and auctions read models. No sign-in. */
export const listingRoutes: FastifyPluginAsyncZod<{ deps: AppDependencies }> = async (app, { deps }) => {
  app.get(
    '/api/public/listings',
    {
      schema: {
        tags: ['listings'],
        summary: 'Published listings, paged, searched, filtered and sorted',
        querystring: listingsQuery,
        response: { 200: pageSchema(listingSchema) },
      },
    },
    async (request) => {
      const { page, size, search, category, tag, status, sort } = request.query;
      const { rows, total } = await searchListings(deps.db, { page, size, status, search: search || undefined, category, tags: tag, sort });
      return toPage(rows.map((row) => presentListing(row, deps.mediaStorage)), total, page, size);
    },
  );

  app.get(
    '/api/public/listings/:slugOrId',
    {
      schema: {
        tags: ['listings'],
        summary: 'One published listing, by slug or id; 404 "Listing not found"',
        params: slugOrIdParams,
        response: { 200: listingSchema },
      },
    },
    async (request) => presentListing(await requirePublicListing(deps.db, request.params.slugOrId), deps.mediaStorage),
  );

  app.get(
    '/api/public/listings/:slugOrId/auction',
    {
      schema: {
        tags: ['listings'],
        summary: "The listing's auction: price, leader, minimum bid, rules and outcome; 404 \"No auction available for this item\"",
        params: slugOrIdParams,
        response: { 200: auctionSchema },
      },
    },
    async (request) => presentAuction(await requireAuctionOf(deps.db, request.params.slugOrId), deps.clock()),
  );

  app.get(
    '/api/public/listings/:slugOrId/auction/status',
    {
      schema: {
        tags: ['listings'],
        summary: "The auction's live figures only, for polling",
        params: slugOrIdParams,
        response: { 200: auctionStatusAnswerSchema },
      },
    },
    // The serializer keeps only the status fields.
    async (request) => presentAuction(await requireAuctionOf(deps.db, request.params.slugOrId), deps.clock()),
  );
};

async function requirePublicListing(db: Kysely<Database>, slugOrId: string): Promise<ListingRow> {
  const listing = await findPublicListing(db, slugOrId);
  if (!listing) throw new HttpError(404, 'Listing not found', 'LISTING_NOT_FOUND');
  return listing;
}

async function requireAuctionOf(db: Kysely<Database>, slugOrId: string): Promise<AuctionRow> {
  const listing = await requirePublicListing(db, slugOrId);
  const auction = listing.auction_id === null ? undefined : await findAuction(db, listing.auction_id);
  if (!auction) throw new HttpError(404, 'No auction available for this item', 'NO_AUCTION');
  return auction;
}

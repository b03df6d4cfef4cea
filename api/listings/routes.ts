import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { listingCategorySchema } from '../../engine/domain';
import type { Database } from '../database';
import type { AppDependencies } from '../dependencies';
import { HttpError } from '../http/errors';
import { auctionAnswerSchema, auctionStatusAnswerSchema, listingAnswerSchema, presentAuction, presentListing } from './presenters';
import {
  findAuction,
  findPublicListing,
  LISTING_SORT_FIELDS,
  PUBLIC_LISTING_STATUSES,
  searchPublicListings,
  type AuctionRow,
  type ListingRow,
  type ListingSortField,
} from './queries';

// Field names exactly as the spec's client sends them; the direction in either case, as Spring takes it.
const SORT_PATTERN = new RegExp(`^(${LISTING_SORT_FIELDS.join('|')})(,(asc|desc|ASC|DESC))?$`);

/** Postgres refuses text holding NUL: such input is a 400, never a database error. */
const printableText = (max: number) => z.string().max(max).regex(/^[^\u0000-\u001f\u007f]*$/, 'must not contain control characters');

const listingsQuery = z.object({
  page: z.coerce.number().int().min(0).max(1_000_000).default(0),
  size: z.coerce.number().int().min(1).max(100).default(20),
  search: printableText(200)
    .trim()
    .optional()
    .describe('Matches player, team, title and description; case-insensitive "contains"'),
  category: listingCategorySchema.optional(),
  status: z.enum(PUBLIC_LISTING_STATUSES).default('LIVE').describe('LIVE (the marketplace, default), or SOLD and UNSOLD for past lots'),
  sort: z
    .string()
    .regex(SORT_PATTERN, 'must be "{field},{direction}" with field createdAt, price, title or endsAt and direction asc or desc')
    .default('createdAt,desc')
    .transform(parseSort)
    .describe(
      '"{field},{direction}": createdAt, price, title, or endsAt (endsAt,asc = ending soonest; listings without an auction last); ' +
        'asc or desc. Default createdAt,desc',
    ),
});

const pagedListings = z.object({
  content: z.array(listingAnswerSchema),
  totalElements: z.number(),
  totalPages: z.number(),
  number: z.number().describe('This page, from 0'),
  size: z.number(),
  first: z.boolean(),
  last: z.boolean(),
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
        response: { 200: pagedListings },
      },
    },
    async (request) => {
      const { page, size, search, category, status, sort } = request.query;
      const { rows, total } = await searchPublicListings(deps.db, { page, size, status, search: search || undefined, category, sort });
      const totalPages = Math.ceil(total / size);
      return {
        content: rows.map(presentListing),
        totalElements: total,
        totalPages,
        number: page,
        size,
        first: page === 0,
        last: page >= totalPages - 1,
      };
    },
  );

  app.get(
    '/api/public/listings/:slugOrId',
    {
      schema: {
        tags: ['listings'],
        summary: 'One published listing, by slug or id; 404 "Listing not found"',
        params: slugOrIdParams,
        response: { 200: listingAnswerSchema },
      },
    },
    async (request) => presentListing(await requirePublicListing(deps.db, request.params.slugOrId)),
  );

  app.get(
    '/api/public/listings/:slugOrId/auction',
    {
      schema: {
        tags: ['listings'],
        summary: "The listing's auction: price, leader, minimum bid, rules and outcome; 404 \"No auction available for this item\"",
        params: slugOrIdParams,
        response: { 200: auctionAnswerSchema },
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

function parseSort(text: string): { field: ListingSortField; direction: 'asc' | 'desc' } {
  const [field, direction = 'asc'] = text.split(',') as [ListingSortField, string?];
  return { field, direction: direction.toLowerCase() === 'desc' ? 'desc' : 'asc' };
}

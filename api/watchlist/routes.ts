import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import { z } from 'zod';
import { effectiveStatus } from '../../engine/domain';
import { errorResponses } from '../contracts/common';
import { MAX_WATCHLIST_ITEMS, watchlistSchema, type WatchlistItem } from '../contracts/watchlist';
import type { AppDependencies } from '../dependencies';
import { HttpError } from '../http/errors';
import { centsOf, toDecimalString } from '../http/money';
import { PUBLIC_LISTING_STATUSES } from '../listings/queries';

const listingParams = z.strictObject({ listingId: z.string().min(1).max(200) });

/**
 * The signed-in user's watchlist (/api/v1/users/me/watchlist): the listings they follow with the
 * heart, kept on the server so the list follows the account to every device. Following is what
 * ENDING_SOON notices are sent for.
 */
export const watchlistRoutes: FastifyPluginAsyncZod<{ deps: AppDependencies }> = async (app, { deps }) => {
  const { db } = deps;

  app.get(
    '/api/v1/users/me/watchlist',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['users'],
        summary: 'The listings the signed-in user follows, most recently added first',
        security: [{ bearer: [] }],
        response: { 200: watchlistSchema, ...errorResponses(401) },
      },
    },
    async (request) => {
      const rows = await db
        .selectFrom('watchlist as w')
        .innerJoin('listings as l', 'l.id', 'w.listing_id')
        .leftJoin('auctions as a', 'a.id', 'l.auction_id')
        .select(['l.id', 'l.slug', 'l.title', 'l.status', 'l.price', 'l.media_ids', 'l.auction_ends_at', 'w.added_at', 'a.status as auctionStatus', 'a.starts_at', 'a.ends_at'])
        .where('w.user_id', '=', request.actor!.userId)
        .where('l.status', 'in', PUBLIC_LISTING_STATUSES)
        .orderBy('w.added_at', 'desc')
        .orderBy('l.id')
        .limit(MAX_WATCHLIST_ITEMS)
        .$narrowType<{ status: (typeof PUBLIC_LISTING_STATUSES)[number] }>()
        .execute();
      const now = deps.clock().toISOString();
      return {
        content: rows.map(
          (row): WatchlistItem => ({
            listingId: row.id,
            slug: row.slug,
            title: row.title,
            imageUrl: row.media_ids[0] === undefined ? null : deps.mediaStorage.publicUrl(row.media_ids[0]),
            listingStatus: row.status,
            auctionStatus:
              row.auctionStatus && row.starts_at && row.ends_at
                ? effectiveStatus({ status: row.auctionStatus, startsAt: new Date(row.starts_at).toISOString(), endsAt: new Date(row.ends_at).toISOString() }, now)
                : null,
            currentPrice: toDecimalString(centsOf(row.price)),
            endsAt: row.auction_ends_at ? new Date(row.auction_ends_at).toISOString() : null,
            addedAt: new Date(row.added_at).toISOString(),
          }),
        ),
      };
    },
  );

  app.put(
    '/api/v1/users/me/watchlist/:listingId',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['users'],
        summary: 'Follow a listing (idempotent)',
        description: `204 whether or not it was followed already; 404 for a listing that is not public; 409 past ${MAX_WATCHLIST_ITEMS} followed listings.`,
        security: [{ bearer: [] }],
        params: listingParams,
        response: { 204: z.null(), ...errorResponses(401, 404, 409) },
      },
    },
    async (request, reply) => {
      const userId = request.actor!.userId;
      const listing = await db.selectFrom('listings').select('id').where('id', '=', request.params.listingId).where('status', 'in', PUBLIC_LISTING_STATUSES).executeTakeFirst();
      if (!listing) throw new HttpError(404, 'Listing not found', 'LISTING_NOT_FOUND');
      const already = await db.selectFrom('watchlist').select('listing_id').where('user_id', '=', userId).where('listing_id', '=', listing.id).executeTakeFirst();
      if (already) return reply.code(204).send(null);
      const count = await db.selectFrom('watchlist').select(sql<string | number>`count(*)`.as('n')).where('user_id', '=', userId).executeTakeFirstOrThrow();
      if (Number(count.n) >= MAX_WATCHLIST_ITEMS) {
        throw new HttpError(409, `You follow ${MAX_WATCHLIST_ITEMS} listings already: remove some to follow more`, 'WATCHLIST_FULL');
      }
      await db
        .insertInto('watchlist')
        .values({ user_id: userId, listing_id: listing.id, added_at: deps.clock() })
        .onConflict((oc) => oc.columns(['user_id', 'listing_id']).doNothing())
        .execute();
      return reply.code(204).send(null);
    },
  );

  app.delete(
    '/api/v1/users/me/watchlist/:listingId',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['users'],
        summary: 'Stop following a listing (idempotent)',
        description: '204 whether or not it was followed; 404 for a listing that does not exist.',
        security: [{ bearer: [] }],
        params: listingParams,
        response: { 204: z.null(), ...errorResponses(401, 404) },
      },
    },
    async (request, reply) => {
      const userId = request.actor!.userId;
      const removed = await db.deleteFrom('watchlist').where('user_id', '=', userId).where('listing_id', '=', request.params.listingId).returning('listing_id').execute();
      if (removed.length === 0) {
        const exists = await db.selectFrom('listings').select('id').where('id', '=', request.params.listingId).executeTakeFirst();
        if (!exists) throw new HttpError(404, 'Listing not found', 'LISTING_NOT_FOUND');
      }
      return reply.code(204).send(null);
    },
  );
};

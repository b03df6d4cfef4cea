import { z } from 'zod';
import { listingStatusSchema } from '../../engine/domain/listing/listing';
import { auctionStatusSchema } from './auctions';

/**
 * A buyer's watchlist (the hearts): kept on the server, so that it follows the account to every
 * device. GET /api/v1/users/me/watchlist answers the followed listings as they are now.
 */
export const watchlistItemSchema = z.object({
  listingId: z.string(),
  slug: z.string(),
  title: z.string(),
  imageUrl: z.string().nullable().describe("The listing's first image; null when it has none"),
  listingStatus: listingStatusSchema.extract(['LIVE', 'SOLD', 'UNSOLD']).describe('Only public listings are listed'),
  auctionStatus: auctionStatusSchema.nullable().describe('null when the listing has no auction'),
  currentPrice: z.string().describe('Dollars, as a decimal string like every listing price'),
  endsAt: z.string().nullable().describe("The auction's current end"),
  addedAt: z.string(),
});
export type WatchlistItem = z.infer<typeof watchlistItemSchema>;

export const watchlistSchema = z.object({ content: z.array(watchlistItemSchema) });
export type Watchlist = z.infer<typeof watchlistSchema>;

/** Most listings one account follows: a list a person reads, not a crawl of the catalogue. */
export const MAX_WATCHLIST_ITEMS = 500;

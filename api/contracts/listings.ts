import { z } from 'zod';
import { listingCategorySchema, listingStatusSchema, listingTagSchema, sportTypeSchema } from '../../engine/domain/listing/listing';

/** What the jersey form recorded about the game; every field may be missing on older items. */
export const jerseyDetailsSchema = z.object({
  jerseyNumber: z.number().nullable().optional(),
  gameTitle: z.string().nullable().optional(),
  gameDate: z.string().nullable().optional(),
  opponent: z.string().nullable().optional(),
  venue: z.string().nullable().optional(),
  stats: z.record(z.string(), z.union([z.number(), z.string(), z.null()])).nullable().optional(),
});
export type JerseyDetails = z.infer<typeof jerseyDetailsSchema>;

/** A published listing as the marketplace and its detail page read it, plus its auction's id and current end. */
export const listingSchema = z.object({
  id: z.string(),
  ownerId: z.string(),
  title: z.string(),
  description: z.string(),
  price: z.string().describe("The price a buyer sees, in dollars: the auction's current price once bidding has started"),
  category: listingCategorySchema.describe('CLOTHING, EQUIPMENT, FOOTWEAR or ACCESSORIES'),
  condition: z.string(),
  sportType: sportTypeSchema.describe('FOOTBALL, BASKETBALL, BASEBALL or SOCCER'),
  mediaUrls: z.array(z.string()),
  status: listingStatusSchema,
  slug: z.string(),
  nfcUid: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  playerName: z.string().nullable(),
  teamOrClub: z.string().nullable(),
  leagueOrEvent: z.string().nullable(),
  dateOrSeason: z.string().nullable(),
  size: z.string().nullable(),
  tags: z.array(listingTagSchema),
  jersey: jerseyDetailsSchema.nullable().describe('Game details from the jersey form, when the item came in through it'),
  auctionId: z.string().nullable(),
  endsAt: z.string().nullable().describe("The auction's current end (soft close included): the card shows the real time left"),
});
export type Listing = z.infer<typeof listingSchema>;
export type ListingCategory = z.infer<typeof listingCategorySchema>;
export type ListingTag = z.infer<typeof listingTagSchema>;
export type ListingStatus = z.infer<typeof listingStatusSchema>;


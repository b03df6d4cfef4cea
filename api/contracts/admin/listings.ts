import { z } from 'zod';
import {
  listingCategorySchema,
  listingStatusSchema,
  listingTagSchema,
  MAX_MEDIA_PER_LISTING,
  sportTypeSchema,
} from '../../../engine/domain/listing/listing';
import { DEFAULT_AFTER_SALE_TERMS, MAX_BUYERS_PREMIUM_BASIS_POINTS, MAX_PAYMENT_WINDOW_SECONDS, MIN_PAYMENT_WINDOW_SECONDS } from '../../../engine/domain/auction/rules';
import { auctionSchema } from '../auctions';
import { listingSchema } from '../listings';

/**
 * The admin's listings: the general listing form (create, revise), its media, its status, and the
 * auction's rule set chosen at publish. Prices in dollars.
 */

/** What the admin sees of a listing: the public shape, every status, and the media ids to arrange. */
export const adminListingSchema = listingSchema.extend({
  mediaIds: z.array(z.string()).describe('In display order; POST /api/admin/listings/{id}/media rearranges them'),
});
export type AdminListing = z.infer<typeof adminListingSchema>;

export const adminListingDetailSchema = adminListingSchema.extend({
  auction: auctionSchema.nullable().describe('The auction it was published with; null before publishing'),
});
export type AdminListingDetail = z.infer<typeof adminListingDetailSchema>;

const mediaIds = z.array(z.string().min(1).max(200)).max(MAX_MEDIA_PER_LISTING, `A listing can have at most ${MAX_MEDIA_PER_LISTING} media files`);
const text = (max: number) => z.string().trim().max(max);

/** The general listing fields: PUT /api/admin/listings/{id} revises them. */
export const listingFormSchema = z.strictObject({
  title: text(200).min(1, 'Title is required'),
  description: text(10_000).default(''),
  category: listingCategorySchema,
  condition: text(50).min(1, 'Condition is required'),
  sportType: sportTypeSchema,
  price: z.number().min(0).max(100_000_000).describe("Dollars: the asking price, and the auction's starting price unless publishing says otherwise"),
  playerName: text(200).nullable().default(null),
  teamOrClub: text(200).nullable().default(null),
  leagueOrEvent: text(200).nullable().default(null),
  dateOrSeason: text(100).nullable().default(null),
  size: text(20).nullable().default(null),
  tags: z.array(listingTagSchema).max(20).default([]),
});
export type ListingForm = z.infer<typeof listingFormSchema>;

/** POST /api/admin/listings: the fields, the media, and whether to save (and bind a tag) at once. */
export const createListingRequestSchema = listingFormSchema.extend({
  mediaIds: mediaIds.default([]),
  save: z.boolean().default(true).describe('Save at once (needs at least one uploaded media file); false keeps a draft'),
  nfcUid: z.string().max(64).optional().describe('Bind this provisioned tag in the same step (needs save)'),
});
export type CreateListingRequest = z.infer<typeof createListingRequestSchema>;

/** POST /api/admin/listings/{id}/media: the listing's media, in display order. */
export const arrangeMediaRequestSchema = z.strictObject({ mediaIds });
export type ArrangeMediaRequest = z.infer<typeof arrangeMediaRequestSchema>;

/** PUT /api/admin/listings/{id}/status */
export const listingStatusChangeRequestSchema = z.strictObject({
  status: listingStatusSchema,
  reason: z.string().max(2000).optional().describe('Required to withdraw'),
});
export type ListingStatusChangeRequest = z.infer<typeof listingStatusChangeRequestSchema>;

/** The premium and payment window a publication gets unless it says otherwise (20%, a week). */
export { DEFAULT_AFTER_SALE_TERMS };

/** Unless the publisher says otherwise: a week long, the spec's $1 step, and anti-sniping on. */
export const PUBLICATION_DEFAULTS = {
  durationHours: 7 * 24,
  incrementTable: 'FLAT_ONE_DOLLAR',
  // MatchWornShirt's 3-minute reset, never more than a day past the scheduled end.
  softClose: { windowSeconds: 180, maxExtensionHours: 24 },
} as const;

export const incrementTableNameSchema = z.enum(['FLAT_ONE_DOLLAR', 'EBAY']);
export type IncrementTableName = z.infer<typeof incrementTableNameSchema>;

const dollars = z.number().min(0).max(100_000_000);

/** POST /api/admin/listings/{id}/publish: the auction's rule set, chosen at publish; every field optional. */
export const publicationRequestSchema = z
  .strictObject({
    startingPrice: dollars.optional().describe("Dollars. Default: the listing's asking price"),
    startsAt: z.iso.datetime({ offset: true }).optional().describe('Default: now (the auction opens at once)'),
    endsAt: z.iso.datetime({ offset: true }).optional().describe('Give endsAt or durationHours, not both'),
    durationHours: z.number().min(1).max(90 * 24).optional().describe(`From the start. Default ${PUBLICATION_DEFAULTS.durationHours}`),
    incrementTable: incrementTableNameSchema.optional().describe("FLAT_ONE_DOLLAR (the spec's: every bid adds at least $1, default) or EBAY (eBay's US table)"),
    softClose: z
      .strictObject({
        windowSeconds: z.number().int().min(10).max(3_600).describe('A price-changing bid this close to the end moves the end to now + window'),
        maxExtensionHours: z.number().min(0).max(7 * 24).describe('The end never moves further than this past the scheduled end'),
      })
      .nullable()
      .optional()
      .describe('null: a hard close. Default: 180 s window, at most 24 h of extensions'),
    reservePrice: dollars.positive().nullable().optional().describe('Dollars; hidden from bidders, who only learn whether it is met. Default none'),
    buyNowPrice: dollars.positive().nullable().optional().describe('Dollars; offered until the first bid (with a reserve: until it is met). Default none'),
    buyersPremiumPercent: z
      .number()
      .min(0)
      .max(MAX_BUYERS_PREMIUM_BASIS_POINTS / 100)
      .optional()
      .describe(`What the winner pays on top of the hammer price, in percent (up to two decimals). Default ${DEFAULT_AFTER_SALE_TERMS.buyersPremiumBasisPoints / 100}`),
    paymentWindowHours: z
      .number()
      .min(MIN_PAYMENT_WINDOW_SECONDS / 3_600)
      .max(MAX_PAYMENT_WINDOW_SECONDS / 3_600)
      .optional()
      .describe(`How long the winner has to pay once the auction closes, in hours (down to 0.01). Default ${DEFAULT_AFTER_SALE_TERMS.paymentWindowSeconds / 3_600}`),
  })
  // A POST without a body arrives as null: publish with every default.
  .nullish();
export type PublicationRequest = z.infer<typeof publicationRequestSchema>;

/** What publishing answers: the listing, now LIVE, and its auction. */
export const publishedListingSchema = z.object({
  message: z.string(),
  listing: adminListingSchema,
  auction: auctionSchema,
});
export type PublishedListing = z.infer<typeof publishedListingSchema>;

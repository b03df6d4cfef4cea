import { z } from 'zod';
import { listingStatusSchema } from '../../../engine/domain/listing/listing';

/** GET /api/admin/analytics: the dashboard's and the analytics page's figures. Money in dollars. */

export const analyticsQuerySchema = z.object({
  days: z.coerce.number().int().min(1).max(365).default(30).describe('Days in the series, ending today (UTC); 1 to 365, default 30'),
  topLots: z.coerce.number().int().min(1).max(50).default(5).describe('How many top lots; 1 to 50, default 5'),
});
export type AnalyticsQuery = z.infer<typeof analyticsQuerySchema>;

const count = (description: string) => z.number().int().min(0).describe(description);
const dollars = (description: string) => z.number().min(0).describe(description);
const isoDay = z.string().regex(/^\d{4}-\d{2}-\d{2}$/).describe('A calendar day in UTC, YYYY-MM-DD');

/** Only lots with a real price rank: live ones at their current price, sold ones at their final price. */
export const topLotStatusSchema = listingStatusSchema.extract(['LIVE', 'SOLD']);
export type TopLotStatus = z.infer<typeof topLotStatusSchema>;

export const analyticsAnswerSchema = z.object({
  generatedAt: z.string().describe('When these figures were read (ISO 8601); the series end on this day (UTC)'),
  totals: z
    .object({
      totalItems: count('Every listing in the catalogue except withdrawn ones: pendingItems + liveItems + soldItems + unsoldItems'),
      liveItems: count('Listings published at auction (status LIVE)'),
      pendingItems: count('Listings not yet live: drafted, saved, or saved with their NFC tag bound (DRAFT, SAVED, NFC_BOUND)'),
      soldItems: count('Listings whose auction ended in a sale (status SOLD)'),
      unsoldItems: count('Listings whose auction ended without a sale: no bids, reserve not met, or cancelled (status UNSOLD)'),
      withdrawnItems: count('Listings taken off the market by an admin (status WITHDRAWN); not part of totalItems'),
    })
    .describe('Listings by where they stand (the dashboard header cards)'),
  nfc: z
    .object({
      provisionedTags: count('NFC tags in the pool, bound or not'),
      boundTags: count('Tags bound to a listing'),
      availableTags: count('Tags free to bind'),
      boundShare: z
        .number()
        .min(0)
        .max(1)
        .nullable()
        .describe(
          'The "NFC success" card, 0..1: of the listings that ought to carry a tag (saved, NFC-bound, live or sold: ' +
            'a saved listing needs one to be published, a live or sold item keeps its own), the share that has one. ' +
            'Drafts cannot be bound yet; unsold and withdrawn listings have left the sale. null when no listing ought to carry a tag',
        ),
    })
    .describe('The NFC tag pool and how many listings carry their tag'),
  sales: z
    .object({
      revenue: dollars("Dollars, all time: what orders paid in full brought in (hammer price, buyer's premium and shipping); a lot sold but never paid is not counted"),
      itemsSold: count('Orders paid in full, all time'),
      averageSalePrice: z.number().min(0).nullable().describe('Dollars, to the cent: revenue / itemsSold (what a buyer paid, on average); null when nothing has been paid for'),
    })
    .describe('Sales of all time (the analytics page cards)'),
  series: z
    .object({
      bidsPerDay: z
        .array(z.object({ date: isoDay, bids: count('Bids that day') }))
        .describe(
          'One entry per day of the window, oldest first, zero-filled. Counts the bids the public history shows ' +
            '(placed by bidders, by their maximums, buy-now purchases); not a leader privately raising their maximum, nor retracted bids',
        ),
      revenuePerDay: z
        .array(z.object({ date: isoDay, revenue: dollars('Dollars: what the orders paid in full that day brought in') }))
        .describe('One entry per day of the window, oldest first, zero-filled; a sale counts on the day its order was paid in full'),
    })
    .describe('The last `days` days, ending today (UTC)'),
  topLots: z
    .array(
      z.object({
        listingId: z.string(),
        slug: z.string(),
        title: z.string(),
        status: topLotStatusSchema.describe('LIVE or SOLD'),
        auctionId: z.string(),
        price: dollars('Dollars: the final price of a sold lot, the current price of a live one'),
        bidCount: count('Bids on the lot, counted as in bidsPerDay'),
        endsAt: z.string().describe("The auction's end (ISO 8601), soft close included"),
      }),
    )
    .describe('Live and sold lots, highest price first (then most bids, then ending first); at most `topLots`'),
});
export type AnalyticsAnswer = z.infer<typeof analyticsAnswerSchema>;

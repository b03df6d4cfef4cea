import { z } from 'zod';
import { toDollars } from '../../http/money';
import { PENDING_LISTING_STATUSES, TAG_REQUIRED_LISTING_STATUSES, type AnalyticsFigures, type AnalyticsWindow, type DailyFigure } from './queries';

const DAY_MS = 24 * 60 * 60 * 1000;

const count = (description: string) => z.number().int().min(0).describe(description);
const dollars = (description: string) => z.number().min(0).describe(description);
const isoDay = z.string().regex(/^\d{4}-\d{2}-\d{2}$/).describe('A calendar day in UTC, YYYY-MM-DD');

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
      revenue: dollars('Dollars, all time: the sum of the final prices of auctions that closed with a sale'),
      itemsSold: count('Auctions that closed with a sale, all time'),
      averageSalePrice: z.number().min(0).nullable().describe('Dollars, to the cent: revenue / itemsSold; null when nothing has sold'),
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
        .array(z.object({ date: isoDay, revenue: dollars('Dollars: final prices of the sales closed that day') }))
        .describe('One entry per day of the window, oldest first, zero-filled; a sale counts on the day its auction closed'),
    })
    .describe('The last `days` days, ending today (UTC)'),
  topLots: z
    .array(
      z.object({
        listingId: z.string(),
        slug: z.string(),
        title: z.string(),
        status: z.string().describe('LIVE or SOLD'),
        auctionId: z.string(),
        price: dollars('Dollars: the final price of a sold lot, the current price of a live one'),
        bidCount: count('Bids on the lot, counted as in bidsPerDay'),
        endsAt: z.string().describe("The auction's end (ISO 8601), soft close included"),
      }),
    )
    .describe('Live and sold lots, highest price first (then most bids, then ending first); at most `topLots`'),
});
export type AnalyticsAnswer = z.infer<typeof analyticsAnswerSchema>;

/** The `days` UTC calendar days ending on the day of `now`. */
export function analyticsWindow(now: Date, days: number, topLots: number): AnalyticsWindow {
  const startOfToday = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return { from: new Date(startOfToday - (days - 1) * DAY_MS), until: new Date(startOfToday + DAY_MS), topLots };
}

export function presentAnalytics(figures: AnalyticsFigures, window: AnalyticsWindow, generatedAt: Date): AnalyticsAnswer {
  const listings = (statuses: readonly string[], column: 'listings' | 'withTag' = 'listings') =>
    figures.listingsByStatus.filter((row) => statuses.includes(row.status)).reduce((sum, row) => sum + row[column], 0);
  const tags = (status: string) => figures.tagsByStatus.find((row) => row.status === status)?.tags ?? 0;

  const pendingItems = listings(PENDING_LISTING_STATUSES);
  const liveItems = listings(['LIVE']);
  const soldItems = listings(['SOLD']);
  const unsoldItems = listings(['UNSOLD']);
  const ought = listings(TAG_REQUIRED_LISTING_STATUSES);
  const { itemsSold, revenueCents } = figures.sales;
  const days = daysOf(window);

  return {
    generatedAt: generatedAt.toISOString(),
    totals: {
      totalItems: pendingItems + liveItems + soldItems + unsoldItems,
      liveItems,
      pendingItems,
      soldItems,
      unsoldItems,
      withdrawnItems: listings(['WITHDRAWN']),
    },
    nfc: {
      provisionedTags: figures.tagsByStatus.reduce((sum, row) => sum + row.tags, 0),
      boundTags: tags('BOUND'),
      availableTags: tags('AVAILABLE'),
      boundShare: ought === 0 ? null : listings(TAG_REQUIRED_LISTING_STATUSES, 'withTag') / ought,
    },
    sales: {
      revenue: toDollars(revenueCents),
      itemsSold,
      averageSalePrice: itemsSold === 0 ? null : toDollars(Math.round(revenueCents / itemsSold)),
    },
    series: {
      bidsPerDay: zeroFilled(days, figures.bidsPerDay).map(([date, bids]) => ({ date, bids })),
      revenuePerDay: zeroFilled(days, figures.revenueCentsPerDay).map(([date, cents]) => ({ date, revenue: toDollars(cents) })),
    },
    topLots: figures.topLots.map((lot) => ({
      listingId: lot.listingId,
      slug: lot.slug,
      title: lot.title,
      status: lot.status,
      auctionId: lot.auctionId,
      price: toDollars(lot.priceCents),
      bidCount: lot.bidCount,
      endsAt: lot.endsAt.toISOString(),
    })),
  };
}

/** Every day of the window, YYYY-MM-DD, oldest first. */
function daysOf(window: AnalyticsWindow): string[] {
  const days: string[] = [];
  for (let day = window.from.getTime(); day < window.until.getTime(); day += DAY_MS) days.push(new Date(day).toISOString().slice(0, 10));
  return days;
}

function zeroFilled(days: readonly string[], figures: readonly DailyFigure[]): [string, number][] {
  const byDay = new Map(figures.map((figure) => [figure.day, figure.value]));
  return days.map((day) => [day, byDay.get(day) ?? 0]);
}

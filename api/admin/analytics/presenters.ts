import type { AnalyticsAnswer } from '../../contracts/admin/analytics';
import { toDollars } from '../../http/money';
import { PENDING_LISTING_STATUSES, TAG_REQUIRED_LISTING_STATUSES, type AnalyticsFigures, type AnalyticsWindow, type DailyFigure } from './queries';

const DAY_MS = 24 * 60 * 60 * 1000;

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

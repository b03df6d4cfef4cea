import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import type { AnalyticsAnswer } from '../../api/contracts/admin/analytics';
import { ApiError } from '../../web/src/lib/api-client';
import { analyticsMachine, periodOf, type Period } from '../../web/src/features/admin/analytics/analytics-machine';
import { bidsSummary, revenueSummary, shortDay, topLotsSummary } from '../../web/src/features/admin/analytics/chart-summaries';

function figures(): AnalyticsAnswer {
  return {
    generatedAt: '2032-03-03T12:00:00.000Z',
    totals: { totalItems: 10, liveItems: 4, pendingItems: 3, soldItems: 2, unsoldItems: 1, withdrawnItems: 1 },
    nfc: { provisionedTags: 12, boundTags: 8, availableTags: 4, boundShare: 0.9 },
    sales: { revenue: 1500, itemsSold: 2, averageSalePrice: 750 },
    series: {
      bidsPerDay: [
        { date: '2032-03-01', bids: 2 },
        { date: '2032-03-02', bids: 7 },
        { date: '2032-03-03', bids: 7 },
      ],
      revenuePerDay: [
        { date: '2032-03-01', revenue: 0 },
        { date: '2032-03-02', revenue: 1200 },
        { date: '2032-03-03', revenue: 300 },
      ],
    },
    topLots: [
      { listingId: 'l1', slug: 'babe-ruth-bat', title: 'Babe Ruth bat', status: 'SOLD', auctionId: 'a1', price: 1200, bidCount: 9, endsAt: '2032-03-02T18:00:00.000Z' },
      { listingId: 'l2', slug: 'jordan-shoes', title: 'Jordan shoes', status: 'LIVE', auctionId: 'a2', price: 300.5, bidCount: 4, endsAt: '2032-03-09T18:00:00.000Z' },
    ],
  };
}

describe('the analytics period', () => {
  it('is read from ?days=, one of 7, 30, 90 or 365; 30 when missing or anything else', () => {
    expect(periodOf(new URLSearchParams('days=7'))).toBe(7);
    expect(periodOf(new URLSearchParams('days=365'))).toBe(365);
    expect(periodOf(new URLSearchParams(''))).toBe(30);
    expect(periodOf(new URLSearchParams('days=12'))).toBe(30);
    expect(periodOf(new URLSearchParams('days=abc'))).toBe(30);
  });
});

describe('the analytics machine', () => {
  function start(days: Period, load: () => Promise<AnalyticsAnswer>) {
    const asked: Period[] = [];
    const actor = createActor(
      analyticsMachine.provide({
        actors: {
          loadAnalytics: fromPromise<AnalyticsAnswer, { days: Period }>(async ({ input }) => {
            asked.push(input.days);
            return load();
          }),
        },
      }),
      { input: { days } },
    ).start();
    return { actor, asked };
  }

  it('loads the figures of the period it was started with', async () => {
    const { actor, asked } = start(90, async () => figures());
    expect(actor.getSnapshot().value).toBe('loading');
    await vi.waitFor(() => expect(actor.getSnapshot().value).toBe('loaded'));
    expect(asked).toEqual([90]);
    expect(actor.getSnapshot().context.figures).toEqual(figures());
  });

  it('says "Failed to fetch analytics" with the reason, and Try Again asks again', async () => {
    let calls = 0;
    const { actor, asked } = start(7, async () => {
      calls += 1;
      if (calls === 1) throw new ApiError('Network error', 0, 'NETWORK');
      return figures();
    });
    await vi.waitFor(() => expect(actor.getSnapshot().value).toBe('failed'));
    expect(actor.getSnapshot().context.error).toBe('Failed to fetch analytics: Network error');
    actor.send({ type: 'RETRY' });
    await vi.waitFor(() => expect(actor.getSnapshot().value).toBe('loaded'));
    expect(asked).toEqual([7, 7]);
  });
});

describe("the charts' text alternatives", () => {
  it('name the days as the API counts them (UTC)', () => {
    expect(shortDay('2032-03-01')).toBe('Mar 1');
    expect(shortDay('2032-12-31')).toBe('Dec 31');
  });

  it('sum the series and name its peak (the earliest of equals)', () => {
    const { series, topLots } = figures();
    expect(bidsSummary(series.bidsPerDay)).toBe('Bids per day in the last 3 days: 16 bids in total; the busiest day was Mar 2 with 7.');
    expect(revenueSummary(series.revenuePerDay)).toBe('Revenue per day in the last 3 days: $1,500.00 in total; the best day was Mar 2 with $1,200.00.');
    expect(topLotsSummary(topLots)).toBe('Top 2 lots by price: Babe Ruth bat, $1,200.00 (sold); Jordan shoes, $300.50 (live).');
  });

  it('say so when there is nothing to show', () => {
    expect(bidsSummary([{ date: '2032-03-01', bids: 0 }])).toBe('Bids per day: no bids today.');
    expect(revenueSummary([{ date: '2032-03-01', revenue: 0 }, { date: '2032-03-02', revenue: 0 }])).toBe('Revenue per day: no orders paid in the last 2 days.');
    expect(topLotsSummary([])).toBe('Top lots: no live or sold lots yet.');
  });
});

import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AnalyticsAnswer } from '../../api/contracts/admin/analytics';
import type { Auction } from '../../api/contracts/auctions';
import type { Listing } from '../../api/contracts/listings';
import type { AdminOrdersPage } from '../../api/contracts/orders';
import { publishListings } from './admin-api';
import { DESKTOP, expectAccessible, launchBrowser, newContext, PHONE, productCall, screenshot, signInAsAdmin } from './browser';

/**
 * The admin's analytics and bulk-import pages, through the UI only: the charts drawn with the
 * API's own figures, the period kept in the URL, a spreadsheet with one good and one bad row, and
 * the failed-rows CSV that holds just the bad one, defused against formulas.
 */

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
const HEADER = 'player_name,jersey_number,team,size,condition,game_title,game_date,opponent,venue,touchdowns,passing_yards,completions,description';
const GOOD_ROW = 'Imported Good,15,chiefs,l,good,AFC Championship,2024-01-28,Baltimore Ravens,M&T Bank Stadium,1,241,30,Browser import';
// Row 3: a team the form does not offer, and a game title that a spreadsheet would run as a formula.
const BAD_ROW = 'Imported Bad,12,raiders,l,good,=1+2,,,,,,,';




/** How many of the canvas's pixels are painted: a chart drawn on it has thousands. */
async function paintedPixels(page: Page, testId: string): Promise<number> {
  const canvas = page.getByTestId(testId);
  await expect.poll(() => canvas.getAttribute('data-drawn')).toBe('true');
  // Chart.js animates its first drawing: wait until the picture holds still.
  let previous = -1;
  for (;;) {
    const painted = await canvas.evaluate((element: HTMLCanvasElement) => {
      const { data } = element.getContext('2d')!.getImageData(0, 0, element.width, element.height);
      let count = 0;
      for (let index = 3; index < data.length; index += 4) if (data[index]! > 0) count += 1;
      return count;
    });
    if (painted === previous) return painted;
    previous = painted;
    await page.waitForTimeout(250);
  }
}

const totalBids = (figures: AnalyticsAnswer) => figures.series.bidsPerDay.reduce((sum, day) => sum + day.bids, 0);
const totalRevenue = (figures: AnalyticsAnswer) => figures.series.revenuePerDay.reduce((sum, day) => sum + day.revenue, 0);

describe('admin analytics and bulk import in the browser', () => {
  let browser: Browser;
  let adminToken: string;
  let workDir: string;
  let soldTitle: string;

  beforeAll(async () => {
    browser = await launchBrowser();
    workDir = await mkdtemp(join(tmpdir(), 'provenance-bulk-import-'));
    // A lot sold and paid for today, so that revenue and items sold are not all zero whatever else ran.
    soldTitle = `Analytics test jersey ${Date.now().toString(36)}`;
    const published = await publishListings(1, () => soldTitle, { buyNowPrice: 250 });
    adminToken = published.token;
    const listing = await productCall<Listing>(`/api/public/listings/${published.ids[0]}`);
    const { accessToken } = await productCall<{ accessToken: string }>('/api/auth/register', {
      body: { firstName: 'Ana', lastName: 'Lytics', email: `analytics-${Date.now().toString(36)}@example.com`, password: 'Analytics!1', role: 'BUYER' },
    });
    const auction = await productCall<Auction>(`/api/public/listings/${listing.slug}/auction`);
    await productCall('/api/bids/buy-now', { body: { auctionId: auction.auctionId }, token: accessToken });
    // Items sold count orders paid in full: once the sale has placed its order, the admin records its payment.
    const order = await vi.waitFor(
      async () => {
        const { content } = await productCall<AdminOrdersPage>(`/api/admin/orders?${new URLSearchParams({ search: soldTitle, size: '10' })}`, { token: adminToken });
        const placed = content.find((candidate) => candidate.listingId === published.ids[0]);
        if (!placed) throw new Error(`No order yet for ${soldTitle}`);
        return placed;
      },
      { timeout: 60_000, interval: 500 },
    );
    await productCall(`/api/admin/orders/${order.id}/payments`, { body: { amount: order.balance, reference: `ANALYTICS-${Date.now().toString(36)}` }, token: adminToken });
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    if (workDir) await rm(workDir, { recursive: true, force: true });
  });

  it('analytics: the figures and charts are the API\'s; the period is kept in the URL; axe finds nothing at desktop and phone widths', async () => {
    const context = await newContext(browser, DESKTOP);
    const page = await context.newPage();
    await signInAsAdmin(page);
    await page.getByRole('link', { name: 'Analytics' }).click();
    await page.waitForURL('**/admin/analytics');
    await page.getByTestId('analytics-figure').first().waitFor();

    // The seeded auctions open and close as the minutes pass, so the figures may move between the
    // page's reading and the test's: compare one reading of each, and read both again if any differ.
    const card = (label: string) => page.getByRole('region', { name: label, exact: true }).getByTestId('analytics-figure');
    const stages = page.getByRole('region', { name: 'Listings by stage' });
    const shown = async () => ({
      revenue: await card('Revenue').textContent(),
      itemsSold: await card('Items Sold').textContent(),
      averageSalePrice: await card('Average Sale Price').textContent(),
      liveItems: await stages.getByText('Live', { exact: true }).locator('..').locator('dd').textContent(),
    });
    const expected = (answer: AnalyticsAnswer) => ({
      revenue: usd.format(answer.sales.revenue),
      itemsSold: String(answer.sales.itemsSold),
      // No sale yet has no average: the page shows a dash.
      averageSalePrice: answer.sales.averageSalePrice === null ? '—' : usd.format(answer.sales.averageSalePrice),
      liveItems: String(answer.totals.liveItems),
    });
    let figures!: AnalyticsAnswer;
    await expect
      .poll(
        async () => {
          figures = await productCall<AnalyticsAnswer>('/api/admin/analytics?days=30&topLots=10', { token: adminToken });
          if (JSON.stringify(await shown()) === JSON.stringify(expected(figures))) return true;
          await page.reload();
          await page.getByTestId('analytics-figure').first().waitFor();
          return false;
        },
        { timeout: 30_000 },
      )
      .toBe(true);
    expect(figures.sales.itemsSold).toBeGreaterThan(0);

    // Each chart is drawn, and says in words the figures it draws: the same totals as the API's.
    for (const testId of ['chart-bids', 'chart-revenue', 'chart-top-lots']) expect(await paintedPixels(page, testId), testId).toBeGreaterThan(1000);
    expect(await page.getByTestId('chart-bids').getAttribute('aria-label')).toContain(`${totalBids(figures)} bids in total`);
    expect(await page.getByTestId('chart-revenue').getAttribute('aria-label')).toContain(`${usd.format(totalRevenue(figures))} in total`);
    const topLots = page.getByTestId('top-lots').locator('tbody tr');
    expect(await topLots.count()).toBe(figures.topLots.length);
    expect(await topLots.first().getByRole('link').textContent()).toBe(figures.topLots[0]!.title);
    expect(await topLots.first().locator('td').nth(2).textContent()).toBe(usd.format(figures.topLots[0]!.price));

    // The table behind the bids chart has today's figure.
    const today = figures.series.bidsPerDay.at(-1)!;
    await page.getByText('Bids per day as a table').click();
    const todayRow = page.getByRole('region', { name: 'Bids per day' }).getByRole('row', { name: today.date });
    expect(await todayRow.locator('td').textContent()).toBe(String(today.bids));

    await expectAccessible(page, '/admin/analytics');
    await screenshot(page, 'admin-analytics-desktop');

    // Another period: in the URL, and drawn from the API's figures for it.
    await page.getByLabel('Period').selectOption('7');
    await page.waitForURL('**/admin/analytics?days=7');
    const week = await productCall<AnalyticsAnswer>('/api/admin/analytics?days=7&topLots=10', { token: adminToken });
    await expect.poll(() => page.getByTestId('chart-bids').getAttribute('aria-label')).toContain('in the last 7 days');
    expect(await page.getByTestId('chart-bids').getAttribute('aria-label')).toContain(`${totalBids(week)} bids in total`);
    expect(await paintedPixels(page, 'chart-bids')).toBeGreaterThan(1000);
    await page.reload();
    expect(await page.getByLabel('Period').inputValue()).toBe('7');
    await context.close();

    const phone = await newContext(browser, PHONE);
    const phonePage = await phone.newPage();
    await signInAsAdmin(phonePage);
    await phonePage.goto('/admin/analytics');
    expect(await paintedPixels(phonePage, 'chart-top-lots')).toBeGreaterThan(500);
    expect(await phonePage.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await expectAccessible(phonePage, '/admin/analytics');
    await screenshot(phonePage, 'admin-analytics-phone');
    await phone.close();
  }, 120_000);

  for (const [width, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    it(`bulk import, ${width}: one good and one bad row; the bad row's error shows and the failed-rows CSV holds only it`, async () => {
      const context = await newContext(browser, viewport);
      const page = await context.newPage();
      await signInAsAdmin(page);
      await page.goto('/admin/bulk-import');
      await page.getByRole('heading', { name: 'Expected format' }).waitFor();
      await expectAccessible(page, '/admin/bulk-import');

      // The template is the server's.
      const [template] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download Template' }).click()]);
      expect(template.suggestedFilename()).toBe('jersey_import_template.csv');
      expect((await readFile(await template.path(), 'utf8')).split('\r\n')[0]).toBe(HEADER);

      if (width === 'desktop') {
        // Refused before sending: not a spreadsheet. Refused by the server as a whole: a column it does not know.
        const notes = join(workDir, 'notes.txt');
        await writeFile(notes, 'not a spreadsheet');
        await page.getByTestId('bulk-import-file').setInputFiles(notes);
        await page.getByRole('alert').filter({ hasText: 'Only .csv, .xlsx or .xls files can be imported' }).waitFor();
        expect(await page.getByRole('button', { name: 'Upload & Process' }).isDisabled()).toBe(true);

        const unknown = join(workDir, 'unknown-column.csv');
        await writeFile(unknown, `${HEADER},price\n${GOOD_ROW},100\n`);
        await page.getByTestId('bulk-import-file').setInputFiles(unknown);
        await page.getByRole('button', { name: 'Upload & Process' }).click();
        await page.getByRole('alert').filter({ hasText: /^Bulk import failed: Unknown columns: price\./ }).waitFor();
      }

      const file = join(workDir, `jerseys-${width}.csv`);
      await writeFile(file, `${HEADER}\n${GOOD_ROW}\n${BAD_ROW}\n`);
      await page.getByTestId('bulk-import-file').setInputFiles(file);
      await page.getByText(`jerseys-${width}.csv`).waitFor();
      await page.getByRole('button', { name: 'Upload & Process' }).click();

      await page.getByRole('heading', { name: 'Import result' }).waitFor();
      await page.getByText('1 of 2 rows imported as draft listings; 1 row refused.').waitFor();
      expect(await page.getByRole('region', { name: 'Created listings' }).getByRole('link').textContent()).toMatch(/^imported-good-15-chiefs-jersey/);
      const refused = page.getByTestId('refused-rows').locator('tbody tr');
      expect(await refused.count()).toBe(1);
      expect(await refused.locator('td').first().textContent()).toBe('3');
      expect(await refused.locator('li').allTextContents()).toEqual(['team: Team must be one of patriots, buccaneers, chiefs']);

      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download failed rows' }).click()]);
      expect(download.suggestedFilename()).toBe(`jerseys-${width}-failed-rows.csv`);
      const csv = await readFile(await download.path(), 'utf8');
      expect(csv.replace(/^\uFEFF/, '').split('\r\n')).toEqual([
        HEADER.split(',').map((column) => `"${column}"`).join(','),
        // Only the refused row, as it was read; the would-be formula starts with a quote.
        ['Imported Bad', '12', 'raiders', 'l', 'good', "'=1+2", '', '', '', '', '', '', ''].map((cell) => `"${cell}"`).join(','),
        '',
      ]);

      await expectAccessible(page, '/admin/bulk-import, with a result');
      if (width === 'phone') expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
      await screenshot(page, `admin-bulk-import-${width}`);
      await context.close();
    }, 120_000);
  }
});

import { randomUUID } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page as ListingPage } from '../../api/contracts/common';
import type { Listing } from '../../api/contracts/listings';
import { publishListings } from './admin-api';
import { DESKTOP, launchBrowser, newContext, PHONE, productUrl, screenshot } from './browser';

type ApiListing = Listing;
type ApiPage = ListingPage<Listing>;

/** The marketplace as the API answers it, to compare the page with. */
async function publicListings(query: string): Promise<ApiPage> {
  const response = await fetch(`${productUrl()}/api/public/listings?${query}`);
  expect(response.status).toBe(200);
  return (await response.json()) as ApiPage;
}

const cardName = (listing: ApiListing) => listing.playerName || listing.title;
const countLine = (total: number) => (total === 0 ? 'No items found' : `${total} ${total === 1 ? 'item' : 'items'} found`);
const PRICE = /^US \$\d{1,3}(,\d{3})*\.\d{2}$/;
const TIME_LEFT = /^(\d+d \d+h \d+m|\d+h \d+m|\d+m|Ended)$/;

/** The grid's cards once the results are in (the count line says so). */
async function waitForResults(page: Page, total: number): Promise<void> {
  await page.getByTestId('result-count').and(page.getByText(countLine(total), { exact: true })).waitFor();
}

/** Cards' images load lazily: scroll them all in before a full-page screenshot, so it shows them. */
async function shoot(page: Page, name: string): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
  await page.waitForFunction(() => [...document.images].every((image) => image.complete));
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, name);
}

const grid = (page: Page) => page.getByRole('region', { name: 'All Listings' });
const cards = (page: Page) => grid(page).getByTestId('listing-card');
// Polled where compared: the grid re-renders when a refetch or a live update lands.
const cardNames = (page: Page) => cards(page).getByRole('heading').allInnerTexts();

describe('the marketplace page and its listing cards', () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => browser?.close());

  const openPage = async (viewport = DESKTOP, path = '/marketplace') => {
    await context?.close();
    context = await newContext(browser, viewport);
    page = await context.newPage();
    await page.goto(path);
    return page;
  };

  it('browses the published listings: count line, US $ prices, the real time left, Featured', async () => {
    const all = await publicListings('size=20');
    expect(all.totalElements).toBeGreaterThanOrEqual(10);
    await openPage();
    await waitForResults(page, all.totalElements);

    expect(await cards(page).count()).toBe(Math.min(all.totalElements, 20));
    await expect.poll(() => cardNames(page), { timeout: 10_000 }).toEqual(all.content.map(cardName));
    for (const price of await cards(page).getByTestId('card-price').allInnerTexts()) expect(price).toMatch(PRICE);
    for (const text of await cards(page).getByTestId('time-left').locator('time').allInnerTexts()) expect(text).toMatch(TIME_LEFT);
    expect(await page.getByText('7 days left').count()).toBe(0);

    // The first card's time left is its auction's, to the minute.
    const first = all.content[0]!;
    const shown = await cards(page).first().getByTestId('time-left').locator('time').innerText();
    const minutesLeft = (Date.parse(first.endsAt!) - Date.now()) / 60_000;
    const [days, hours, minutes] = (/^(?:(\d+)d )?(?:(\d+)h )?(\d+)m$/.exec(shown) ?? []).slice(1).map((part) => Number(part ?? 0));
    expect(Math.abs(days! * 1440 + hours! * 60 + minutes! - minutesLeft)).toBeLessThan(3);
    expect(await cards(page).first().getByRole('link').getAttribute('href')).toMatch(/^\/marketplace\/[a-z0-9-]+$/);

    // Featured: the two most valuable lots with images, above the grid.
    const featured = page.getByRole('region', { name: 'Featured' }).getByTestId('featured-card');
    expect(await featured.count()).toBe(2);
    const withImages = all.content.filter((listing) => listing.mediaUrls.length > 0);
    const priciest = withImages.toSorted((a, b) => Number(b.price) - Number(a.price)).slice(0, 2).map(cardName);
    expect(await featured.getByRole('heading').allInnerTexts()).toEqual(priciest);

    await shoot(page, 'marketplace-desktop');
  });

  it('searches after a pause in typing, keeps the search in the URL, and Back undoes it', async () => {
    const expected = await publicListings('search=Haaland');
    expect(expected.totalElements).toBeGreaterThanOrEqual(1);
    await openPage();
    const everything = (await publicListings('size=1')).totalElements;
    await waitForResults(page, everything);

    const searches: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname === '/api/public/listings' && url.searchParams.has('search')) searches.push(url.searchParams.get('search')!);
    });
    await page.getByRole('searchbox', { name: 'Search listings' }).pressSequentially('Haaland', { delay: 40 });
    await waitForResults(page, expected.totalElements);
    await expect.poll(() => cardNames(page), { timeout: 10_000 }).toEqual(expected.content.map(cardName));
    // Debounced: not one request per keystroke, and the last is the whole word.
    expect(searches.length).toBeLessThan('Haaland'.length);
    expect(searches.at(-1)).toBe('Haaland');
    expect(new URL(page.url()).searchParams.get('search')).toBe('Haaland');
    expect(await page.getByRole('region', { name: 'Featured' }).count()).toBe(0);

    await page.reload();
    await waitForResults(page, expected.totalElements);
    expect(await page.getByRole('searchbox', { name: 'Search listings' }).inputValue()).toBe('Haaland');

    await page.goBack();
    await page.waitForURL((url) => !url.searchParams.has('search'));
    await waitForResults(page, everything);
    expect(await page.getByRole('searchbox', { name: 'Search listings' }).inputValue()).toBe('');
  });

  it('filters by chip: Equipment shows only equipment, Signed only signed or autographed items', async () => {
    const equipment = await publicListings('category=EQUIPMENT');
    const signed = await publicListings('tag=SIGNED');
    expect(equipment.content.every((listing) => listing.category === 'EQUIPMENT')).toBe(true);
    expect(signed.content.every((listing) => listing.tags.includes('SIGNED') || listing.tags.includes('AUTOGRAPHED'))).toBe(true);
    expect(signed.content.some((listing) => listing.tags.includes('AUTOGRAPHED') && !listing.tags.includes('SIGNED'))).toBe(true);
    await openPage();
    const chips = page.getByRole('group', { name: 'Categories' });

    await chips.getByRole('button', { name: 'Equipment' }).click();
    await waitForResults(page, equipment.totalElements);
    await expect.poll(() => cardNames(page), { timeout: 10_000 }).toEqual(equipment.content.map(cardName));
    expect(await chips.getByRole('button', { name: 'Equipment' }).getAttribute('aria-pressed')).toBe('true');
    expect(new URL(page.url()).searchParams.get('category')).toBe('equipment');

    await chips.getByRole('button', { name: 'Signed' }).click();
    await waitForResults(page, signed.totalElements);
    await expect.poll(() => cardNames(page), { timeout: 10_000 }).toEqual(signed.content.map(cardName));
    // Every card says SIGNED, the autographed ones too.
    const count = await cards(page).count();
    expect(await cards(page).getByRole('listitem').filter({ hasText: /^SIGNED$/ }).count()).toBe(count);

    await chips.getByRole('button', { name: 'Ending Soon' }).click();
    const endingSoon = await publicListings('sort=endsAt,asc');
    await page.waitForURL(/category=ending-soon/);
    await waitForResults(page, endingSoon.totalElements);
    await expect.poll(() => cardNames(page), { timeout: 10_000 }).toEqual(endingSoon.content.map(cardName));
    expect(await page.getByRole('combobox', { name: 'Sort by' }).inputValue()).toBe('ending-soon');
  });

  it('sorts: Price Low to High orders the cards by price', async () => {
    const cheapestFirst = await publicListings('sort=price,asc');
    await openPage();
    await waitForResults(page, cheapestFirst.totalElements);
    await page.getByRole('combobox', { name: 'Sort by' }).selectOption({ label: 'Price Low to High' });
    await page.waitForURL(/sort=price-asc/);
    await cards(page).first().getByRole('heading', { name: cardName(cheapestFirst.content[0]!) }).waitFor();
    await expect.poll(() => cardNames(page), { timeout: 10_000 }).toEqual(cheapestFirst.content.map(cardName));
    const prices = (await cards(page).getByTestId('card-price').allInnerTexts()).map((text) => Number(text.replace(/[^\d.]/g, '')));
    expect(prices).toEqual(prices.toSorted((a, b) => a - b));

    // A shared link opens in the same order.
    await openPage(DESKTOP, '/marketplace?sort=price-asc');
    await waitForResults(page, cheapestFirst.totalElements);
    expect(await page.getByRole('combobox', { name: 'Sort by' }).inputValue()).toBe('price-asc');
    await expect.poll(() => cardNames(page), { timeout: 10_000 }).toEqual(cheapestFirst.content.map(cardName));
  });

  it('Load More appends the next page of 20; a new search starts again from page 0', async () => {
    const word = `lot${randomUUID().replace(/-/g, '').slice(0, 10)}`;
    const { ids, token } = await publishListings(23, (index) => `Browser test bat ${String(index).padStart(2, '0')} ${word}`);
    try {
      await openPage(DESKTOP, `/marketplace?search=${word}`);
      await waitForResults(page, 23);
      expect(await cards(page).count()).toBe(20);
      const loadMore = grid(page).getByRole('button', { name: 'Load More' });
      await loadMore.click();
      await cards(page).nth(22).waitFor();
      expect(await cards(page).count()).toBe(23);
      expect(new Set(await cardNames(page)).size).toBe(23);
      expect(await loadMore.count()).toBe(0);

      await page.getByRole('combobox', { name: 'Sort by' }).selectOption({ label: 'Title A to Z' });
      await page.waitForURL(/sort=title-asc/);
      await cards(page).first().getByRole('heading', { name: `Browser test bat 00 ${word}` }).waitFor();
      expect(await cards(page).count()).toBe(20);
      expect(await loadMore.isVisible()).toBe(true);
    } finally {
      // Leave the marketplace as it was for the other browser tests.
      for (const id of ids) {
        await fetch(`${productUrl()}/api/admin/listings/${id}/status`, {
          method: 'PUT',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ status: 'WITHDRAWN', reason: 'Made by the marketplace browser test' }),
        });
      }
    }
  });

  it('keeps a favourite on this device: the heart toggles and survives a reload', async () => {
    const first = (await publicListings('size=1')).content[0]!;
    await openPage();
    const heart = cards(page).first().getByRole('button', { name: `Favourite ${cardName(first)}` });
    await heart.waitFor();
    expect(await heart.getAttribute('aria-pressed')).toBe('false');
    await heart.click();
    expect(await heart.getAttribute('aria-pressed')).toBe('true');
    expect(await page.evaluate(() => localStorage.getItem('provenance-favourites'))).toContain(first.id);

    await page.reload();
    await cards(page).first().waitFor();
    expect(await heart.getAttribute('aria-pressed')).toBe('true');
    await heart.click();
    expect(await heart.getAttribute('aria-pressed')).toBe('false');
    await page.reload();
    await cards(page).first().waitFor();
    expect(await heart.getAttribute('aria-pressed')).toBe('false');
  });

  it('shows the error with Try Again when the listings cannot be fetched, never sample data', async () => {
    context = await newContext(browser);
    page = await context.newPage();
    await page.route('**/api/public/listings**', (route) => route.abort());
    await page.goto('/marketplace');
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.innerText()).toContain('Failed to fetch listings');
    expect(await cards(page).count()).toBe(0);
    expect(await page.getByText('No listings found').count()).toBe(0);

    await page.unroute('**/api/public/listings**');
    await page.getByRole('button', { name: 'Try Again' }).click();
    const total = (await publicListings('size=1')).totalElements;
    await waitForResults(page, total);
    expect(await cards(page).count()).toBe(Math.min(total, 20));
    expect(await page.getByRole('alert').count()).toBe(0);
  });

  it('shows the empty state for a search that finds nothing', async () => {
    await openPage(DESKTOP, `/marketplace?search=nothing${randomUUID().slice(0, 8)}`);
    await waitForResults(page, 0);
    await grid(page).getByText('No listings found').waitFor();
    await grid(page).getByText('Try adjusting your search or filters').waitFor();
    await grid(page).getByRole('button', { name: 'Clear filters' }).click();
    await waitForResults(page, (await publicListings('size=1')).totalElements);
  });

  it('fits a 375 px phone', async () => {
    const total = (await publicListings('size=1')).totalElements;
    await openPage(PHONE);
    await waitForResults(page, total);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await shoot(page, 'marketplace-phone');
    await context.close();
  });
});

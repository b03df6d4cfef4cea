import type { Browser, BrowserContext, Page, WebSocketRoute } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Auction } from '../../api/contracts/auctions';
import type { Listing } from '../../api/contracts/listings';
import { publishListings } from './admin-api';
import { DESKTOP, launchBrowser, newContext, PHONE, productCall, screenshot } from './browser';

interface Account {
  readonly email: string;
  readonly password: string;
}

type PublicListing = Listing;
type PublicAuction = Auction;

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

/** A buyer of this file's own, so that the shared demo accounts stay as they are. */
async function registerBuyer(firstName: string): Promise<Account> {
  const email = `listing-${firstName.toLowerCase()}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
  const password = 'Bidder!pass1';
  await productCall('/api/auth/register', { body: { firstName, lastName: 'Bidder', email, password, role: 'BUYER' } });
  return { email, password };
}

/**
 * A seeded listing whose auction takes bids now and will for a while (the seed staggers the ends,
 * and other test files run first): the spec's $1 steps when such a one has time left.
 */
async function biddableListing(): Promise<PublicListing> {
  const page = await productCall<{ content: PublicListing[] }>('/api/public/listings?page=0&size=20');
  const open: Array<{ listing: PublicListing; auction: PublicAuction }> = [];
  for (const listing of page.content) {
    if (!listing.auctionId) continue;
    const auction = await productCall<PublicAuction>(`/api/public/listings/${listing.slug}/auction`);
    if (auction.isActive && Date.parse(auction.endsAt) > Date.now() + 20 * 60_000) open.push({ listing, auction });
  }
  open.sort((a, b) => Date.parse(b.auction.endsAt) - Date.parse(a.auction.endsAt));
  const chosen = open.find(({ auction }) => auction.minimumBid === auction.currentPrice + 1) ?? open[0];
  if (!chosen) throw new Error('no seeded auction takes bids for the next 20 minutes');
  return chosen.listing;
}

async function minimumBid(listing: PublicListing): Promise<number> {
  return (await productCall<PublicAuction>(`/api/public/listings/${listing.slug}/auction`)).minimumBid;
}

function livePanelIsUp(page: Page): Promise<void> {
  return page.getByTestId('live-status').filter({ hasText: 'Live updates active' }).waitFor({ timeout: 20_000 });
}

describe('the listing detail page and its live auction panel', () => {
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  let listing: PublicListing;

  async function open(viewport = DESKTOP): Promise<Page> {
    const context = await newContext(browser, viewport);
    contexts.push(context);
    return context.newPage();
  }

  beforeAll(async () => {
    browser = await launchBrowser();
    listing = await biddableListing();
  });
  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => undefined);
    await browser?.close();
  });

  it('opens a seeded listing from the marketplace and shows its live auction panel', async () => {
    const page = await open();
    await page.goto('/marketplace');
    const card = page.getByTestId('listing-card').first();
    const title = (await card.getByRole('link').first().textContent())?.trim() ?? '';
    await card.getByRole('link').first().click();
    await page.waitForURL(/\/marketplace\/(listing\/)?[^/]+$/);
    await page.getByRole('link', { name: /Back to Marketplace/ }).waitFor();
    expect(title.length).toBeGreaterThan(0);
    await page.getByTestId('current-price').waitFor();
    expect(await page.getByTestId('current-price').textContent()).toMatch(/^\$[\d,]+\.\d{2}$/);
    await livePanelIsUp(page);
    await page.getByText('Provenance Authenticated').waitFor();
    await page.getByRole('heading', { name: 'Item Details' }).waitFor();
  });

  it('signed out, Place Bid opens the sign-in modal; signed in, the bid is placed, and another buyer sees it live without reloading', async () => {
    const [first, second] = await Promise.all([registerBuyer('Avery'), registerBuyer('Blake')]);
    const bidder = await open();
    const watcher = await open();
    await Promise.all([bidder.goto(`/marketplace/${listing.slug}`), watcher.goto(`/marketplace/${listing.slug}`)]);
    await Promise.all([livePanelIsUp(bidder), livePanelIsUp(watcher)]);
    // The watcher is signed in too, as another buyer.
    await watcher.getByRole('banner').getByRole('button', { name: 'Sign in' }).click();
    await signInThroughModal(watcher, second);

    const amount = await minimumBid(listing);
    await bidder.getByLabel('Your bid').fill(String(amount));
    await bidder.getByRole('button', { name: 'Place Bid' }).click();
    await signInThroughModal(bidder, first);
    // The typed amount is kept; the user confirms the bid with a press made while signed in.
    expect(await bidder.getByLabel('Your bid').inputValue()).toBe(String(amount));
    await bidder.getByRole('button', { name: 'Place Bid' }).click();
    await bidder.getByText('Bid placed successfully! Updates will appear automatically.').waitFor();
    expect(await bidder.getByText('Bid placed successfully!').evaluate((element) => element.closest('.banner')?.classList.contains('banner--success'))).toBe(true);
    await bidder.getByTestId('current-price').filter({ hasText: usd.format(amount) }).waitFor();
    await bidder.getByTestId('bid-history').getByRole('listitem').first().filter({ hasText: 'You' }).waitFor();
    // Leading now, the form suggests no bid against oneself: its amount is a new maximum, empty.
    expect(await bidder.getByLabel('Your new maximum').inputValue()).toBe('');
    // Above the next minimum, whatever the increment: the price must not move.
    const maximum = amount + 1000;
    await bidder.getByLabel('Your new maximum').fill(String(maximum));
    await bidder.getByRole('button', { name: 'Raise Maximum' }).click();
    await bidder.getByText(`You are still the leader at ${usd.format(amount)}; your maximum is now ${usd.format(maximum)}`).waitFor();
    expect(await bidder.getByTestId('current-price').textContent()).toBe(usd.format(amount));

    // No reload: the watcher's panel moved by itself.
    await watcher.getByTestId('current-price').filter({ hasText: usd.format(amount) }).waitFor({ timeout: 15_000 });
    const newest = watcher.getByTestId('bid-history').getByRole('listitem').first();
    await newest.filter({ hasText: usd.format(amount) }).waitFor();
    expect(await newest.textContent()).toMatch(/Bidder •••[0-9a-f]{4}/);
  });

  it('an amount not above the current price is refused on the page', async () => {
    const buyer = await registerBuyer('Casey');
    const page = await open();
    await page.goto(`/marketplace/${listing.slug}`);
    await livePanelIsUp(page);
    await page.getByRole('banner').getByRole('button', { name: 'Sign in' }).click();
    await signInThroughModal(page, buyer);
    const price = (await page.getByTestId('current-price').textContent())!;
    await page.getByLabel('Your bid').fill(price.replace(/[$,]/g, ''));
    await page.getByRole('button', { name: 'Place Bid' }).click();
    await page.getByRole('alert').filter({ hasText: `Bid must be higher than current price of ${price}` }).waitFor();
  });

  it('buy now: confirmed with its price, the auction ends sold, and another buyer sees it end live', async () => {
    const { ids } = await publishListings(1, () => `Buy-now test bat ${Date.now().toString(36)}`, { startingPrice: 100, buyNowPrice: 450 });
    const slug = (await productCall<PublicListing>(`/api/public/listings/${ids[0]}`)).slug;
    const buyer = await registerBuyer('Dana');

    const watcher = await open();
    await watcher.goto(`/marketplace/${slug}`);
    await livePanelIsUp(watcher);
    const page = await open();
    await page.goto(`/marketplace/${slug}`);
    await livePanelIsUp(page);
    await page.getByRole('banner').getByRole('button', { name: 'Sign in' }).click();
    await signInThroughModal(page, buyer);

    await page.getByRole('button', { name: 'Buy now for $450.00' }).click();
    await page.getByRole('button', { name: 'Confirm purchase for $450.00' }).click();
    await page.getByRole('status').filter({ hasText: 'You bought this item for $450.00.' }).waitFor();
    await page.getByRole('button', { name: 'Auction Ended' }).waitFor();
    await watcher.getByText('Sold for $450.00').waitFor();
    expect(await watcher.getByRole('button', { name: /Buy now/ }).count()).toBe(0);
  });

  it('reconnects after the network drops: "Connecting..." then "Live updates active"', async () => {
    // context.setOffline(true) does not close an open WebSocket in this Chromium (checked), so the
    // drop is played through Playwright's WebSocket routing: the open socket is cut with 1006, and
    // attempts fail the same way until the network is "back".
    const page = await open();
    const sockets: WebSocketRoute[] = [];
    let offline = false;
    let refused = 0;
    await page.routeWebSocket(/\/ws\/bidding$/, (socket) => {
      if (offline) {
        refused += 1;
        void socket.close({ code: 1006, reason: 'Network down' });
        return;
      }
      sockets.push(socket);
      socket.connectToServer();
    });
    await page.goto(`/marketplace/${listing.slug}`);
    await livePanelIsUp(page);
    expect(sockets).toHaveLength(1);

    offline = true;
    await sockets[0]!.close({ code: 1006, reason: 'Network down' });
    await page.getByTestId('live-status').filter({ hasText: 'Connecting...' }).waitFor();
    // One reconnect attempt (3000 ms later) fails while the network is down.
    await expect.poll(() => refused, { timeout: 15_000, interval: 250 }).toBeGreaterThanOrEqual(1);
    expect(await page.getByTestId('live-status').textContent()).toContain('Connecting...');

    offline = false;
    await livePanelIsUp(page);
    expect(sockets).toHaveLength(2);
  });

  it('an unknown listing shows "Listing Not Found"', async () => {
    const page = await open();
    await page.goto('/marketplace/no-such-listing-anywhere');
    await page.getByRole('heading', { name: 'Listing Not Found' }).waitFor();
  });

  it('looks right at 1440 px and 375 px (screenshots)', async () => {
    const desktop = await open(DESKTOP);
    await desktop.goto(`/marketplace/${listing.slug}`);
    await livePanelIsUp(desktop);
    await screenshot(desktop, 'listing-desktop');
    const phone = await open(PHONE);
    await phone.goto(`/marketplace/${listing.slug}`);
    await livePanelIsUp(phone);
    await screenshot(phone, 'listing-phone');
    // Nothing wider than the phone's screen.
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
  });
});

async function signInThroughModal(page: Page, account: Account): Promise<void> {
  const dialog = page.getByRole('dialog', { name: 'Sign in' });
  await dialog.waitFor();
  await dialog.getByLabel('Email').fill(account.email);
  await dialog.getByLabel('Password', { exact: true }).fill(account.password);
  await dialog.getByRole('button', { name: 'Sign in', exact: true }).click();
  await dialog.waitFor({ state: 'detached' });
}

import { readFile } from 'node:fs/promises';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Listing } from '../../api/contracts/listings';
import { provisionTag } from './admin-api';
import { DESKTOP, expectAccessible, launchBrowser, newContext, PHONE, productUrl, screenshot, signInAsAdmin } from './browser';

/**
 * An admin who is not a developer takes an item from nothing to a live auction through the web
 * app alone, and a buyer bids on it; a tag bound from a phone shows on the admin's screen by itself.
 */

const IMAGES = new URL('../../api/seed/images/', import.meta.url);
const FRONT = 'brady-front.jpg';
const BACK = 'brady-back.jpg';


/** The demo admin on the dashboard's Add Item tab, its form loaded. */
async function openAddItem(page: Page): Promise<void> {
  await signInAsAdmin(page);
  await page.getByRole('form', { name: 'Add Item' }).waitFor();
}

async function fillJersey(page: Page, playerName: string): Promise<void> {
  const form = page.getByRole('form', { name: 'Add Item' });
  await form.getByLabel('Player name').fill(playerName);
  await form.getByLabel('Jersey number').fill('12');
  await form.getByLabel('Team').selectOption('buccaneers');
  await form.getByLabel('Size').selectOption('xl');
  await form.getByLabel('Condition').selectOption('like-new');
  await form.getByLabel('Game title').fill('Super Bowl LV');
  await form.getByLabel('Game date').fill('2021-02-07');
  await form.getByLabel('Opponent').fill('Kansas City Chiefs');
  await form.getByLabel('Venue').fill('Raymond James Stadium');
  await form.getByLabel('Touchdowns').fill('3');
  await form.getByLabel('Passing yards').fill('201');
  await form.getByLabel('Completions').fill('21');
  await form.getByLabel('Description', { exact: true }).fill('Worn for the whole game; photo-matched.');
  await form.getByLabel('Starting price ($)').fill('100');
}

async function addFiles(page: Page, files: Array<{ name: string; mimeType: string; buffer: Buffer }>): Promise<void> {
  await page.locator('.media-tiles input[type=file]').setInputFiles(files);
}

async function image(name: string) {
  return { name, mimeType: 'image/jpeg', buffer: await readFile(new URL(name, IMAGES)) };
}

describe('Add Item: from nothing to a live auction, through the web app', () => {
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  const open = async (viewport = DESKTOP) => {
    const context = await newContext(browser, viewport);
    contexts.push(context);
    return context.newPage();
  };

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
  });

  it('fills the form, uploads two photos (one retried) and refuses a text file, reorders, saves, binds from the pool, publishes; a buyer finds it and bids', async () => {
    const playerName = `Avery Admin ${Date.now().toString(36)}`;
    const uid = await provisionTag();
    const admin = await open();
    await openAddItem(admin);
    await expectAccessible(admin, 'Add Item');

    // The spec's messages before anything is saved.
    await admin.getByRole('button', { name: 'Save Listing' }).click();
    await admin.getByText('Player name is required').waitFor();
    expect(await admin.getByRole('button', { name: 'Publish to LIVE' }).isDisabled()).toBe(true);

    const pending = admin.getByRole('region', { name: 'Pending Items' }).getByTestId('admin-figure');
    const pendingBefore = Number(await pending.textContent());
    await fillJersey(admin, playerName);
    // The first upload of the front photo fails on its way to storage; Retry sends it again.
    let failed = false;
    await admin.route('**/media/uploads/**', (route) => {
      if (!failed && route.request().method() === 'PUT') {
        failed = true;
        return route.fulfill({ status: 503, body: 'storage unavailable' });
      }
      return route.continue();
    });
    await addFiles(admin, [await image(FRONT), await image(BACK), { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not a photo') }]);
    await admin.getByRole('alert').filter({ hasText: 'notes.txt' }).filter({ hasText: 'File type must be' }).waitFor();
    const tiles = admin.getByRole('list', { name: 'Media files, in display order' }).getByRole('listitem');
    await admin.getByRole('button', { name: /^Retry / }).waitFor();
    expect(await tiles.filter({ hasText: 'Upload failed' }).count()).toBe(1);
    await admin.getByRole('button', { name: /^Retry / }).click();
    await expect.poll(() => tiles.filter({ hasText: 'Upload failed' }).count(), { timeout: 15_000 }).toBe(0);
    await expect.poll(async () => (await tiles.allTextContents()).filter((text) => /Uploaded/.test(text)).length, { timeout: 15_000 }).toBe(2);
    // The back photo first.
    await admin.getByRole('button', { name: `Move left ${BACK}` }).click();
    expect((await tiles.allTextContents()).map((text) => (text.includes(BACK) ? BACK : FRONT))).toEqual([BACK, FRONT]);

    await admin.getByRole('button', { name: 'Save Listing' }).click();
    await admin.getByText('Listing saved successfully! Now you can bind an NFC tag and publish.').waitFor();
    await admin.getByTestId('nfc-status').filter({ hasText: 'Unbound - All listings must have an NFC tag' }).waitFor();
    expect(await admin.getByRole('button', { name: 'Publish to LIVE' }).isDisabled()).toBe(true);
    // The header cards count it at once.
    await pending.filter({ hasText: String(pendingBefore + 1) }).waitFor();

    await admin.getByRole('radio', { name: 'Tag pool' }).check();
    await admin.getByLabel('Search tags by UID or claim code').fill(uid.slice(-8));
    await admin.getByRole('button', { name: `Bind ${uid}` }).click();
    await admin.getByTestId('nfc-status').filter({ hasText: `Bound ${uid}` }).waitFor();
    await expectAccessible(admin, 'Add Item');
    await screenshot(admin, 'admin-add-item-bound-desktop');

    // The after-sale terms are part of the rule set chosen at publish.
    await admin.getByLabel("Buyer's premium (%)").fill('15');
    await admin.getByLabel('Payment window (hours)').fill('48');
    await admin.getByRole('button', { name: 'Publish to LIVE' }).click();
    await admin.getByText('Listing published successfully and is now LIVE!').waitFor();
    const link = admin.getByRole('link', { name: new RegExp(playerName) });
    const path = (await link.getAttribute('href'))!;

    // A buyer, signed out, finds it on the marketplace with the photos in the chosen order.
    const buyer = await open();
    await buyer.goto(`/marketplace?search=${encodeURIComponent(playerName)}`);
    await buyer.getByTestId('listing-card').filter({ hasText: playerName }).getByRole('link').first().click();
    await buyer.waitForURL(`**${path}`);
    const slug = decodeURIComponent(path.split('/').at(-1)!);
    const listing = (await (await fetch(`${productUrl()}/api/public/listings/${encodeURIComponent(slug)}`)).json()) as Listing;
    expect(listing.mediaUrls).toHaveLength(2);
    const auction = (await (await fetch(`${productUrl()}/api/public/listings/${encodeURIComponent(slug)}/auction`)).json()) as { buyersPremiumPercent: number; paymentWindowHours: number };
    expect(auction).toMatchObject({ buyersPremiumPercent: 15, paymentWindowHours: 48 });
    await buyer.getByTestId('sale-terms').filter({ hasText: "The winner pays a 15% buyer's premium and shipping on top of the hammer price, by bank transfer within 2 days of the close." }).waitFor();
    const firstPhoto = Buffer.from(await (await fetch(new URL(listing.mediaUrls[0]!, productUrl()))).arrayBuffer());
    expect(firstPhoto.equals((await image(BACK)).buffer)).toBe(true);
    // The page shows them in that order too.
    const photo = (n: number) => buyer.getByRole('img', { name: new RegExp(`photo ${n} of 2$`) });
    expect(await photo(1).getAttribute('src')).toBe(listing.mediaUrls[0]);

    const email = `add-item-buyer-${Date.now()}@example.com`;
    const password = 'Bidder!pass1';
    const registered = await fetch(`${productUrl()}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ firstName: 'Blake', lastName: 'Buyer', email, password, role: 'BUYER' }),
    });
    expect(registered.status).toBe(201);
    await buyer.getByTestId('live-status').filter({ hasText: 'Live updates active' }).waitFor({ timeout: 20_000 });
    await buyer.getByLabel('Your bid').fill('101');
    await buyer.getByRole('button', { name: 'Place Bid' }).click();
    const dialog = buyer.getByRole('dialog', { name: 'Sign in' });
    await dialog.getByLabel('Email').fill(email);
    await dialog.getByLabel('Password', { exact: true }).fill(password);
    await dialog.getByRole('button', { name: 'Sign in', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    await buyer.getByRole('button', { name: 'Place Bid' }).click();
    await buyer.getByText('Bid placed successfully! Updates will appear automatically.').waitFor();
    await buyer.getByTestId('current-price').filter({ hasText: '$101.00' }).waitFor();
  });

  it('a tag bound from a phone through the QR code shows as Bound on the admin screen without a reload', async () => {
    const admin = await open();
    await openAddItem(admin);
    await fillJersey(admin, `Phone Tagged ${Date.now().toString(36)}`);
    await addFiles(admin, [await image(FRONT)]);
    const tiles = admin.getByRole('list', { name: 'Media files, in display order' }).getByRole('listitem');
    await expect.poll(async () => (await tiles.allTextContents()).filter((text) => /Uploaded/.test(text)).length, { timeout: 15_000 }).toBe(1);
    await admin.getByRole('button', { name: 'Save Listing' }).click();
    await admin.getByText('Listing saved successfully! Now you can bind an NFC tag and publish.').waitFor();

    const qr = admin.waitForResponse((response) => response.url().endsWith('/nfc/qr') && response.request().method() === 'POST');
    await admin.getByRole('radio', { name: 'Phone' }).check();
    const { url } = (await (await qr).json()) as { url: string };
    await admin.getByRole('img', { name: /QR code/ }).waitFor();
    await screenshot(admin, 'admin-add-item-phone-desktop');

    const uid = await provisionTag();
    const phone = await open(PHONE);
    const link = new URL(url);
    await phone.goto(`${link.pathname}${link.search}`);
    await phone.getByLabel('Tag UID').fill(uid.toLowerCase());
    await phone.getByRole('button', { name: 'Bind tag' }).click();
    await phone.getByText(/is now bound/).waitFor();

    // No reload: the panel asked by itself.
    await admin.getByTestId('nfc-status').filter({ hasText: `Bound ${uid}` }).waitFor({ timeout: 15_000 });
    expect(await admin.getByRole('button', { name: 'Publish to LIVE' }).isDisabled()).toBe(false);
  });

  it('looks right and passes axe at 1440 px and 375 px', async () => {
    for (const [name, viewport] of [
      ['desktop', DESKTOP],
      ['phone', PHONE],
    ] as const) {
      const page = await open(viewport);
      await openAddItem(page);
      await expectAccessible(page, 'Add Item');
      await screenshot(page, `admin-add-item-${name}`);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
    }
  });
});

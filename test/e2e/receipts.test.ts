import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Auction } from '../../api/contracts/auctions';
import type { Listing } from '../../api/contracts/listings';
import type { BidReceipt, PublishedKey } from '../../api/contracts/receipts';
import { publishListings } from './admin-api';
import { DESKTOP, expectAccessible, launchBrowser, newContext, PHONE, productCall, registerBuyer, screenshot, signInOnLoginPage, type RegisteredBuyer } from './browser';

/**
 * Verifiable history as a bidder sees it, in the browser, on the product as a newcomer runs it: a
 * bid placed through the listing's panel comes with a signed receipt; "Your receipts" lists it,
 * saves it as a file and checks it in the page (signed at once; in the auction's signed log once a
 * checkpoint covers it, at the latest when the lot closes); the same file checks on /verify, and a
 * copy with its amount changed is refused there in red.
 */

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
const PENDING = 'Signature verified; not in a signed checkpoint yet — try again in a minute.';
const VERIFIED = /^Verified: signed by (ed25519-[0-9a-f]{16}) and included in the auction's log as signed on [A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2}:\d{2} [AP]M\.$/;

/** A receipt's check once it has come: its outcome (data-outcome) and its words. */
async function checkResult(item: Locator): Promise<{ outcome: string; text: string }> {
  const result = item.getByTestId('receipt-check').locator('.receipt-check__result');
  await result.waitFor({ timeout: 15_000 });
  return { outcome: (await result.getAttribute('data-outcome'))!, text: (await result.innerText()).replace(/^[✓…✕]\s*/, '').trim() };
}

describe('receipts: a bidder keeps and checks the proof of their bid', () => {
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  let bidder: RegisteredBuyer;
  let listing: Listing;
  let auctionId: string;
  let amount: number;
  let files: string;
  let downloaded: string;

  async function open(viewport = DESKTOP): Promise<Page> {
    const context = await newContext(browser, viewport);
    contexts.push(context);
    return context.newPage();
  }

  beforeAll(async () => {
    browser = await launchBrowser();
    files = await mkdtemp(join(tmpdir(), 'provenance-receipts-'));
    // A hard close 40 s from now: the closing checkpoint covers the bid soon after.
    const { ids } = await publishListings(1, () => `Receipts test glove ${Date.now().toString(36)}`, { startingPrice: 100, endsAt: new Date(Date.now() + 40_000).toISOString(), softClose: null });
    listing = await productCall<Listing>(`/api/public/listings/${ids[0]}`);
    auctionId = listing.auctionId!;
    bidder = await registerBuyer('Riley');
  });
  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => undefined);
    await browser?.close();
    if (files) await rm(files, { recursive: true, force: true });
  });

  it('a bid through the panel: "Your receipts" lists it, downloads it as receipts-<auctionId>.json, and verifies it (signed at once, in the signed log once a checkpoint covers it); axe finds nothing', async () => {
    const page = await open();
    await signInOnLoginPage(page, bidder);
    await page.goto(`/marketplace/${listing.slug}`);
    await page.getByTestId('live-status').filter({ hasText: 'Live updates active' }).waitFor({ timeout: 20_000 });
    // Nobody who has not bid here sees the section.
    expect(await page.getByTestId('your-receipts').count()).toBe(0);

    amount = (await productCall<Auction>(`/api/public/listings/${listing.slug}/auction`)).minimumBid;
    await page.getByLabel('Your bid').fill(String(amount));
    await page.getByRole('button', { name: 'Place Bid' }).click();
    await page.getByText('Bid placed successfully! Updates will appear automatically.').waitFor();

    // The bid's answer carried the receipt: the section is there without another read.
    const section = page.getByTestId('your-receipts');
    await section.getByText('Your receipts').click();
    const item = section.getByTestId('receipt');
    await item.filter({ hasText: usd.format(amount) }).waitFor();
    expect(await item.count()).toBe(1);

    const [download] = await Promise.all([page.waitForEvent('download'), section.getByRole('button', { name: 'Download receipts' }).click()]);
    expect(download.suggestedFilename()).toBe(`receipts-${auctionId}.json`);
    downloaded = join(files, download.suggestedFilename());
    await download.saveAs(downloaded);
    const receipts = JSON.parse(await readFile(downloaded, 'utf8')) as BidReceipt[];
    expect(receipts).toHaveLength(1);
    const [receipt] = receipts as [BidReceipt];
    expect(receipt).toMatchObject({ format: 'provenance.bid-receipt.v2', auctionId, amount, streamId: `auction-${auctionId}`, batch: { size: 1, index: 0, auditPath: [] } });
    expect(receipt.signature).toMatch(/^[A-Za-z0-9_-]{80,}$/);
    // The short hash on screen is the receipt's; the whole of it is in the title.
    expect(await item.locator('code').getAttribute('title')).toBe(receipt.hash);
    // The same receipt the API lists for the bidder.
    expect(await productCall<BidReceipt[]>(`/api/bids/user/receipts?auctionId=${auctionId}`, { token: bidder.accessToken })).toEqual(receipts);

    // Checked at once: the signature holds; the bid is in the signed log only once a checkpoint covers it.
    await item.getByRole('button', { name: /^Verify/ }).click();
    const first = await checkResult(item);
    if (first.outcome === 'PENDING') expect(first.text).toBe(PENDING);
    else expect(first.text).toMatch(VERIFIED);
    await expectAccessible(page, 'the listing with its receipts open');
    await screenshot(page, 'receipts-listing-desktop');

    // The lot closes (hard close) and the closing checkpoint is signed: asked again, the receipt is in the log.
    const { keys } = await productCall<{ keys: PublishedKey[] }>('/.well-known/provenance-keys.json');
    let last = first;
    const deadline = Date.now() + 90_000;
    while (last.outcome !== 'VERIFIED' && Date.now() < deadline) {
      await page.waitForTimeout(3_000);
      // A result read before the new one shows is the previous one: it only costs another turn.
      await item.getByRole('button', { name: /^Verify again/ }).click();
      last = await checkResult(item);
      expect(['PENDING', 'VERIFIED'], JSON.stringify(last)).toContain(last.outcome);
    }
    expect(last.text).toMatch(VERIFIED);
    const signedBy = VERIFIED.exec(last.text)![1];
    expect(signedBy).toBe(receipt.keyId);
    expect(keys.map((key) => key.keyId)).toContain(signedBy);
    await expect.poll(() => item.getByTestId('receipt-check').locator('.banner--success').count()).toBe(1);
    await expectAccessible(page, 'the listing with a verified receipt');
    await screenshot(page, 'receipts-listing-verified-desktop');
  }, 180_000);

  it('/verify: empty, the downloaded file verified, a copy with its amount changed refused in red; bad JSON and a non-receipt are refused beside the field; axe at desktop and phone widths', async () => {
    const receipt = (JSON.parse(await readFile(downloaded, 'utf8')) as BidReceipt[])[0]!;
    const tampered = join(files, `receipts-${auctionId}-tampered.json`);
    await writeFile(tampered, JSON.stringify([{ ...receipt, amount: receipt.amount + 1000 }], null, 2));

    for (const [viewport, width] of [[DESKTOP, 'desktop'], [PHONE, 'phone']] as const) {
      const page = await open(viewport);
      await page.goto('/verify');
      await page.getByRole('heading', { level: 1, name: 'Check a receipt' }).waitFor();
      await expectAccessible(page, '/verify, empty');
      await screenshot(page, `verify-empty-${width}`);

      // Not JSON, then JSON that is no receipt: refused beside the text field, nothing checked.
      const text = page.getByLabel('Or paste its text');
      await text.fill('{"format": "provenance.bid-receipt.v2", ');
      await page.getByRole('button', { name: 'Check the text' }).click();
      await page.getByTestId('text-error').filter({ hasText: 'This is not valid JSON.' }).waitFor();
      expect(await text.getAttribute('aria-invalid')).toBe('true');
      await text.fill('{"hello": "world"}');
      await page.getByRole('button', { name: 'Check the text' }).click();
      await page.getByTestId('text-error').filter({ hasText: 'This is not a Provenance bid receipt: it has no "format": "provenance.bid-receipt.v2".' }).waitFor();
      expect(await page.getByTestId('verified-receipt').count()).toBe(0);
      if (width === 'desktop') await screenshot(page, 'verify-bad-text-desktop');

      // The file as downloaded: verified.
      await page.getByTestId('receipt-file').setInputFiles(downloaded);
      await page.getByRole('heading', { name: `1 receipt from receipts-${auctionId}.json` }).waitFor();
      const verified = page.getByTestId('verified-receipt');
      await verified.filter({ hasText: usd.format(amount) }).waitFor();
      const good = await checkResult(verified);
      expect(good.outcome).toBe('VERIFIED');
      expect(good.text).toMatch(VERIFIED);
      expect(await verified.locator('.receipt-check__result').getAttribute('class')).toContain('banner--success');
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
      await expectAccessible(page, '/verify, verified');
      await screenshot(page, `verify-verified-${width}`);

      // The amount changed: refused, in red, with the reason.
      await page.getByTestId('receipt-file').setInputFiles(tampered);
      await page.getByRole('heading', { name: `1 receipt from receipts-${auctionId}-tampered.json` }).waitFor();
      const refused = await checkResult(page.getByTestId('verified-receipt'));
      expect(refused).toEqual({ outcome: 'FAILED', text: "Not verified: The receipt's signature does not match its contents." });
      const banner = page.getByTestId('verified-receipt').locator('.receipt-check__result');
      expect(await banner.getAttribute('class')).toContain('banner--error');
      expect(await banner.evaluate((element) => getComputedStyle(element).color)).toBe(await page.evaluate(() => {
        const probe = document.createElement('span');
        probe.style.color = 'var(--danger-text)';
        document.body.append(probe);
        const color = getComputedStyle(probe).color;
        probe.remove();
        return color;
      }));
      await expectAccessible(page, '/verify, refused');
      await screenshot(page, `verify-refused-${width}`);
      if (width === 'desktop') {
        // And in the dark theme.
        await page.getByTestId('theme-toggle').click();
        await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
        await expectAccessible(page, '/verify, refused, dark theme');
        await screenshot(page, 'verify-refused-dark-desktop');
      }
    }
  }, 120_000);

  it('the receipts section at phone width, light and dark: the ended lot still lists the receipt, verified; axe finds nothing; "Check a receipt" opens /verify', async () => {
    const page = await open(PHONE);
    await signInOnLoginPage(page, bidder);
    await page.goto(`/marketplace/${listing.slug}`);
    const section = page.getByTestId('your-receipts');
    await section.getByText('Your receipts').click();
    const item = section.getByTestId('receipt').filter({ hasText: usd.format(amount) });
    await item.getByRole('button', { name: /^Verify/ }).click();
    expect((await checkResult(item)).text).toMatch(VERIFIED);
    await expect.poll(() => section.getByRole('link', { name: 'Check a receipt' }).getAttribute('href')).toBe('/verify');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await expectAccessible(page, 'the listing with its receipts open');
    await screenshot(page, 'receipts-listing-phone');
    await page.getByTestId('theme-toggle').click();
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
    await expectAccessible(page, 'the listing with its receipts open, dark theme');
    await screenshot(page, 'receipts-listing-dark-phone');
    // "Check a receipt" opens the verifier.
    await section.getByRole('link', { name: 'Check a receipt' }).click();
    await page.waitForURL('**/verify');
    await page.getByRole('heading', { level: 1, name: 'Check a receipt' }).waitFor();
  }, 60_000);
});

import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { publishListings } from './admin-api';
import { DESKTOP, expectAccessible, launchBrowser, newContext, PHONE, productCall, productRequest, registerBuyer, screenshot, signInOnLoginPage } from './browser';

/**
 * Buyers stay in the game, tried as a new user would on the embedded default: follow lots, be
 * outbid from another browser and see the bell and the mail (.eml under DATA_DIR/mail), reset the
 * password from the mailed link, and hear WON or LOST when a lot closes.
 */



/** The mails written for `address` so far, parsed; waits until one matches `subject`. */
async function mailTo(address: string, subject: RegExp, timeoutMs = 20_000): Promise<{ subject: string; text: string; links: string[] }> {
  const folder = inject('mailDir');
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const files = await readdir(folder).catch(() => [] as string[]);
    for (const file of files.filter((name) => name.endsWith('.eml'))) {
      const mail = await simpleParser(await readFile(join(folder, file)));
      const to = [mail.to].flat().flatMap((field) => field?.value.map((entry) => entry.address) ?? []);
      if (to.includes(address) && subject.test(mail.subject ?? '')) {
        const text = mail.text ?? '';
        return { subject: mail.subject ?? '', text, links: text.match(/https?:\/\/\S+/g) ?? [] };
      }
    }
    if (Date.now() > deadline) throw new Error(`no mail to ${address} matching ${subject} in ${folder}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function listingSlug(id: string): Promise<{ slug: string; auctionId: string }> {
  return productCall<{ slug: string; auctionId: string }>(`/api/public/listings/${id}`);
}

const bell = (page: Page) => page.getByRole('banner').getByRole('link', { name: /^Notifications/ });

describe('notices, the watchlist and recovering an account, in the browser', () => {
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
  });
  async function open(viewport = DESKTOP): Promise<Page> {
    const context = await newContext(browser, viewport);
    contexts.push(context);
    return context.newPage();
  }

  it('follows two lots (one while signed out), is outbid from another browser, sees the bell rise live and gets the mail', async () => {
    const { ids } = await publishListings(2, (index) => `Notices jersey ${index + 1} ${Date.now().toString(36)}`);
    const lots = await Promise.all(ids.map(listingSlug));
    const buyer = await registerBuyer('Casey', 'Bidder');
    const rival = await registerBuyer('Riley', 'Bidder');

    // Signed out, the heart is kept on this device; signing in merges it into the account.
    const page = await open();
    await page.goto(`/marketplace/${lots[1]!.slug}`);
    await page.getByRole('button', { name: 'Add to favourites' }).click();
    await signInOnLoginPage(page, buyer);
    await page.goto(`/marketplace/${lots[0]!.slug}`);
    await page.getByRole('button', { name: 'Add to favourites' }).click();
    await expect
      .poll(async () => (await productCall<{ content: Array<{ listingId: string }> }>('/api/v1/users/me/watchlist', { token: buyer.accessToken })).content.map((item) => item.listingId).sort())
      .toEqual([...ids].sort());
    await page.goto('/following-login');
    await expect.poll(async () => page.getByText(/Notices jersey/).count()).toBeGreaterThanOrEqual(2);
    await expect(bell(page).getAttribute('aria-label')).resolves.not.toMatch(/unread/);

    // The buyer bids on the first lot; the rival, in a browser of their own, outbids them.
    await page.goto(`/marketplace/${lots[0]!.slug}`);
    await page.getByLabel('Your bid').fill('150');
    await page.getByRole('button', { name: 'Place Bid' }).click();
    await page.getByText('Bid placed successfully! Updates will appear automatically.').waitFor();
    const rivalPage = await open(PHONE);
    await signInOnLoginPage(rivalPage, rival);
    await rivalPage.goto(`/marketplace/${lots[0]!.slug}`);
    await rivalPage.getByLabel('Your bid').fill('160');
    await rivalPage.getByRole('button', { name: 'Place Bid' }).click();
    await rivalPage.getByText('Bid placed successfully! Updates will appear automatically.').waitFor();

    // Without a reload: the socket brings the notice and the count.
    await expect.poll(async () => bell(page).getAttribute('aria-label'), { timeout: 15_000 }).toMatch(/1 unread/);
    const mail = await mailTo(buyer.email, /You have been outbid on Notices jersey 1/);
    expect(mail.links.some((link) => link.endsWith(`/marketplace/${lots[0]!.slug}`))).toBe(true);
    expect(mail.text).toContain('US $160.00');

    await screenshot(page, 'notices-bell-desktop');
    await bell(page).click();
    await page.waitForURL('**/notifications');
    await expect.poll(() => page.getByText('You have been outbid on Notices jersey 1').count()).toBeGreaterThan(0);
    await expectAccessible(page, 'notifications');
    await screenshot(page, 'notifications-desktop');
    await page.goto('/following-login');
    await expectAccessible(page, 'followed items');
    await screenshot(page, 'watchlist-desktop');

    // The same account on a phone: the list followed the account, not the device.
    const phone = await open(PHONE);
    await signInOnLoginPage(phone, buyer);
    await phone.goto('/following-login');
    await expect.poll(async () => (await phone.getByText(/Notices jersey/).count())).toBeGreaterThanOrEqual(2);
    await expectAccessible(phone, 'followed items');
    await screenshot(phone, 'watchlist-phone');
    await phone.goto('/notifications');
    await expect.poll(() => phone.getByText('You have been outbid on Notices jersey 1').count()).toBeGreaterThan(0);
    await expectAccessible(phone, 'notifications');
    await screenshot(phone, 'notifications-phone');
    await phone.getByRole('button', { name: 'Mark all as read' }).click();
    // Read on the phone: the desktop's bell hears of it.
    await expect.poll(async () => bell(page).getAttribute('aria-label'), { timeout: 15_000 }).not.toMatch(/unread/);
    await screenshot(phone, 'notices-bell-phone');
  });

  it('resets a forgotten password from the mailed link; the old password stops working', async () => {
    const account = await registerBuyer('Robin', 'Bidder');
    const page = await open();
    await page.goto('/login');
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.waitForURL('**/forgot-password');
    const form = page.getByRole('form', { name: 'Forgot password form' });
    await form.getByLabel('Email').fill(account.email);
    await form.getByRole('button', { name: 'Send reset link' }).click();
    await expect.poll(() => page.getByText(/If an account uses this address/).count()).toBeGreaterThan(0);
    await expectAccessible(page, 'forgot password');

    const mail = await mailTo(account.email, /Reset your Provenance password/);
    const link = mail.links.find((candidate) => candidate.includes('/reset-password#token='))!;
    await page.goto(link);
    const reset = page.getByRole('form', { name: 'Reset password form' });
    await reset.getByLabel('New password', { exact: true }).fill('Brand!New1pass');
    await reset.getByLabel('Confirm new password').fill('Brand!New1pass');
    await expectAccessible(page, 'reset password');
    await reset.getByRole('button', { name: 'Reset password' }).click();
    await page.waitForURL('**/login');

    expect((await productRequest('/api/auth/login', { body: { email: account.email, password: account.password } })).status).toBe(401);
    await signInOnLoginPage(page, { email: account.email, password: 'Brand!New1pass' });
  });

  it('tells the winner WON and the other bidder LOST when a lot published to end within a minute closes', async () => {
    const { ids } = await publishListings(1, () => `Closing soon cap ${Date.now().toString(36)}`, { endsAt: new Date(Date.now() + 20_000).toISOString(), softClose: null });
    const lot = await listingSlug(ids[0]!);
    const winner = await registerBuyer('Winnie', 'Bidder');
    const loser = await registerBuyer('Lou', 'Bidder');
    await productCall('/api/bids', { token: loser.accessToken, body: { auctionId: lot.auctionId, amount: 150 } });
    await productCall('/api/bids', { token: winner.accessToken, body: { auctionId: lot.auctionId, amount: 170 } });

    const page = await open();
    await signInOnLoginPage(page, winner);
    await page.goto('/notifications');
    await expect.poll(() => page.getByText(/^You won Closing soon cap/).count(), { timeout: 45_000 }).toBeGreaterThan(0);
    const kinds = (await productCall<{ content: Array<{ kind: string }> }>('/api/v1/users/me/notifications', { token: loser.accessToken })).content.map((notice) => notice.kind);
    // Newest first: LOST at the close, after the OUTBID (and ENDING_SOON, if the sweep came by while the lot was in its last hour).
    expect(kinds[0]).toBe('LOST');
    expect(kinds).toContain('OUTBID');
    expect(kinds.filter((kind) => !['LOST', 'OUTBID', 'ENDING_SOON'].includes(kind))).toEqual([]);
    await mailTo(winner.email, /You won Closing soon cap/);
  });
});

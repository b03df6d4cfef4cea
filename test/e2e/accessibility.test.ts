import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Auction } from '../../api/contracts/auctions';
import type { Listing } from '../../api/contracts/listings';
import { publishListings } from './admin-api';
import { accessibilityViolations, signInOnLoginPage, DESKTOP, expectAccessible, launchBrowser, newContext, PHONE, productCall, screenshot, signInAsAdmin } from './browser';

/**
 * Every screen, as its users reach it, scanned by axe-core against WCAG 2.2 AA at desktop and
 * phone widths. A failure lists each rule and element, so it says what to fix.
 */

const WIDTHS = [
  ['desktop', DESKTOP],
  ['phone', PHONE],
] as const;

describe('every screen passes axe-core (WCAG 2.2 AA) at desktop and phone widths', () => {
  let browser: Browser;
  let listing: Listing;
  const buyer = { email: `a11y-${Date.now().toString(36)}@example.com`, password: 'Access!ble1' };

  beforeAll(async () => {
    browser = await launchBrowser();
    const { ids } = await publishListings(1, () => `Accessibility test glove ${Date.now().toString(36)}`);
    listing = await productCall<Listing>(`/api/public/listings/${ids[0]}`);
    // The buyer leads this lot: its panel shows the leader's form (a new maximum, no bid against oneself).
    const { accessToken } = await productCall<{ accessToken: string }>('/api/auth/register', {
      body: { firstName: 'Ada', lastName: 'Access', ...buyer, role: 'BUYER' },
    });
    const auction = await productCall<Auction>(`/api/public/listings/${listing.slug}/auction`);
    await productCall('/api/bids', { body: { auctionId: auction.auctionId, amount: auction.minimumBid }, token: accessToken });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
  });

  it('the scan is not vacuous: it finds an image without a text alternative and an unlabelled field', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.setContent('<!doctype html><html lang="en"><title>t</title><main><img src="x.png"><input type="text"></main></html>');
    const found = await accessibilityViolations(page);
    expect(found.some((line) => line.startsWith('image-alt'))).toBe(true);
    expect(found.some((line) => line.startsWith('label'))).toBe(true);
    await context.close();
  });

  for (const [width, viewport] of WIDTHS) {
    it(`signed out, ${width}: marketplace, a listing, the sign-in and register dialogs, login, register, favourites, following, admin sign-in`, async () => {
      const context = await newContext(browser, viewport);
      const page = await context.newPage();

      await page.goto('/marketplace');
      await page.getByTestId('listing-card').first().waitFor();
      await expectAccessible(page, 'marketplace');

      await page.goto(`/marketplace/${listing.slug}`);
      await page.getByTestId('live-status').filter({ hasText: 'Live updates active' }).waitFor({ timeout: 20_000 });
      await expectAccessible(page, 'listing');

      await page.getByRole('button', { name: 'Place Bid' }).click();
      await page.getByRole('dialog', { name: 'Sign in' }).waitFor();
      await expectAccessible(page, 'sign-in dialog');
      await page.getByRole('dialog').getByRole('button', { name: 'Create account', exact: true }).click();
      await page.getByRole('dialog', { name: 'Create account' }).waitFor();
      await expectAccessible(page, 'register dialog');
      await page.keyboard.press('Escape');

      for (const [path, heading] of [
        ['/login', /sign in|welcome/i],
        ['/register', /create|register/i],
        ['/favourites', /favourites/i],
        ['/following-login', /follow|sign in/i],
        ['/admin/login', /admin/i],
        ['/forgot-password', /forgot your password/i],
        // A mailed link's page, opened without its token: it says so.
        ['/reset-password', /reset your password/i],
        ['/verify-email', /email/i],
      ] as const) {
        await page.goto(path);
        await page.getByRole('heading', { name: heading }).first().waitFor();
        await expectAccessible(page, path);
        if (path === '/forgot-password') await screenshot(page, `forgot-password-${width}`);
      }
      await page.goto('/reset-password#token=not-a-real-token');
      await page.getByRole('form', { name: 'Reset password form' }).getByLabel('New password', { exact: true }).fill('weak');
      await expectAccessible(page, 'reset password, rules unmet');
      await screenshot(page, `reset-password-${width}`);
      await context.close();
    }, 120_000);

    it(`a buyer, ${width}: the listing they lead, dashboard, profile, account settings, notifications, followed items`, async () => {
      const context = await newContext(browser, viewport);
      const page = await context.newPage();
      await signInOnLoginPage(page, buyer);
      await page.getByRole('list', { name: 'Your recent bids' }).waitFor();
      // A new account has not confirmed its address yet: the banner says so.
      await page.getByRole('button', { name: 'Resend the link' }).waitFor();
      await expectAccessible(page, 'dashboard');
      await screenshot(page, `dashboard-unverified-${width}`);

      await page.goto('/notifications');
      await page.getByRole('heading', { name: 'Notifications', exact: true }).waitFor();
      await expectAccessible(page, 'notifications');
      await page.goto('/following-login');
      await page.getByRole('heading', { name: 'Followed items', exact: true }).waitFor();
      await expectAccessible(page, 'followed items, signed in');

      await page.goto(`/marketplace/${listing.slug}`);
      await page.getByLabel('Your new maximum').waitFor();
      await expectAccessible(page, 'listing, leading');
      await screenshot(page, `listing-leading-${width}`);

      await page.goto('/profile');
      await page.getByRole('tab', { name: 'Profile Information', selected: true }).waitFor();
      await expectAccessible(page, 'profile');

      await page.goto('/account/settings');
      await page.getByRole('tab', { name: 'Security & Privacy' }).click();
      await page.getByRole('button', { name: 'Change Password' }).click();
      await page.getByRole('form', { name: 'Change password' }).getByLabel('New password', { exact: true }).fill('weak');
      await expectAccessible(page, 'account settings, password change');
      await page.getByRole('tab', { name: 'Profile Information' }).click();
      await page.getByRole('button', { name: /edit/i }).first().click();
      await page.getByLabel(/Transactional opt-out/).waitFor();
      await expectAccessible(page, 'account settings, mail preferences');
      await screenshot(page, `account-preferences-${width}`);
      await context.close();
    }, 120_000);

    it(`an admin, ${width}: dashboard, analytics, bulk import`, async () => {
      const context = await newContext(browser, viewport);
      const page = await context.newPage();
      await signInAsAdmin(page);
      for (const path of ['/admin/dashboard', '/admin/analytics', '/admin/bulk-import']) {
        await page.goto(path);
        await page.getByRole('heading').first().waitFor();
        await page.waitForLoadState('networkidle');
        await expectAccessible(page, path);
      }
      await context.close();
    }, 120_000);
  }
});

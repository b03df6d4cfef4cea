import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishListings } from './admin-api';
import { demoAccounts, DESKTOP, launchBrowser, newContext, PHONE, productRequest, screenshot } from './browser';

/** Each test makes its own account, so nothing here touches what other test files rely on. */
interface Account {
  readonly email: string;
  readonly password: string;
  readonly firstName: string;
  readonly lastName: string;
  readonly accessToken: string;
}

let counter = 0;
function uniqueEmail(): string {
  counter += 1;
  return `accounts-${Date.now().toString(36)}-${counter}-${Math.random().toString(36).slice(2, 7)}@example.com`;
}

const api = productRequest;

async function registerAccount(firstName = 'Casey', lastName = 'Collector'): Promise<Account> {
  const email = uniqueEmail();
  const password = 'Collect0r!pass';
  const { status, body } = await api<{ accessToken: string }>('/api/auth/register', { body: { firstName, lastName, email, password, role: 'BUYER' } });
  expect(status).toBe(201);
  return { email, password, firstName, lastName, accessToken: body.accessToken };
}

/** Fills and sends the sign-in form of the page already open; where it leads is for the test to check. */
async function submitSignInForm(page: Page, email: string, password: string): Promise<void> {
  const form = page.getByRole('form', { name: 'Sign in form' });
  await form.getByLabel('Email').fill(email);
  await form.getByLabel('Password', { exact: true }).fill(password);
  await form.getByRole('button', { name: 'Sign in' }).click();
}

/** Resolves once `check` holds, polling the page (no fixed sleeps). */
async function eventually(check: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('accounts: registration, sign-in, dashboard, profile, admin', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => browser?.close());

  it('register checks the rules in the spec order, lists unmet password rules live, then lands on the dashboard; sign-out brings Sign in back', async () => {
    const context = await newContext(browser, PHONE);
    const page = await context.newPage();
    await page.goto('/register');
    const form = page.getByRole('form', { name: 'Create account form' });
    const submit = form.getByRole('button', { name: 'Create account' });
    await page.getByText('provenance', { exact: true }).waitFor();

    await submit.click();
    await form.getByText('First name is required').waitFor();
    expect(await form.getByText('Last name is required').count()).toBe(0);

    await form.getByLabel('First name').fill('Robin');
    await submit.click();
    await form.getByText('Last name is required').waitFor();
    expect(await form.getByText('First name is required').count()).toBe(0);

    await form.getByLabel('Last name').fill('Registrant');
    await submit.click();
    await form.getByText('Email is required').waitFor();

    const email = uniqueEmail();
    await form.getByLabel('Email').fill(email);
    const password = form.getByLabel('Password', { exact: true });
    const unmet = form.getByRole('list', { name: 'Password rules not yet met' }).getByRole('listitem');
    await password.fill('abc');
    await submit.click();
    await form.getByText('Password must contain: at least 8 characters, one uppercase letter, one number, one special character (@$!%*?&)').waitFor();
    expect(await unmet.count()).toBe(4);
    // The live list shrinks with each rule met, as the user types.
    await password.fill('abcD');
    await eventually(async () => (await unmet.count()) === 3);
    await password.fill('abcD5');
    await eventually(async () => (await unmet.count()) === 2);
    await password.fill('abcD5!');
    await eventually(async () => (await unmet.count()) === 1);
    expect(await unmet.first().textContent()).toBe('at least 8 characters');
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'register-phone');
    await password.fill('abcD5!xyz');
    await eventually(async () => (await unmet.count()) === 0);

    await form.getByLabel('Confirm password').fill('abcD5!xyw');
    await submit.click();
    await form.getByText('Passwords do not match').waitFor();

    await form.getByLabel('Confirm password').fill('abcD5!xyz');
    await submit.click();
    await page.waitForURL('**/dashboard');
    await page.getByRole('heading', { name: 'Welcome back, Robin Registrant' }).waitFor();
    await page.getByRole('heading', { name: 'Quick Stats' }).waitFor();
    await page.getByText('No bids yet.').waitFor();

    const header = page.getByRole('banner');
    await header.getByRole('button', { name: 'Robin' }).click();
    await page.getByRole('menuitem', { name: 'Your Profile' }).waitFor();
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await header.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(await page.evaluate(() => localStorage.getItem('provenance-auth'))).toBeNull();
    await context.close();
  });

  it('a signed-out visit to /dashboard goes to /login and signing in returns to /dashboard; a wrong password says "Invalid email or password"', async () => {
    const account = await registerAccount('Dana', 'Returner');
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto('/dashboard');
    await page.waitForURL('**/login');
    await submitSignInForm(page, account.email, 'Wrong-password1!');
    await page.getByText('Invalid email or password').waitFor();
    await submitSignInForm(page, account.email, account.password);
    await page.waitForURL('**/dashboard');
    await page.getByRole('heading', { name: 'Welcome back, Dana Returner' }).waitFor();
    await context.close();
  });

  it('the auth modal opens from the header, keeps Tab inside, closes on Escape and gives focus back', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto('/marketplace');
    const opener = page.getByRole('banner').getByRole('button', { name: 'Sign in' });
    await opener.click();
    const dialog = page.getByRole('dialog', { name: 'Sign in' });
    await dialog.waitFor();
    expect(await dialog.getAttribute('aria-modal')).toBe('true');
    await eventually(() => dialog.getByLabel('Email').evaluate((input) => input === document.activeElement));

    const focusInside = () => page.evaluate(() => document.querySelector('[role="dialog"]')!.contains(document.activeElement));
    for (let step = 0; step < 12; step += 1) {
      await page.keyboard.press('Tab');
      expect(await focusInside()).toBe(true);
    }
    for (let step = 0; step < 5; step += 1) {
      await page.keyboard.press('Shift+Tab');
      expect(await focusInside()).toBe(true);
    }

    // Social sign-in says what the server says rather than pretending.
    await dialog.getByRole('button', { name: 'Continue with Google' }).click();
    await dialog.getByText(/Google sign-in is not (configured|available)/).waitFor();

    // The switch button is named after the other mode.
    await dialog.getByRole('button', { name: 'Create account' }).click();
    const register = page.getByRole('dialog', { name: 'Create account' });
    await register.getByLabel('First name').waitFor();
    await register.getByLabel('Confirm password').waitFor();
    await register.getByLabel('Password', { exact: true }).fill('Collect0r!pass');
    await register.getByLabel('Confirm password').fill('Collect0r!pasz');
    await register.getByLabel('First name').fill('Modal');
    await register.getByLabel('Last name').fill('User');
    await register.getByLabel('Email').fill(uniqueEmail());
    await register.getByRole('button', { name: 'Create account' }).click();
    await register.getByText('Passwords do not match').waitFor();
    await register.getByRole('button', { name: 'Sign in' }).click();
    await dialog.waitFor();

    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await eventually(() => opener.evaluate((button) => button === document.activeElement));

    // Signing in through the modal closes it and signs in in place.
    const account = await registerAccount('Morgan', 'Modal');
    await opener.click();
    await dialog.getByLabel('Email').fill(account.email);
    await dialog.getByLabel('Password', { exact: true }).fill(account.password);
    await dialog.getByRole('button', { name: 'Sign in' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('banner').getByRole('button', { name: 'Morgan' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/marketplace');
    await context.close();
  });

  it('profile: edit then Cancel restores; Save says "Profile updated" and persists across a reload; Member Since is the real sign-up day', async () => {
    const account = await registerAccount('Pat', 'Profile');
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto('/login');
    await submitSignInForm(page, account.email, account.password);
    await page.waitForURL('**/dashboard');
    await page.getByRole('banner').getByRole('button', { name: 'Pat' }).click();
    await page.getByRole('menuitem', { name: 'Your Profile' }).click();
    await page.waitForURL('**/profile');
    await page.getByRole('tab', { name: 'Profile Information', selected: true }).waitFor();

    const profile = (await api<{ createdAt: string; id: string }>(`/api/v1/users/${readSub(account.accessToken)}/profile`, { token: account.accessToken })).body;
    const memberSince = new Intl.DateTimeFormat('en-US', { dateStyle: 'long' }).format(new Date(profile.createdAt));
    await page.getByText(memberSince).waitFor();

    await page.getByRole('button', { name: 'Edit Profile' }).click();
    const editor = page.getByRole('form', { name: 'Edit profile' });
    await editor.getByLabel('First name').fill('Changed');
    await editor.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('button', { name: 'Edit Profile' }).waitFor();
    expect(await page.getByText('Changed', { exact: true }).count()).toBe(0);
    await page.getByRole('tabpanel', { name: 'Profile Information' }).getByText('Pat', { exact: true }).waitFor();

    await page.getByRole('button', { name: 'Edit Profile' }).click();
    expect(await editor.getByLabel('First name').inputValue()).toBe('Pat');
    await editor.getByLabel('First name').fill('Patricia');
    await editor.getByLabel('Phone').fill('+1 555 010 2030');
    expect(await editor.getByLabel('Email').getAttribute('readonly')).not.toBeNull();
    await editor.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Profile updated').waitFor();
    await page.getByRole('banner').getByRole('button', { name: 'Patricia' }).waitFor();

    await page.reload();
    await page.getByRole('tabpanel', { name: 'Profile Information' }).getByText('Patricia', { exact: true }).waitFor();
    await page.getByText('+1 555 010 2030').waitFor();
    await context.close();
  });

  it('a changed password signs the user out about 2 s later, onto /login; the new password then works', async () => {
    const account = await registerAccount('Sam', 'Secure');
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto('/login');
    await submitSignInForm(page, account.email, account.password);
    await page.waitForURL('**/dashboard');
    await page.goto('/account/settings');
    await page.getByRole('tab', { name: 'Security & Privacy' }).click();
    await page.getByRole('button', { name: 'Change Password' }).click();
    const form = page.getByRole('form', { name: 'Change password' });
    await form.getByLabel('New password', { exact: true }).fill('short');
    await form.getByLabel('Confirm new password').fill('short');
    await form.getByRole('button', { name: 'Update Password' }).click();
    await form.getByText('Current password is required').waitFor();
    await form.getByLabel('Current password').fill(account.password);
    await form.getByRole('button', { name: 'Update Password' }).click();
    await form.getByText('Password must contain: at least 8 characters, one uppercase letter, one number, one special character (@$!%*?&)').waitFor();
    const newPassword = 'Changed9!secret';
    await form.getByLabel('New password', { exact: true }).fill(newPassword);
    await form.getByRole('button', { name: 'Update Password' }).click();
    await form.getByText('Passwords do not match').waitFor();
    await form.getByLabel('Confirm new password').fill(newPassword);
    await form.getByRole('button', { name: 'Update Password' }).click();

    await page.getByText('Password updated successfully. You will be logged out shortly.').waitFor();
    const shownAt = Date.now();
    // Still signed in just after the message.
    expect(new URL(page.url()).pathname).toBe('/account/settings');
    await page.waitForURL('**/login', { timeout: 20_000 });
    const elapsed = Date.now() - shownAt;
    expect(elapsed).toBeGreaterThanOrEqual(1500);
    await page.getByRole('banner').getByRole('button', { name: 'Sign in' }).waitFor();

    await submitSignInForm(page, account.email, newPassword);
    await page.waitForURL('**/dashboard');
    await context.close();
  });

  it('the dashboard shows the user\'s real bids with where they stand', async () => {
    const account = await registerAccount('Blair', 'Bidder');
    const auction = await freshAuctionToBidOn();
    const placed = await api<{ amount: number }>('/api/bids', { body: { auctionId: auction.auctionId, amount: auction.minimumBid }, token: account.accessToken });
    expect(placed.status).toBe(201);

    const context = await newContext(browser, DESKTOP);
    const page = await context.newPage();
    await page.goto('/login');
    await submitSignInForm(page, account.email, account.password);
    await page.waitForURL('**/dashboard');
    const activity = page.getByRole('list', { name: 'Your recent bids' });
    await activity.getByRole('link', { name: auction.title }).waitFor();
    await activity.getByText('Leading').waitFor();
    const stat = (label: string) => page.getByRole('region', { name: 'Quick Stats' }).getByText(label).locator('xpath=following-sibling::dd');
    expect(await stat('Bids placed').textContent()).toBe('1');
    expect(await stat('Auctions bid on').textContent()).toBe('1');
    await screenshot(page, 'dashboard-desktop');
    await activity.getByRole('link', { name: auction.title }).click();
    await page.waitForURL(`**/marketplace/${auction.slug}`);
    await context.close();
  });

  it('the demo admin signs in at /admin/login and sees the four header cards with real numbers; the demo buyer is refused', async () => {
    const { admin, buyer } = demoAccounts();
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto('/admin/login');
    await signInAt(page, 'Admin sign in form', buyer.email, buyer.password);
    await page.getByText('This account does not have admin access').waitFor();

    await signInAt(page, 'Admin sign in form', admin.email, admin.password);
    await page.waitForURL('**/admin/dashboard');
    const analytics = await api<{ totals: { totalItems: number; liveItems: number; pendingItems: number } }>('/api/admin/analytics', {
      token: await adminToken(admin.email, admin.password),
    });
    for (const [label, expected] of [
      ['Total Items', String(analytics.body.totals.totalItems)],
      ['Live Items', String(analytics.body.totals.liveItems)],
      ['Pending Items', String(analytics.body.totals.pendingItems)],
    ] as const) {
      const figure = page.getByRole('region', { name: label }).getByTestId('admin-figure');
      await figure.waitFor();
      expect(await figure.textContent()).toBe(expected);
    }
    const nfc = page.getByRole('region', { name: 'NFC Success' }).getByTestId('admin-figure');
    await nfc.waitFor();
    expect(await nfc.textContent()).toMatch(/^(\d{1,3}%|—)$/);
    const nav = page.getByRole('navigation', { name: 'Admin' });
    for (const name of ['Dashboard', 'Analytics', 'Bulk Import', 'View Site']) await nav.getByRole('link', { name }).waitFor();
    await nav.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL('**/admin/login');
    await context.close();
  });
});

async function signInAt(page: Page, formName: string, email: string, password: string): Promise<void> {
  const form = page.getByRole('form', { name: formName });
  await form.getByLabel('Email').fill(email);
  await form.getByLabel('Password', { exact: true }).fill(password);
  await form.getByRole('button', { name: 'Sign in' }).click();
}

async function adminToken(email: string, password: string): Promise<string> {
  const { body } = await api<{ accessToken: string }>('/api/admin/auth/login', { body: { email, password } });
  return body.accessToken;
}

function readSub(token: string): string {
  const payload = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as { sub: string };
  return payload.sub;
}

/** A lot of this test's own, open for a week: no other test's maximum can answer its bid. */
async function freshAuctionToBidOn(): Promise<{ auctionId: string; minimumBid: number; title: string; slug: string }> {
  const title = `Dashboard test jersey ${Date.now().toString(36)}`;
  const {
    ids: [listingId],
  } = await publishListings(1, () => title);
  const listing = await api<{ slug: string }>(`/api/public/listings/${listingId!}`);
  const auction = await api<{ auctionId: string; minimumBid: number }>(`/api/public/listings/${listingId!}/auction`);
  return { auctionId: auction.body.auctionId, minimumBid: auction.body.minimumBid, title, slug: listing.body.slug };
}

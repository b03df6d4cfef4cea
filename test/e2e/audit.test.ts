import { readFile } from 'node:fs/promises';
import { parse } from 'csv-parse/sync';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUDIT_CSV_COLUMNS, type AuctionTimeline, type AuditEvent, type AuditEventPage } from '../../api/contracts/audit';
import type { Auction } from '../../api/contracts/auctions';
import type { Listing } from '../../api/contracts/listings';
import { publishListings } from './admin-api';
import { demoAccounts, DESKTOP, expectAccessible, launchBrowser, newContext, PHONE, productCall, screenshot, signInAsAdmin } from './browser';

/**
 * The audit side through the UI only: an auditor (made by an admin through the roles route)
 * signs in at /admin/login and lands on the log, filters it by an auction's stream, opens a
 * correlation and exports CSV; an admin steps through that auction's timeline to its close, and
 * the screen's price is the API's at every step, each step marked Verified with its hash, and
 * downloads the auction's audit bundle.
 */

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
const PASSWORD = 'Audit!ng1';

/** The user id an access token names. */
const userIdOf = (accessToken: string) => (JSON.parse(Buffer.from(accessToken.split('.')[1]!, 'base64url').toString()) as { sub: string }).sub;

async function register(name: string, stamp: string): Promise<{ email: string; accessToken: string }> {
  const email = `${name.toLowerCase()}-${stamp}@example.com`;
  const { accessToken } = await productCall<{ accessToken: string }>('/api/auth/register', {
    body: { firstName: name, lastName: 'Audit', email, password: PASSWORD, role: 'BUYER' },
  });
  return { email, accessToken };
}

/** A bid through the API; `refused` expects the engine to turn it down (it lands in the rejections stream). */
async function bid(token: string, auctionId: string, amount: number, options: { maxAmount?: number; refused?: boolean } = {}): Promise<void> {
  const body = { auctionId, amount, ...(options.maxAmount ? { maxAmount: options.maxAmount } : {}) };
  if (!options.refused) {
    await productCall('/api/bids', { body, token });
    return;
  }
  await expect(productCall('/api/bids', { body, token })).rejects.toThrow(/409/);
}

const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

async function signInAt(page: Page, account: { email: string; password: string }): Promise<void> {
  await page.goto('/admin/login');
  const form = page.getByRole('main');
  await form.getByLabel('Email').fill(account.email);
  await form.getByLabel('Password', { exact: true }).fill(account.password);
  await form.getByRole('button', { name: /sign in/i }).click();
}

/** The positions of the events table's rows, in order. */
async function shownPositions(page: Page): Promise<string[]> {
  const cells = await page.getByTestId('audit-event').locator('td:first-child').allTextContents();
  return cells.map((cell) => cell.replace(/[▸▾]|details/g, '').trim());
}

describe('the audit side in the browser', () => {
  let browser: Browser;
  let adminToken: string;
  let auditor: { id: string; email: string; password: string; token: string };
  let listing: Listing;
  let auctionId: string;
  let timeline: AuctionTimeline;
  const stream = () => `auction-${auctionId}`;

  beforeAll(async () => {
    browser = await launchBrowser();
    const stamp = Date.now().toString(36);
    ({ accessToken: adminToken } = await productCall<{ accessToken: string }>('/api/admin/auth/login', { body: demoAccounts().admin }));

    // An auditor, as an admin makes one: a registered account given the AUDITOR role (its whole set).
    const registered = await register('Auditor', stamp);
    await productCall(`/api/admin/users/${userIdOf(registered.accessToken)}/roles`, { method: 'PUT', token: adminToken, body: { roles: ['AUDITOR'] } });
    const { accessToken: auditorToken } = await productCall<{ accessToken: string }>('/api/admin/auth/login', { body: { email: registered.email, password: PASSWORD } });
    auditor = { id: userIdOf(registered.accessToken), email: registered.email, password: PASSWORD, token: auditorToken };

    // An auction that ends in 16 s with a 10 s soft close and a $120 reserve.
    const { ids } = await publishListings(1, () => `Audit timeline bat ${stamp}`, {
      startingPrice: 100,
      endsAt: new Date(Date.now() + 16_000).toISOString(),
      softClose: { windowSeconds: 10, maxExtensionHours: 0.05 },
      reservePrice: 120,
    });
    listing = await productCall<Listing>(`/api/public/listings/${ids[0]}`);
    const auction = await productCall<Auction>(`/api/public/listings/${listing.slug}/auction`);
    auctionId = auction.auctionId;
    const alice = await register('Alice', stamp);
    const bob = await register('Bob', stamp);
    // Alice's maximum answers Bob automatically; Bob's bid below the price is refused; his last bid, inside the soft-close window, extends the end.
    await bid(alice.accessToken, auctionId, 101, { maxAmount: 150 });
    await bid(bob.accessToken, auctionId, 130);
    await bid(bob.accessToken, auctionId, 110, { refused: true });
    await sleep(Math.max(0, Date.parse(auction.endsAt) - Date.now() - 5_000));
    await bid(bob.accessToken, auctionId, 160);

    // The lifecycle worker closes it at its (extended) end.
    const deadline = Date.now() + 40_000;
    do {
      await sleep(1_000);
      timeline = await productCall<AuctionTimeline>(`/api/audit/auctions/${auctionId}/timeline`, { token: adminToken });
    } while (timeline.summary.status !== 'ENDED' && Date.now() < deadline);
    expect(timeline.summary.status).toBe('ENDED');
    expect(timeline.steps.some((step) => step.kind === 'REFUSED')).toBe(true);
    expect(timeline.steps.some((step) => step.outcome === 'EXTENDED')).toBe(true);
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
  });

  it('an auditor signs in at /admin/login and lands on /audit; filters by the auction\'s stream, opens a correlation, exports CSV, finds that export among the reads; axe finds nothing at desktop and phone widths', async () => {
    const context = await newContext(browser, DESKTOP);
    const page = await context.newPage();
    await signInAt(page, auditor);
    await page.waitForURL('**/audit');
    // Only what an auditor may use: the log and Logout; the admin pages send them back here.
    const nav = page.getByRole('navigation', { name: 'Audit' });
    await nav.getByRole('link', { name: 'Audit log' }).waitFor();
    expect(await nav.getByRole('link', { name: 'Dashboard' }).count()).toBe(0);
    await page.goto('/admin/dashboard');
    await page.waitForURL('**/audit');

    // The auction's stream, through the filter form: the API's events, in log order.
    await page.getByLabel('Stream').fill(stream());
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.waitForURL((url) => url.searchParams.get('stream') === stream());
    const { events } = await productCall<AuditEventPage>(`/api/audit/events?stream=${stream()}`, { token: auditor.token });
    await expect.poll(() => shownPositions(page)).toEqual(events.map((event) => event.position));
    expect(await page.getByTestId('audit-event').locator('td:nth-child(4)').allTextContents()).toEqual(events.map((event) => String(event.revision)));

    // A row opens onto its data and metadata.
    await page.getByTestId('audit-event').first().getByRole('button', { name: `${events[0]!.position} details` }).click();
    expect(JSON.parse((await page.getByTestId('event-json').textContent())!)).toEqual({ data: events[0]!.data, metadata: events[0]!.metadata });

    // The late bid's correlation: the bid and the extension it caused.
    const extension = events.find((event) => event.type === 'AuctionExtended')!;
    const correlationId = (extension.metadata as { correlationId: string }).correlationId;
    await page.getByTestId('audit-event').filter({ hasText: 'AuctionExtended' }).getByRole('link', { name: 'Show this correlation' }).click();
    await page.waitForURL((url) => url.searchParams.get('correlation') === correlationId);
    const correlated = await productCall<AuditEventPage>(`/api/audit/correlations/${correlationId}`, { token: auditor.token });
    expect(correlated.events.map((event: AuditEvent) => event.type)).toEqual(expect.arrayContaining(['BidPlaced', 'AuctionExtended']));
    await expect.poll(() => shownPositions(page)).toEqual(correlated.events.map((event) => event.position));
    expect(await page.getByTestId('correlation-id').textContent()).toBe(correlationId);
    // Back is the filtered view again.
    await page.goBack();
    await page.waitForURL((url) => url.searchParams.get('stream') === stream() && !url.searchParams.has('correlation'));
    await expect.poll(() => shownPositions(page)).toEqual(events.map((event) => event.position));

    // The export: the server's file name, the header line, then one record per event.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    expect(download.suggestedFilename()).toMatch(new RegExp(`^provenance-log-auction-${auctionId}-.+\\.csv$`));
    const csv = (await readFile((await download.path())!, 'utf8')).replace(/^\uFEFF/, '');
    expect(csv.split(/\r?\n/, 1)[0]).toBe(AUDIT_CSV_COLUMNS.join(','));
    const records = parse(csv, { columns: true }) as Array<Record<string, string>>;
    expect(records.map((record) => record.position)).toEqual(events.map((event) => event.position));
    expect(new Set(records.map((record) => record.streamId))).toEqual(new Set([stream()]));
    await page.getByText(`Saved ${download.suggestedFilename()}`).waitFor();

    // Auditing the auditors: the export just made is among the reads, with who asked and what.
    await page.getByText('Who read the log').click();
    const exportRead = page.getByTestId('audit-read').filter({ hasText: 'GET /api/audit/events/export' }).first();
    await exportRead.waitFor();
    expect(await exportRead.locator('td').nth(1).getAttribute('title')).toBe(auditor.id);
    expect(JSON.parse((await exportRead.locator('td').nth(3).textContent())!)).toEqual({ stream: stream(), format: 'csv' });

    await expectAccessible(page, '/audit');
    await screenshot(page, 'audit-log-desktop');

    // From a row of the auction's stream to its timeline, which an auditor may read too.
    await page.getByTestId('audit-event').first().getByRole('link', { name: 'Timeline' }).click();
    await page.waitForURL(`**/admin/auctions/${auctionId}/timeline`);
    await page.getByTestId('step-position').filter({ hasText: `Step 0 of ${timeline.steps.length - 1}` }).waitFor();
    await context.close();

    const phone = await newContext(browser, PHONE);
    const phonePage = await phone.newPage();
    await signInAt(phonePage, auditor);
    await phonePage.waitForURL('**/audit');
    await phonePage.goto(`/audit?stream=${stream()}`);
    await expect.poll(() => shownPositions(phonePage)).toEqual(events.map((event) => event.position));
    expect(await phonePage.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await expectAccessible(phonePage, '/audit');
    await screenshot(phonePage, 'audit-log-phone');
    await phone.close();
  }, 120_000);

  it('an admin reaches the timeline from the Manage table and the listing, steps through to the close with Next and the arrow keys, the price the API\'s at each step; every step verified with its hash; the audit bundle downloads; ?step=N opens at step N', async () => {
    const context = await newContext(browser, DESKTOP);
    const page = await context.newPage();
    await signInAsAdmin(page);
    const path = `/admin/auctions/${auctionId}/timeline`;

    await page.goto(`/admin/dashboard?${new URLSearchParams({ tab: 'manage', search: listing.title })}`);
    const row = page.getByTestId('listing-row').filter({ hasText: listing.title });
    expect(await row.getByRole('link', { name: 'Timeline' }).getAttribute('href')).toBe(path);
    await page.goto(`/marketplace/${listing.slug}`);
    await page.getByRole('link', { name: 'Auction timeline' }).click();
    await page.waitForURL(`**${path}`);

    const last = timeline.steps.length - 1;
    const shows = async (index: number) => {
      const step = timeline.steps[index]!;
      await page.getByTestId('step-position').filter({ hasText: `Step ${index} of ${last}` }).waitFor();
      expect(await page.getByTestId('step-price').textContent(), `step ${index}`).toBe(usd.format(step.summary.price));
      // A refused attempt says so; nothing else does.
      expect((await page.getByTestId('step-outcome').textContent()) === 'Refused attempt').toBe(step.kind === 'REFUSED');
      expect(await page.getByTestId('step-explanation').locator('li').allTextContents()).toEqual(step.explanation);
      expect(new URL(page.url()).searchParams.get('step') ?? '0').toBe(String(index));
    };
    await shows(0);
    // The first half with the Next button, the rest with the Right arrow key.
    for (let index = 0; index < last; index++) {
      if (index < last / 2) await page.getByRole('button', { name: 'Next →' }).click();
      else await page.keyboard.press('ArrowRight');
      await shows(index + 1);
    }
    expect(timeline.steps[last]!.outcome).toBe('CLOSED');
    expect(await page.getByRole('button', { name: 'Next →' }).isDisabled()).toBe(true);
    await page.keyboard.press('ArrowLeft');
    await shows(last - 1);
    await page.keyboard.press('ArrowRight');
    await shows(last);

    // Refused attempts stand apart, in their own list too.
    const refused = timeline.steps.filter((step) => step.kind === 'REFUSED');
    expect(await page.getByTestId('refused-attempts').getByRole('listitem').count()).toBe(refused.length);
    await expect.poll(() => page.getByTestId('price-chart').getAttribute('data-drawn')).toBe('true');

    // Verifiable history: an untampered auction, every step verified, each with its hash (the first
    // 12 characters in the list, the whole of it in the title and in the step's details); no banner.
    expect(timeline.integrity.every((stream) => stream.valid)).toBe(true);
    const everyStep = page.getByTestId('every-step');
    expect(await everyStep.getByTestId('link-mark').allTextContents()).toEqual(timeline.steps.map(() => '✓ Verified'));
    const hashes = everyStep.getByTestId('step-hash');
    expect(await hashes.allTextContents()).toEqual(timeline.steps.map((step) => step.hash!.slice(0, 12)));
    expect(await hashes.evaluateAll((codes) => codes.map((code) => code.getAttribute('title')))).toEqual(timeline.steps.map((step) => step.hash));
    expect(await page.getByTestId('step-chain').textContent()).toBe(`✓ Verified ${timeline.steps[last]!.hash}`);
    expect(await page.getByText(/fails its check/).count()).toBe(0);

    // The audit bundle, under the server's name, as the offline check takes it.
    await page.getByText('Check it offline with npm run audit:verify -- bundle.json').waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download audit bundle' }).click()]);
    expect(download.suggestedFilename()).toBe(`auction-${auctionId}-bundle.json`);
    const bundle = JSON.parse(await readFile((await download.path())!, 'utf8')) as { format: string };
    expect(bundle.format).toBe('provenance.audit-bundle.v1');
    await page.getByText(`Saved ${download.suggestedFilename()}`).waitFor();

    // A deep link opens at its step: the refused attempt.
    const refusedStep = refused[0]!.step;
    await page.goto(`${path}?step=${refusedStep}`);
    await shows(refusedStep);
    expect(await page.getByTestId('step-details').getAttribute('class')).toContain('timeline__details--refused');
    await expect.poll(() => page.getByTestId('price-chart').getAttribute('data-drawn')).toBe('true');
    await expectAccessible(page, 'auction timeline');
    await screenshot(page, 'auction-timeline-desktop');

    // A log that fails its check (the API's answer changed on its way, as a tampered log makes it; the
    // API's tests tamper for real): the banner says where and why, the marks say which steps.
    const problem = 'Revision 2 was changed: its contents do not match its hash';
    const mark = (step: AuctionTimeline['steps'][number]) => (step.revision === null || step.revision < 2 ? step.integrity : step.revision === 2 ? 'BROKEN' : 'UNVERIFIED');
    const broken: AuctionTimeline = {
      ...timeline,
      steps: timeline.steps.map((step) => ({ ...step, integrity: mark(step) })),
      integrity: timeline.integrity.map((each) => (each.streamId === stream() ? { ...each, valid: false, firstInvalidRevision: 2, problem } : each)),
    };
    const timelineRoute = `**/api/audit/auctions/${auctionId}/timeline`;
    await page.route(timelineRoute, (route) => route.fulfill({ json: broken }));
    await page.reload();
    await page.getByRole('alert').filter({ hasText: `The log of this auction fails its check at revision 2: ${problem}` }).waitFor();
    const labels = { VERIFIED: '✓ Verified', BROKEN: '✕ Broken link', UNVERIFIED: '? Unverified' } as const;
    expect(await everyStep.getByTestId('link-mark').allTextContents()).toEqual(broken.steps.map((step) => labels[step.integrity]));
    await expect.poll(() => page.getByTestId('price-chart').getAttribute('data-drawn')).toBe('true');
    await expectAccessible(page, 'auction timeline, a broken link');
    await screenshot(page, 'auction-timeline-broken-desktop');
    await page.unroute(timelineRoute);

    await page.reload();
    await page.getByTestId('step-position').filter({ hasText: `Step ${refusedStep} of ${last}` }).waitFor();
    await page.getByTestId('theme-toggle').click();
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
    await expect.poll(() => page.getByTestId('price-chart').getAttribute('data-drawn')).toBe('true');
    await expectAccessible(page, 'auction timeline, dark theme');
    await screenshot(page, 'auction-timeline-dark-desktop');
    await context.close();

    const phone = await newContext(browser, PHONE);
    const phonePage = await phone.newPage();
    await signInAsAdmin(phonePage);
    await phonePage.goto(`${path}?step=${refusedStep}`);
    await phonePage.getByTestId('step-position').filter({ hasText: `Step ${refusedStep} of ${last}` }).waitFor();
    await expect.poll(() => phonePage.getByTestId('price-chart').getAttribute('data-drawn')).toBe('true');
    expect(await phonePage.getByTestId('every-step').getByTestId('link-mark').count()).toBe(timeline.steps.length);
    expect(await phonePage.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await expectAccessible(phonePage, 'auction timeline');
    await screenshot(phonePage, 'auction-timeline-phone');
    await phone.close();
  }, 120_000);
});

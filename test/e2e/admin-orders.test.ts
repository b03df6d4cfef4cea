import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Auction } from '../../api/contracts/auctions';
import type { Listing } from '../../api/contracts/listings';
import type { AdminOrder, AdminOrdersPage } from '../../api/contracts/orders';
import { publishListings } from './admin-api';
import { DESKTOP, expectAccessible, launchBrowser, newContext, PHONE, productCall, productRequest, screenshot, signInAsAdmin } from './browser';

/**
 * The admin's Orders view on the real product: orders made by real sales (lots published to end
 * in seconds, bid on by new buyers), then settled in the browser. One is paid in two parts (a
 * repeated reference refused with the server's reason), then shipped (offered only once paid) and
 * delivered; one goes overdue, is listed first, marked and counted, cancelled with a reason and
 * offered to the runner-up, named; one is relisted. The server searches and pages the list.
 * axe-core checks the list and an order at desktop and phone widths.
 */

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
const ADDRESS = { name: 'Pat Payer', line1: '1 Main Street', city: 'Springfield', region: 'IL', postalCode: '62701', country: 'US' };
/** Sales close this long after publishing: time to bid. */
const ENDS_IN_MS = 15_000;

interface Buyer {
  readonly id: string;
  readonly name: string;
  readonly email: string;
  readonly token: string;
}

describe('admin orders in the browser', () => {
  const stamp = Date.now().toString(36);
  let browser: Browser;
  let adminToken: string;
  let payer: Buyer;
  let lateWinner: Buyer;
  let runnerUp: Buyer;
  /** The runner-up's only (so highest) bid: what the second-chance offer asks of them. */
  let runnerUpBid: number;
  const listings = { paid: '', overdue: '', relisted: '' };
  const titles = { paid: `Orders test helmet ${stamp}`, overdue: `Orders test cleats ${stamp}`, relisted: `Orders test pennant ${stamp}` };

  async function register(firstName: string): Promise<Buyer> {
    const email = `orders-${firstName.toLowerCase()}-${stamp}@example.com`;
    const { accessToken } = await productCall<{ accessToken: string }>('/api/auth/register', {
      body: { firstName, lastName: 'Buyer', email, password: 'Orders!Test1', role: 'BUYER' },
    });
    // The user's id is the access token's subject.
    const { sub } = JSON.parse(Buffer.from(accessToken.split('.')[1]!, 'base64url').toString('utf8')) as { sub: string };
    return { id: sub, name: `${firstName} Buyer`, email, token: accessToken };
  }

  /** A lot that closes in seconds with these after-sale terms, and bids on it (in order). */
  async function sale(title: string, terms: Record<string, unknown>, bids: ReadonlyArray<readonly [Buyer, number]>): Promise<{ listingId: string; amounts: number[] }> {
    const endsAt = new Date(Date.now() + ENDS_IN_MS).toISOString();
    const published = await publishListings(1, () => title, { endsAt, softClose: null, ...terms });
    adminToken = published.token;
    const listing = await productCall<Listing>(`/api/public/listings/${published.ids[0]}`);
    const auction = await productCall<Auction>(`/api/public/listings/${listing.slug}/auction`);
    const amounts: number[] = [];
    for (const [bidder, amount] of bids) {
      amounts.push(Math.max(amount, auction.minimumBid));
      await productCall('/api/bids', { body: { auctionId: auction.auctionId, amount: amounts.at(-1) }, token: bidder.token });
    }
    return { listingId: published.ids[0]!, amounts };
  }

  /** The order the sale of this listing placed, once the lifecycle has placed it (and, with `until`, once it says so). */
  async function orderOf(listingId: string, until: (order: AdminOrder) => boolean = () => true): Promise<AdminOrder> {
    let found: AdminOrder | undefined;
    await expect
      .poll(
        async () => {
          // This run's orders: the stamp is in their titles and buyers' emails.
          const { content } = await productCall<AdminOrdersPage>(`/api/admin/orders?${new URLSearchParams({ search: stamp, size: '100' })}`, { token: adminToken });
          found = content.find((order) => order.listingId === listingId);
          return found !== undefined && until(found);
        },
        { timeout: 90_000, interval: 1_000 },
      )
      .toBe(true);
    return found!;
  }

  beforeAll(async () => {
    browser = await launchBrowser();
    [payer, lateWinner, runnerUp] = [await register('Pat'), await register('Lee'), await register('Robin')];
    // The payment window set at publish: 0.01 h (36 s) for the one that goes overdue.
    const overdue = await sale(titles.overdue, { paymentWindowHours: 0.01 }, [
      [runnerUp, 100],
      [lateWinner, 120],
    ]);
    listings.overdue = overdue.listingId;
    runnerUpBid = overdue.amounts[0]!;
    listings.paid = (await sale(titles.paid, {}, [[payer, 100]])).listingId;
    listings.relisted = (await sale(titles.relisted, {}, [[payer, 100]])).listingId;
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
  });

  const field = (page: Page, form: string, label: string) => page.getByRole('form', { name: form }).getByLabel(label, { exact: true });
  const result = (page: Page) => page.getByTestId('order-result');
  const statusBadge = (page: Page) => page.locator('.order__title .orders-status');

  /** The orders list, reached as an admin does: the dashboard's Manage tab, then its Orders card (`onManage` looks at the tab first). */
  async function openOrdersFromManage(page: Page, onManage?: () => Promise<void>): Promise<void> {
    await page.getByRole('tab', { name: 'Manage' }).click();
    await page.waitForURL(/tab=manage/);
    await onManage?.();
    await page.getByRole('list', { name: 'Admin pages' }).getByRole('link', { name: 'Orders' }).click();
    await page.waitForURL('**/admin/orders');
    await page.getByTestId('order-row').first().waitFor();
  }

  async function findOrder(page: Page, orderNumber: string): Promise<void> {
    const search = page.getByRole('search', { name: 'Order search' });
    await search.getByLabel('Search orders').fill(orderNumber);
    await search.getByRole('button', { name: 'Search' }).click();
    await expect.poll(() => page.getByTestId('order-row').count()).toBe(1);
    await page.getByRole('region', { name: 'Orders' }).getByRole('link', { name: orderNumber }).click();
    await page.getByRole('heading', { level: 1, name: `Order ${orderNumber}` }).waitFor();
  }

  it('a won order: paid in two parts (a repeated reference refused), shipped once paid, delivered; list and order pass axe at desktop and phone widths', async () => {
    const placed = await orderOf(listings.paid);
    expect(placed).toMatchObject({ status: 'AWAITING_PAYMENT', buyer: { id: payer.id, name: payer.name, email: payer.email } });
    await productCall(`/api/v1/orders/${placed.id}/shipping-address`, { method: 'PUT', body: ADDRESS, token: payer.token });

    const context = await newContext(browser, DESKTOP);
    const page = await context.newPage();
    await signInAsAdmin(page);
    await openOrdersFromManage(page);
    const row = page.getByTestId('order-row').filter({ hasText: placed.orderNumber });
    expect(await row.textContent()).toContain(titles.paid);
    expect(await row.textContent()).toContain(payer.email);
    expect(await row.textContent()).toContain('Awaiting payment');
    expect(await row.textContent()).toContain(usd.format(placed.total));
    // The server pages the list: at most 25 rows.
    expect(await page.getByTestId('order-row').count()).toBeLessThanOrEqual(25);
    await expectAccessible(page, '/admin/orders');
    await screenshot(page, 'admin-orders-desktop');

    await findOrder(page, placed.orderNumber);
    expect(await page.getByTestId('order-address').textContent()).toContain('1 Main Street');
    const invoice = page.getByRole('region', { name: 'Invoice' });
    expect(await invoice.getByRole('row', { name: /^Balance due/ }).textContent()).toContain(usd.format(placed.balance));
    // The amount is the balance, ready to record.
    expect(await field(page, 'Record a payment', 'Amount received ($)').inputValue()).toBe(placed.balance.toFixed(2));
    await expectAccessible(page, '/admin/orders/{id}, awaiting payment');
    await screenshot(page, 'admin-order-desktop');

    // Not paid yet: shipping is not offered (the engine would refuse it).
    expect(await page.getByRole('form', { name: 'Ship the order' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Mark as shipped' }).count()).toBe(0);

    // The phone: the list scrolls inside its region, the order's steps stack; nothing is wider than the screen.
    const phone = await newContext(browser, PHONE);
    const phonePage = await phone.newPage();
    await signInAsAdmin(phonePage);
    await phonePage.goto('/admin/orders');
    await phonePage.getByTestId('order-row').first().waitFor();
    expect(await phonePage.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await expectAccessible(phonePage, '/admin/orders');
    await screenshot(phonePage, 'admin-orders-phone');
    await phonePage.goto(`/admin/orders/${placed.id}`);
    await phonePage.getByRole('heading', { level: 1, name: `Order ${placed.orderNumber}` }).waitFor();
    expect(await phonePage.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    const submit = await phonePage.getByRole('button', { name: 'Record payment' }).boundingBox();
    expect(submit!.height).toBeGreaterThanOrEqual(44);
    await expectAccessible(phonePage, '/admin/orders/{id}');
    await screenshot(phonePage, 'admin-order-phone');
    await phone.close();

    // A part, then the rest (prefilled as the new balance). The date picked is today's: it is sent, as a date.
    const part = Math.round(placed.balance * 0.6);
    await field(page, 'Record a payment', 'Amount received ($)').fill(String(part));
    await field(page, 'Record a payment', "Bank's transaction reference").fill(`WIRE-${stamp}-1`);
    const sent = page.waitForRequest((request) => request.method() === 'POST' && request.url().endsWith(`/api/admin/orders/${placed.id}/payments`));
    await page.getByRole('button', { name: 'Record payment' }).click();
    const today = await field(page, 'Record a payment', 'Date received').inputValue();
    expect(today).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect((await sent).postDataJSON()).toEqual({ amount: part, reference: `WIRE-${stamp}-1`, receivedAt: today });
    await result(page).filter({ hasText: `Payment of ${usd.format(part)}` }).waitFor();
    const rest = placed.balance - part;
    expect(await result(page).textContent()).toContain(`${usd.format(rest)} still owed`);
    // Focus moved to what the step did.
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('order-result');
    expect(await field(page, 'Record a payment', 'Amount received ($)').inputValue()).toBe(rest.toFixed(2));
    expect(await statusBadge(page).textContent()).toBe('Awaiting payment');
    expect(await page.getByRole('form', { name: 'Ship the order' }).count()).toBe(0);

    // The same reference again is refused: the reason shows, the form keeps it.
    await field(page, 'Record a payment', "Bank's transaction reference").fill(`wire ${stamp} 1`);
    await page.getByRole('button', { name: 'Record payment' }).click();
    const duplicate = page.getByRole('form', { name: 'Record a payment' }).getByRole('alert');
    await duplicate.waitFor();
    expect(await duplicate.textContent()).toBe(`A payment with the reference wire ${stamp} 1 is already recorded on this order`);
    expect(await field(page, 'Record a payment', "Bank's transaction reference").inputValue()).toBe(`wire ${stamp} 1`);

    await field(page, 'Record a payment', "Bank's transaction reference").fill(`WIRE-${stamp}-2`);
    await page.getByRole('button', { name: 'Record payment' }).click();
    await result(page).filter({ hasText: 'the order is paid in full' }).waitFor();
    expect(await statusBadge(page).textContent()).toBe('Paid');
    const payments = page.getByRole('region', { name: 'Payments received' }).locator('tbody tr');
    expect(await payments.count()).toBe(2);
    expect(await payments.allTextContents()).toEqual([expect.stringContaining(`WIRE-${stamp}-1`), expect.stringContaining(`WIRE-${stamp}-2`)]);
    expect(await page.getByRole('form', { name: 'Record a payment' }).count()).toBe(0);
    expect(await page.getByRole('region', { name: 'Invoice' }).getByRole('row', { name: /^Balance due/ }).textContent()).toContain(usd.format(0));

    // Paid in full: shipping is offered now, to the buyer's address.
    await page.getByRole('form', { name: 'Ship the order' }).waitFor();
    await page.getByText('To Pat Payer, Springfield.', { exact: false }).waitFor();
    await field(page, 'Ship the order', 'Carrier').fill('UPS');
    await field(page, 'Ship the order', 'Tracking number').fill(`1Z${stamp.toUpperCase()}`);
    await expectAccessible(page, '/admin/orders/{id}, paid, to ship');
    await screenshot(page, 'admin-order-paid-desktop');
    await page.getByRole('button', { name: 'Mark as shipped' }).click();
    await result(page).filter({ hasText: `Shipped with UPS, tracking number 1Z${stamp.toUpperCase()}` }).waitFor();
    expect(await statusBadge(page).textContent()).toBe('Shipped');

    await page.getByRole('button', { name: 'Mark delivered' }).click();
    await result(page).filter({ hasText: 'Marked delivered: the sale is complete.' }).waitFor();
    expect(await statusBadge(page).textContent()).toBe('Completed');
    await page.getByText('Nothing left to do: the sale is complete.').waitFor();
    expect(await productCall<AdminOrder>(`/api/admin/orders/${placed.id}`, { token: adminToken })).toMatchObject({
      status: 'COMPLETED',
      amountPaid: placed.total,
      carrier: 'UPS',
      trackingNumber: `1Z${stamp.toUpperCase()}`,
    });
    await expectAccessible(page, '/admin/orders/{id}, completed');
    await context.close();
  }, 180_000);

  it('an unpaid order goes overdue: first in the list and marked; cancelled with a reason; offered to the runner-up', async () => {
    const overdue = await orderOf(listings.overdue, (order) => order.status === 'PAYMENT_OVERDUE');
    expect(overdue.buyer.id).toBe(lateWinner.id);
    // Counted by the server, over every order.
    const { counts } = await productCall<AdminOrdersPage>('/api/admin/orders?size=1', { token: adminToken });
    expect(counts.PAYMENT_OVERDUE).toBeGreaterThanOrEqual(1);
    const overdueCount = `${counts.PAYMENT_OVERDUE} ${counts.PAYMENT_OVERDUE === 1 ? 'order is' : 'orders are'} overdue`;

    const context = await newContext(browser, DESKTOP);
    const page = await context.newPage();
    await signInAsAdmin(page);
    await openOrdersFromManage(page, async () => {
      // The Manage tab's Orders card counts them too.
      const card = page.getByRole('list', { name: 'Admin pages' }).getByRole('listitem').filter({ has: page.getByRole('link', { name: 'Orders' }) });
      await expect.poll(() => card.getByTestId('manage-overdue-orders').textContent()).toBe(String(counts.PAYMENT_OVERDUE));
      expect(await card.textContent()).toContain(counts.PAYMENT_OVERDUE === 1 ? '1 order overdue' : `${counts.PAYMENT_OVERDUE} orders overdue`);
      await expectAccessible(page, 'Manage tab, the Orders card counting the overdue');
      await screenshot(page, 'admin-manage-orders-card-desktop');
    });
    const first = page.getByTestId('order-row').first();
    expect(await first.textContent()).toContain(overdue.orderNumber);
    expect(await first.textContent()).toContain('Payment overdue');
    expect(await first.getAttribute('class')).toContain('orders-row--overdue');
    const note = page.getByText(/orders? (is|are) overdue/);
    await note.waitFor();
    expect(await note.textContent()).toContain(overdueCount);
    await screenshot(page, 'admin-orders-overdue-desktop');

    // On a phone each order is a card: the overdue one first, marked.
    const phone = await newContext(browser, PHONE);
    const phonePage = await phone.newPage();
    await signInAsAdmin(phonePage);
    await phonePage.goto('/admin/orders');
    const firstCard = phonePage.getByTestId('order-row').first();
    await firstCard.waitFor();
    expect(await firstCard.textContent()).toContain(overdue.orderNumber);
    expect(await firstCard.getByText('Overdue', { exact: true }).isVisible()).toBe(true);
    expect(await phonePage.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    // Still a table to assistive technology: a row per order, headed by its number.
    expect(await phonePage.getByRole('row', { name: new RegExp(overdue.orderNumber) }).count()).toBe(1);
    await expectAccessible(phonePage, '/admin/orders, an overdue order');
    await screenshot(phonePage, 'admin-orders-overdue-phone');
    await phone.close();

    // Overdue only: one click, kept in the URL.
    await page.getByRole('button', { name: 'Overdue only' }).click();
    await page.waitForURL(/status=PAYMENT_OVERDUE/);
    await expect.poll(() => page.getByTestId('order-count').textContent()).toMatch(/payment overdue$/);
    for (const text of await page.getByTestId('order-row').allTextContents()) expect(text).toContain('Payment overdue');
    await page.getByRole('region', { name: 'Orders' }).getByRole('link', { name: overdue.orderNumber }).click();
    await page.getByRole('heading', { level: 1, name: `Order ${overdue.orderNumber}` }).waitFor();
    expect(await statusBadge(page).textContent()).toBe('Payment overdue');

    // Cancel: confirmed in a dialog, with a reason.
    await page.getByRole('button', { name: 'Cancel order' }).click();
    const dialog = page.getByRole('dialog', { name: 'Cancel this order?' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Cancel order' }).click();
    await dialog.getByText('A reason is required').waitFor();
    await dialog.getByLabel('Reason for cancelling').fill('Not paid within the payment window');
    await expectAccessible(page, '/admin/orders/{id}, the cancel dialog');
    await dialog.getByRole('button', { name: 'Cancel order' }).click();
    await result(page).filter({ hasText: 'The order is cancelled' }).waitFor();
    expect(await dialog.count()).toBe(0);
    expect(await statusBadge(page).textContent()).toBe('Cancelled');
    expect(await page.getByRole('region', { name: 'Cancellation and runner-up' }).textContent()).toContain('Not paid within the payment window');

    // The runner-up: their own highest bid, for 48 hours.
    await page.getByRole('button', { name: 'Offer to the runner-up' }).click();
    await result(page).filter({ hasText: 'Offered to the runner-up' }).waitFor();
    const said = (await result(page).textContent())!;
    expect(said).toContain(`Offered to the runner-up, ${runnerUp.name} (${runnerUp.email}), at`);
    expect(said).not.toContain(runnerUp.id);
    expect(said).toContain(`at ${usd.format(runnerUpBid)}`);
    expect(said).toMatch(/open until \w{3} \d{1,2}, \d{4}/);
    expect(await statusBadge(page).textContent()).toBe('Cancelled (offered to the runner-up)');
    const offer = page.getByTestId('runner-up-offer');
    expect(await offer.count()).toBe(1);
    expect(await offer.textContent()).toContain(runnerUp.name);
    expect(await offer.getByRole('link', { name: runnerUp.email }).getAttribute('href')).toBe(`mailto:${runnerUp.email}`);
    expect(await offer.textContent()).not.toContain(runnerUp.id);
    expect(await offer.textContent()).toContain('Open');
    await page.getByText('Waiting for the runner-up’s answer').waitFor();
    expect((await productCall<AdminOrder>(`/api/admin/orders/${overdue.id}`, { token: adminToken })).offers).toEqual([
      expect.objectContaining({ bidderId: runnerUp.id, bidder: { id: runnerUp.id, name: runnerUp.name, email: runnerUp.email }, amount: runnerUpBid, outcome: 'OPEN' }),
    ]);
    await expectAccessible(page, '/admin/orders/{id}, offered to the runner-up');
    await screenshot(page, 'admin-order-offered-desktop');
    await context.close();
  }, 180_000);

  it('a cancelled order is relisted, after confirming: the listing is back to NFC bound, to publish again from Manage', async () => {
    const placed = await orderOf(listings.relisted);
    const cancelled = await productRequest<AdminOrder>(`/api/admin/orders/${placed.id}/cancel`, { body: { reason: 'The buyer withdrew' }, token: adminToken });
    expect(cancelled.status).toBe(200);

    const context = await newContext(browser, PHONE);
    const page = await context.newPage();
    await signInAsAdmin(page);
    await openOrdersFromManage(page);
    await findOrder(page, placed.orderNumber);
    await page.getByRole('button', { name: 'Relist item' }).click();
    const dialog = page.getByRole('dialog', { name: 'Relist this item?' });
    await dialog.getByRole('button', { name: 'Relist item' }).click();
    await result(page).filter({ hasText: 'The listing is back to NFC bound' }).waitFor();
    expect(await result(page).textContent()).toContain('it can be published again from Manage');
    expect(await page.getByRole('button', { name: 'Offer to the runner-up' }).count()).toBe(0);
    expect(await productCall<{ status: string }>(`/api/admin/listings/${listings.relisted}`, { token: adminToken })).toMatchObject({ status: 'NFC_BOUND' });
    await expectAccessible(page, '/admin/orders/{id}, relisted');
    await screenshot(page, 'admin-order-relisted-phone');

    // Manage shows it among the listings ready to publish.
    await result(page).getByRole('link', { name: 'Open Manage' }).click();
    await page.waitForURL(/tab=manage.*status=NFC_BOUND/);
    await page.getByRole('region', { name: 'Listings' }).getByText(titles.relisted).waitFor();
    await context.close();
  }, 120_000);
});

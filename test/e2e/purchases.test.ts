import { readFile } from 'node:fs/promises';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Order, Orders, SecondChanceOfferAnswer } from '../../api/contracts/orders';
import { publishListings } from './admin-api';
import { ARTIFACTS, DESKTOP, expectAccessible, launchBrowser, newContext, PHONE, productCall, productRequest, registerBuyer, screenshot, signInAsAdmin, signInOnLoginPage, type RegisteredBuyer } from './browser';

/**
 * After the hammer, in the browser, on the product as a newcomer runs it: a buyer wins a lot that
 * closes within seconds, finds it under My purchases, reads the invoice and the bank details, gives
 * an address (a wrong postal code first), downloads the PDF, prints; the admin, in their own browser,
 * records the transfer and enters the tracking number; the buyer sees the tracking and says "I
 * received it"; the item's chain of custody tells it without a word of the buyer's. Then a cancelled
 * sale offered to the runner-up, who accepts it from the page their notice opens.
 */


/** The order the lifecycle places for `listingId` once its auction closes SOLD to the account. */
async function orderFor(account: RegisteredBuyer, listingId: string): Promise<Order> {
  let order: Order | undefined;
  await expect
    .poll(
      async () => {
        order = (await productCall<Orders>('/api/v1/users/me/orders', { token: account.accessToken })).content.find((candidate) => candidate.listingId === listingId);
        return order !== undefined;
      },
      { timeout: 60_000, interval: 1_000 },
    )
    .toBe(true);
  return order!;
}

const ADDRESS = { name: 'Jordan Buyer', line1: '1 Main Street', city: 'Springfield', region: 'IL', postalCode: '62701' };

describe('purchases: the order of a won lot, and a second-chance offer', () => {
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  const stamp = Date.now().toString(36);
  const titles = [`Purchases jersey ${stamp}`, `Second chance bat ${stamp}`];
  let lots: Array<{ id: string; auctionId: string }>;
  let adminToken: string;
  let buyer: RegisteredBuyer;
  let winner: RegisteredBuyer;
  let runnerUp: RegisteredBuyer;

  beforeAll(async () => {
    browser = await launchBrowser();
    // Two lots closing together, 25 s from now: one the buyer wins, one whose winner will not pay.
    const published = await publishListings(2, (index) => titles[index]!, { endsAt: new Date(Date.now() + 25_000).toISOString(), softClose: null });
    adminToken = published.token;
    lots = await Promise.all(published.ids.map(async (id) => ({ id, auctionId: (await productCall<{ auctionId: string }>(`/api/public/listings/${id}`)).auctionId })));
    [buyer, winner, runnerUp] = await Promise.all([registerBuyer('Jordan'), registerBuyer('Winnie'), registerBuyer('Rene')]);
    await productCall('/api/bids', { token: buyer.accessToken, body: { auctionId: lots[0]!.auctionId, amount: 150 } });
    await productCall('/api/bids', { token: runnerUp.accessToken, body: { auctionId: lots[1]!.auctionId, amount: 150 } });
    await productCall('/api/bids', { token: winner.accessToken, body: { auctionId: lots[1]!.auctionId, amount: 170 } });
  });
  afterAll(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
  });

  async function signedIn(account: RegisteredBuyer, viewport = DESKTOP): Promise<Page> {
    const context = await newContext(browser, viewport);
    contexts.push(context);
    const page = await context.newPage();
    await signInOnLoginPage(page, account);
    return page;
  }

  /** The text of the error the field `control` is described by. */
  async function fieldError(page: Page, label: string): Promise<string | null> {
    const control = page.getByRole('form', { name: 'Shipping address' }).getByLabel(label, { exact: true });
    const ids = (await control.getAttribute('aria-describedby')) ?? '';
    const errorId = ids.split(' ').find((id) => id.endsWith('-error'));
    return errorId ? page.locator(`[id="${errorId}"]`).textContent() : null;
  }

  it('wins a lot, finds it under My purchases, gives an address, downloads the invoice, is paid and shipped, and confirms receipt', { timeout: 240_000 }, async () => {
    const order = await orderFor(buyer, lots[0]!.id);
    // EQUIPMENT ships for $45 by default; the premium is 20% by default.
    expect(order).toMatchObject({ status: 'AWAITING_PAYMENT', hammerPrice: 150, buyersPremium: 30, shipping: 45, total: 225, actions: { setShippingAddress: true } });

    // The dashboard's My purchases tab.
    const page = await signedIn(buyer);
    await page.getByRole('tab', { name: 'My purchases' }).click();
    await page.waitForURL('**/dashboard?tab=purchases');
    const item = page.getByTestId('purchase');
    await item.getByRole('heading', { name: titles[0] }).waitFor();
    expect(await item.textContent()).toMatch(/Awaiting payment[\s\S]*\$225\.00/);
    expect(await item.textContent()).toContain('Pay $225.00 by');
    expect(await item.textContent()).toContain('and enter your shipping address');
    await expectAccessible(page, 'dashboard, My purchases');
    await screenshot(page, 'purchases-dashboard-desktop');

    const phone = await signedIn(buyer, PHONE);
    await phone.goto('/dashboard?tab=purchases');
    await phone.getByTestId('purchase').getByRole('heading', { name: titles[0] }).waitFor();
    await expectAccessible(phone, 'dashboard, My purchases');
    await screenshot(phone, 'purchases-dashboard-phone');

    // The order page: the invoice's lines and the bank's details.
    await item.getByRole('link', { name: 'How to pay' }).click();
    await page.waitForURL(`**/purchases/${order.id}`);
    const invoice = page.getByRole('region', { name: `Invoice ${order.orderNumber}` });
    await invoice.waitFor();
    const line = async (label: string) => (await invoice.getByRole('row', { name: label }).textContent())?.replace(label, '');
    expect(await line('Hammer price')).toBe('$150.00');
    expect(await line("Buyer's premium (20%)")).toBe('$30.00');
    expect(await line('Shipping (insured, tracked)')).toBe('$45.00');
    expect(await line('Total')).toBe('$225.00');
    expect(await line('Balance due')).toBe('$225.00');
    expect(await invoice.textContent()).toContain('Prices exclude sales tax, VAT and import duties');
    const howToPay = page.getByRole('region', { name: 'How to pay' });
    const payText = (await howToPay.textContent()) ?? '';
    for (const expected of ['Pay by', 'Account number', '000000000000', 'Routing number (ABA)', order.orderNumber, '$225.00']) expect(payText).toContain(expected);
    await expectAccessible(page, 'order page, no address yet');
    await screenshot(page, 'purchase-order-desktop');
    await phone.goto(`/purchases/${order.id}`);
    await phone.getByRole('region', { name: `Invoice ${order.orderNumber}` }).waitFor();
    await expectAccessible(phone, 'order page, no address yet');
    await screenshot(phone, 'purchase-order-phone');

    // The address: a postal code the US post would not take, said beside the field, which takes focus.
    const form = page.getByRole('form', { name: 'Shipping address' });
    await form.getByLabel('Country').selectOption('US');
    await form.getByLabel('Full name').fill(ADDRESS.name);
    await form.getByLabel('Street address').fill(ADDRESS.line1);
    await form.getByLabel('City').fill(ADDRESS.city);
    await form.getByLabel('State, province or region').fill(ADDRESS.region);
    await form.getByLabel('Postal code').fill('6270');
    await form.getByRole('button', { name: 'Save address' }).click();
    await expect.poll(() => fieldError(page, 'Postal code')).toBe('Enter a postal code like 10001 or 10001-1234');
    expect(await form.getByLabel('Postal code').getAttribute('aria-invalid')).toBe('true');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('autocomplete'))).toBe('postal-code');
    await screenshot(page, 'purchase-order-address-error-desktop');

    await form.getByLabel('Postal code').fill(ADDRESS.postalCode);
    await form.getByRole('button', { name: 'Save address' }).click();
    await page.getByText('Shipping address saved.').waitFor();
    const saved = page.getByTestId('shipping-address');
    expect(await saved.textContent()).toContain('Springfield, IL, 62701');
    expect(await saved.textContent()).toContain('United States');
    // Focus lands on the section that changed.
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Shipping address');
    expect((await productCall<Order>(`/api/v1/orders/${order.id}`, { token: buyer.accessToken })).shippingAddress).toMatchObject({ ...ADDRESS, country: 'US', line2: null });
    await expectAccessible(page, 'order page, address saved');
    await screenshot(page, 'purchase-order-address-saved-desktop');
    await phone.reload();
    await phone.getByTestId('shipping-address').waitFor();
    await expectAccessible(phone, 'order page, address saved');
    await screenshot(phone, 'purchase-order-address-saved-phone');
    // The status tints and the timeline hold their contrast on the dark theme too.
    await phone.evaluate(() => (document.documentElement.dataset.theme = 'dark'));
    await expectAccessible(phone, 'order page, dark theme');
    await screenshot(phone, 'purchase-order-dark-phone');
    await phone.evaluate(() => (document.documentElement.dataset.theme = 'light'));

    // On paper: the invoice alone, no site header, no buttons. At an A4 page's width (96 dpi).
    await page.setViewportSize({ width: 794, height: 1123 });
    await page.emulateMedia({ media: 'print' });
    expect(await page.locator('header.header').isVisible()).toBe(false);
    expect(await page.getByRole('button', { name: 'Print invoice' }).isVisible()).toBe(false);
    expect(await invoice.isVisible()).toBe(true);
    await screenshot(page, 'purchase-order-print');
    // As printed, page margins and all: on Letter and on A4 (for people to look at, beside the screenshots).
    for (const format of ['Letter', 'A4'] as const) await page.pdf({ path: new URL(`purchase-order-print-${format.toLowerCase()}.pdf`, ARTIFACTS).pathname, format });
    await page.emulateMedia({ media: 'screen' });
    await page.setViewportSize(DESKTOP);

    // The PDF, through the button (the download carries the bearer token).
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download PDF' }).click()]);
    expect(download.suggestedFilename()).toBe(`invoice-${order.orderNumber}.pdf`);
    const pdf = await readFile((await download.path())!);
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');

    // The admin, in a browser of their own, records the transfer and enters the tracking number.
    const adminContext = await newContext(browser, DESKTOP);
    contexts.push(adminContext);
    const admin = await adminContext.newPage();
    await signInAsAdmin(admin);
    await admin.goto(`/admin/orders/${order.id}`);
    await admin.getByRole('heading', { level: 1, name: `Order ${order.orderNumber}` }).waitFor();
    const adminField = (form: string, label: string) => admin.getByRole('form', { name: form }).getByLabel(label, { exact: true });
    expect(await adminField('Record a payment', 'Amount received ($)').inputValue()).toBe('225.00');
    await adminField('Record a payment', "Bank's transaction reference").fill('FEDWIRE-20261126-0042');
    await admin.getByRole('button', { name: 'Record payment' }).click();
    await admin.getByRole('form', { name: 'Ship the order' }).waitFor();
    await adminField('Ship the order', 'Carrier').fill('UPS');
    await adminField('Ship the order', 'Tracking number').fill('1Z999AA10123456784');
    await admin.getByRole('button', { name: 'Mark as shipped' }).click();
    await admin.getByTestId('order-result').filter({ hasText: 'Shipped with UPS, tracking number 1Z999AA10123456784' }).waitFor();

    await page.reload();
    const shipment = page.getByRole('region', { name: 'Shipment' });
    await shipment.waitFor();
    const shipmentText = (await shipment.textContent()) ?? '';
    expect(shipmentText).toContain('UPS');
    expect(shipmentText).toContain('1Z999AA10123456784');
    expect(shipmentText).toContain('Shipped');
    expect(await page.getByRole('region', { name: 'How to pay' }).count()).toBe(0);
    expect(await line('Balance due')).toBe('$0.00');
    expect(await invoice.textContent()).toContain('FEDWIRE-20261126-0042');
    await screenshot(page, 'purchase-order-shipped-desktop');
    await phone.reload();
    await phone.getByRole('region', { name: 'Shipment' }).waitFor();
    await screenshot(phone, 'purchase-order-shipped-phone');

    await shipment.getByRole('button', { name: 'I received it' }).click();
    await page.getByText('Thank you: the order is marked received, and the sale is complete.').waitFor();
    expect(await shipment.textContent()).toContain('Completed');
    expect(await page.locator('.purchase-head').textContent()).toContain('Completed');
    expect((await productCall<Order>(`/api/v1/orders/${order.id}`, { token: buyer.accessToken })).status).toBe('COMPLETED');
    await expectAccessible(page, 'order page, completed');
    await screenshot(page, 'purchase-order-completed-desktop');

    // The item's chain of custody (what its NFC tag opens) tells the hand-over, and nothing of the buyer's.
    const anonymous = await (await newContext(browser, PHONE)).newPage();
    contexts.push(anonymous.context());
    const custody = await productCall<{ history: Array<{ summary: string }> }>(`/api/public/nfc/${order.listing.nfcUid}`);
    expect(custody.history.map((entry) => entry.summary).slice(-4)).toEqual([
      'Paid in full',
      'Shipped to the buyer with UPS',
      'Delivered: the buyer confirmed receipt',
      'Sale completed: the item is in its new owner’s hands',
    ]);
    await anonymous.goto(`/marketplace/listing/${order.listingId}`);
    const story = anonymous.getByRole('region', { name: /chain of custody/i });
    await story.getByText('Shipped to the buyer with UPS').waitFor();
    const storyText = (await story.textContent()) ?? '';
    for (const secret of [ADDRESS.name, ADDRESS.line1, '1Z999AA10123456784', buyer.email]) expect(storyText).not.toContain(secret);
    await expectAccessible(anonymous, 'listing page, chain of custody after delivery');
    await screenshot(anonymous, 'purchase-custody-phone');
    // The buyer, signed in, sees their own steps: the tracking number and the way to their order.
    await page.goto(`/marketplace/listing/${order.listingId}`);
    const theirs = page.getByRole('region', { name: /chain of custody/i });
    await theirs.getByText('Your purchase: UPS tracking 1Z999AA10123456784').waitFor();
    expect(await theirs.getByRole('link', { name: 'See your order' }).first().getAttribute('href')).toBe(`/purchases/${order.id}`);
    await expectAccessible(page, 'listing page, chain of custody seen by its buyer');
  });

  it('offers a cancelled sale to the runner-up, who opens the offer, accepts it and lands on their own order', { timeout: 180_000 }, async () => {
    const original = await orderFor(winner, lots[1]!.id);
    await productCall(`/api/admin/orders/${original.id}/cancel`, { token: adminToken, body: { reason: 'Not paid within the window' } });
    const offered = await productRequest<SecondChanceOfferAnswer>(`/api/admin/orders/${original.id}/second-chance`, { token: adminToken, method: 'POST' });
    expect(offered.status).toBe(201);
    const offer = offered.body;
    expect(offer.amount).toBe(150);

    const desktop = await signedIn(runnerUp);
    await desktop.goto(`/second-chance/${offer.offerId}`);
    await desktop.getByRole('heading', { name: titles[1] }).waitFor();
    const text = (await desktop.getByRole('main').textContent()) ?? '';
    expect(text).toContain('$150.00');
    // The whole cost before accepting: the price, the premium on it, shipping and the total.
    expect(text).toContain('Buyer’s premium (20%)$30.00');
    expect(text).toMatch(/Total\$\d[\d,]*\.\d\d/);
    expect(text).toContain('Offer open until');
    await expectAccessible(desktop, 'second-chance offer');
    await screenshot(desktop, 'second-chance-desktop');

    const phone = await signedIn(runnerUp, PHONE);
    await phone.goto(`/second-chance/${offer.offerId}`);
    await phone.getByRole('heading', { name: titles[1] }).waitFor();
    await expectAccessible(phone, 'second-chance offer');
    await screenshot(phone, 'second-chance-phone');

    await phone.getByRole('button', { name: /^Accept for \$\d[\d,]*\.\d\d in all$/ }).click();
    await phone.waitForURL(/\/purchases\/[0-9a-f-]{36}$/);
    const mine = (await productCall<Orders>('/api/v1/users/me/orders', { token: runnerUp.accessToken })).content.find((candidate) => candidate.listingId === lots[1]!.id)!;
    expect(phone.url()).toContain(`/purchases/${mine.id}`);
    const invoice = phone.getByRole('region', { name: `Invoice ${mine.orderNumber}` });
    await invoice.waitFor();
    expect(await invoice.textContent()).toContain('(second-chance offer)');
    expect(await invoice.getByRole('row', { name: 'Hammer price' }).textContent()).toContain('$150.00');
    await screenshot(phone, 'second-chance-accepted-order-phone');

    // The offer, answered: said plainly, with the way to the order.
    await desktop.reload();
    await desktop.getByText('You accepted this offer').waitFor();
    expect(await desktop.getByRole('button', { name: /Accept/ }).count()).toBe(0);
    await desktop.getByRole('link', { name: 'View your order' }).click();
    await desktop.waitForURL(`**/purchases/${mine.id}`);

    // The first winner's order is not theirs to see: said plainly, nothing to retry.
    await desktop.goto(`/purchases/${original.id}`);
    await desktop.getByRole('heading', { name: 'Order not found' }).waitFor();
    expect(await desktop.getByRole('button', { name: 'Try Again' }).count()).toBe(0);
  });
});

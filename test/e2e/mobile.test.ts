import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { savedListingWithBindingLink } from './admin-api';
import { DESKTOP, expectAccessible, launchBrowser, newContext, PHONE, screenshot } from './browser';

/** The page the admin's QR code opens on a phone: signed out, the link's token is the permission. */


/** The QR code's link as a path on the product under test. */
function pathOf(url: string): string {
  const { pathname, search } = new URL(url);
  return `${pathname}${search}`;
}

const uniqueTitle = (what: string) => `${what} ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

describe('/mobile: binding an NFC tag from a phone', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => browser?.close());

  it('shows the listing, binds a typed UID, and calls the link used when opened again', async () => {
    const title = uniqueTitle('Phone-tagged bat');
    const link = await savedListingWithBindingLink(title);
    const context = await newContext(browser, PHONE);
    const page = await context.newPage();
    await page.goto(pathOf(link.url));

    await page.getByRole('heading', { name: 'Bind an NFC tag', level: 1 }).waitFor();
    await page.getByRole('heading', { name: title }).waitFor();
    // Headless desktop Chromium has no Web NFC: the tag is typed.
    expect(await page.getByRole('button', { name: 'Scan tag' }).count()).toBe(0);
    await page.getByText('This browser cannot scan NFC tags').waitFor();
    await expectAccessible(page, '/mobile, ready');
    await screenshot(page, 'mobile-phone');

    const form = page.getByRole('form', { name: 'Bind a typed tag' });
    const uidField = form.getByLabel('Tag UID');
    await uidField.fill('04a2');
    await form.getByRole('button', { name: 'Bind tag' }).click();
    await form.getByText('Please enter a valid NFC UID').waitFor();
    await expectAccessible(page, '/mobile, a refused UID');

    // Typed as a reader prints it: lower case, no separators; shown as upper-case colon pairs.
    await uidField.fill('');
    await uidField.pressSequentially(link.uid.replace(/:/g, '').toLowerCase());
    expect(await uidField.inputValue()).toBe(link.uid);
    await form.getByRole('button', { name: 'Bind tag' }).click();

    await page.getByRole('heading', { name: 'Tag bound' }).waitFor();
    await page.getByText(`Tag ${link.uid} is now bound to ${title}.`).waitFor();
    await expectAccessible(page, '/mobile, bound');
    await screenshot(page, 'mobile-phone-bound');

    await page.goto(pathOf(link.url));
    await page.getByRole('heading', { name: 'This link has already been used' }).waitFor();
    await expectAccessible(page, '/mobile, a used link');
    await context.close();
  });

  it('calls a made-up token and a missing token wrong', async () => {
    const context = await newContext(browser, PHONE);
    const page = await context.newPage();
    for (const path of ['/mobile?token=made-up-token', '/mobile']) {
      await page.goto(path);
      await page.getByRole('heading', { name: 'This link is not valid' }).waitFor();
    }
    await expectAccessible(page, '/mobile, a wrong link');
    await screenshot(page, 'mobile-phone-wrong');
    await context.close();
  });

  it('at desktop width too: binds by the claim code, typed in lower case', async () => {
    const title = uniqueTitle('Claim-coded cap');
    const link = await savedListingWithBindingLink(title);
    const context = await newContext(browser, DESKTOP);
    const page = await context.newPage();
    await page.goto(pathOf(link.url));
    await page.getByRole('heading', { name: title }).waitFor();
    await expectAccessible(page, '/mobile, ready');

    const form = page.getByRole('form', { name: 'Bind a typed tag' });
    await form.getByRole('radio', { name: 'Claim code' }).check();
    const codeField = form.getByRole('textbox', { name: 'Tag claim code' });
    await codeField.pressSequentially(link.claimCode.toLowerCase());
    expect(await codeField.inputValue()).toBe(link.claimCode);
    await form.getByRole('button', { name: 'Bind tag' }).click();
    await page.getByText(`Tag ${link.uid} is now bound to ${title}.`).waitFor();
    await context.close();
  });

  it('with Web NFC (Chrome on Android): a refused permission is explained, and the next scan binds the tag it reads', async () => {
    const title = uniqueTitle('Scanned glove');
    const link = await savedListingWithBindingLink(title);
    const context = await newContext(browser, PHONE);
    // NDEFReader as Chrome on Android has it: the first scan is refused permission, the next reads the tag.
    await context.addInitScript((serialNumber: string) => {
      let scans = 0;
      class FakeNdefReader extends EventTarget {
        async scan(): Promise<void> {
          scans += 1;
          if (scans === 1) throw new DOMException('NFC permission request denied.', 'NotAllowedError');
          setTimeout(() => this.dispatchEvent(Object.assign(new Event('reading'), { serialNumber })), 200);
        }
      }
      Object.assign(window, { NDEFReader: FakeNdefReader });
    }, link.uid.toLowerCase());
    const page = await context.newPage();
    await page.goto(pathOf(link.url));
    await page.getByRole('heading', { name: title }).waitFor();
    await page.getByRole('heading', { name: 'Or type the tag' }).waitFor();

    await page.getByRole('button', { name: 'Scan tag' }).click();
    await page.getByRole('alert').getByText(/^NFC permission was refused/).waitFor();
    await expectAccessible(page, '/mobile, NFC permission refused');
    await screenshot(page, 'mobile-phone-nfc');

    await page.getByRole('button', { name: 'Scan tag' }).click();
    await page.getByText(`Tag ${link.uid} is now bound to ${title}.`).waitFor();
    await context.close();
  });
});

import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newContext, productUrl } from './browser';

describe('the product as npm start serves it', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => browser?.close());

  it('serves the app on the API port: / and unknown paths land on /marketplace', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto('/');
    await page.waitForURL('**/marketplace');
    await page.goto('/no/such/page');
    await page.waitForURL('**/marketplace');
    await page.getByRole('link', { name: 'Provenance marketplace' }).waitFor();
    const health = await fetch(`${productUrl()}/health`);
    expect(await health.json()).toEqual({ status: 'ok' });
    await context.close();
  });

  it('keeps the chosen theme across a reload, stored under "theme"', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto('/marketplace');
    const before = await page.evaluate(() => document.documentElement.dataset.theme);
    await page.getByTestId('theme-toggle').click();
    const chosen = before === 'dark' ? 'light' : 'dark';
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe(chosen);
    expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe(chosen);
    await page.reload();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe(chosen);
    await context.close();
  });
});

import { mkdir } from 'node:fs/promises';
import { AxeBuilder } from '@axe-core/playwright';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterEach, expect, inject } from 'vitest';
import { CHROMIUM_FLAGS } from '../../scripts/chromium';

/** Screenshots land here for people to look at (git ignores it). */
export const ARTIFACTS = new URL('./artifacts/', import.meta.url);

export const productUrl = () => inject('productUrl');
export const demoAccounts = () => inject('demoAccounts');

export function launchBrowser(): Promise<Browser> {
  // Where test/vitest.config.ts found Chromium.
  return chromium.launch({ executablePath: inject('chromiumPath'), args: CHROMIUM_FLAGS, headless: true });
}

export const DESKTOP = { width: 1440, height: 900 };
export const PHONE = { width: 375, height: 812 };

/** What the product's Content-Security-Policy refused in this file's pages since the last test ended. */
const cspViolations: string[] = [];

// Every test fails on a refusal: the policy and the app must agree (api/http/security-headers.ts).
afterEach(() => {
  expect(cspViolations.splice(0), 'Content-Security-Policy violations').toEqual([]);
});

/**
 * A fresh, separate browser profile (its own storage) on the product. Its pages report every
 * Content-Security-Policy violation (the console's refusals and the securitypolicyviolation event).
 */
export async function newContext(browser: Browser, viewport = DESKTOP): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL: productUrl(), viewport });
  await context.addInitScript(() =>
    document.addEventListener('securitypolicyviolation', (event) =>
      console.error(`Content Security Policy violation: ${event.violatedDirective} refused ${event.blockedURI} at ${event.sourceFile}:${event.lineNumber}`),
    ),
  );
  context.on('console', (message) => {
    if (message.type() === 'error' && message.text().includes('Content Security Policy')) cspViolations.push(`${message.page()?.url()}: ${message.text()}`);
  });
  return context;
}

export async function screenshot(page: Page, name: string): Promise<string> {
  await mkdir(ARTIFACTS, { recursive: true });
  // Lazy images load only once scrolled near: walk the page, then wait for every image to settle.
  await page.evaluate(async () => {
    for (let y = 0; y < document.body.scrollHeight; y += window.innerHeight / 2) {
      window.scrollTo(0, y);
      await new Promise((resolve) => requestAnimationFrame(resolve));
    }
    window.scrollTo(0, 0);
    const settled = (image: HTMLImageElement) =>
      new Promise((resolve) => {
        image.addEventListener('load', resolve, { once: true });
        image.addEventListener('error', resolve, { once: true });
      });
    const pending = [...document.images].filter((image) => !image.complete).map(settled);
    await Promise.race([Promise.all(pending), new Promise((resolve) => setTimeout(resolve, 5000))]);
  });
  const path = new URL(`${name}.png`, ARTIFACTS).pathname;
  await page.screenshot({ path, fullPage: true });
  return path;
}

/** The rules a screen is held to: WCAG 2.0, 2.1 and 2.2, levels A and AA. */
const WCAG_22_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/**
 * What axe-core finds wrong with the page as it stands, one line per rule and element, so that a
 * failing test says what to fix. Empty when the page passes.
 */
export async function accessibilityViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(WCAG_22_AA).analyze();
  return results.violations.flatMap((violation) =>
    violation.nodes.map((node) => `${violation.id} (${violation.impact}): ${violation.help} at ${node.target.join(' ')}`),
  );
}

/** Fails with every axe-core finding on the page as it stands, scanned from the top of the page. */
export async function expectAccessible(page: Page, screen: string): Promise<void> {
  // A click scrolls its button into view, which may leave others under the sticky site header.
  await page.evaluate(() => window.scrollTo(0, 0));
  expect(await accessibilityViolations(page), `${screen} at ${page.viewportSize()?.width} px`).toEqual([]);
}

/** A buyer, signed in through /login, on the dashboard. */
export async function signInOnLoginPage(page: Page, account: { email: string; password: string }): Promise<void> {
  await page.goto('/login');
  const form = page.getByRole('form', { name: 'Sign in form' });
  await form.getByLabel('Email').fill(account.email);
  await form.getByLabel('Password', { exact: true }).fill(account.password);
  await form.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL('**/dashboard');
}

/** The demo admin, signed in through /admin/login, on the dashboard. */
export async function signInAsAdmin(page: Page): Promise<void> {
  await page.goto('/admin/login');
  const { email, password } = demoAccounts().admin;
  const form = page.getByRole('main');
  await form.getByLabel('Email').fill(email);
  await form.getByLabel('Password', { exact: true }).fill(password);
  await form.getByRole('button', { name: /sign in/i }).click();
  await page.waitForURL('**/admin/dashboard');
}

/** A JSON call to the product under test (GET, or POST with a body unless `method` says otherwise): its status and parsed body. */
export async function productRequest<T>(path: string, init: { body?: unknown; token?: string; method?: string } = {}): Promise<{ status: number; body: T }> {
  const response = await fetch(`${productUrl()}${path}`, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers: {
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
    },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : undefined) as T };
}

/** productRequest for a call that must succeed: its body; throws on any refusal. */
export async function productCall<T>(path: string, init: { body?: unknown; token?: string; method?: 'PUT' } = {}): Promise<T> {
  const { status, body } = await productRequest<T>(path, init);
  if (status < 200 || status >= 300) throw new Error(`${path}: ${status} ${JSON.stringify(body)}`);
  return body;
}

/** A buyer signed up through the product's own registration: what signing in and calling the API need. */
export interface RegisteredBuyer {
  readonly email: string;
  readonly password: string;
  readonly accessToken: string;
}

let registered = 0;

/** Signs a new buyer up through POST /api/auth/register, under an address no other run uses. */
export async function registerBuyer(firstName: string, lastName = 'Buyer'): Promise<RegisteredBuyer> {
  registered += 1;
  const email = `${firstName.toLowerCase()}-${Date.now().toString(36)}-${registered}@example.com`;
  const password = 'Collect0r!pass';
  const { status, body } = await productRequest<{ accessToken: string }>('/api/auth/register', { body: { firstName, lastName, email, password } });
  if (status !== 201) throw new Error(`register ${email}: ${status} ${JSON.stringify(body)}`);
  return { email, password, accessToken: body.accessToken };
}

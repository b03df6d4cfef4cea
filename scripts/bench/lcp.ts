/**
 * Largest Contentful Paint of a page in headless Chromium (playwright-core), as a first-time
 * visitor sees it: each load in a fresh browser context with the HTTP cache disabled, the browser's
 * own PerformanceObserver reporting, the median of several loads taken. And its baseline: a static
 * page holding only the same image, served from this process, measured the same way.
 *
 * Alone: `tsx scripts/bench/lcp.ts http://127.0.0.1:3000/marketplace` against a running product.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { CHROMIUM_FLAGS } from '../chromium';
import { median } from './figures';

export interface LcpOptions {
  /** Loads measured, after one load that warms the server (default 7). */
  readonly loads?: number;
  readonly viewport?: { readonly width: number; readonly height: number };
  /** Default CHROMIUM_PATH, else /usr/bin/chromium. */
  readonly executablePath?: string;
}

export interface LcpMeasurement {
  readonly medianMs: number;
  readonly loadsMs: readonly number[];
  /** The largest contentful element of the last load: its tag, its image's URL if any, its painted size. */
  readonly element: { readonly tag: string; readonly imageUrl: string | null; readonly width: number; readonly height: number };
}

interface LcpEntry {
  readonly ms: number;
  readonly tag: string;
  readonly imageUrl: string;
  readonly width: number;
  readonly height: number;
}

/**
 * Run in the page (as text: this project's Node typecheck knows no DOM). Every entry is kept; the
 * last one reported is the largest contentful paint.
 */
const OBSERVE_LARGEST_PAINTS = `
  window.largestPaints = [];
  new PerformanceObserver((list) => window.largestPaints.push(...list.getEntries()))
    .observe({ type: 'largest-contentful-paint', buffered: true });`;

/** An entry is reported after the frame that painted it: one more frame passes before it is read. */
const READ_LARGEST_PAINT = `(async () => {
  await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 100)));
  const largest = window.largestPaints.at(-1);
  if (!largest) throw new Error('no largest-contentful-paint entry on ' + location.href);
  const box = largest.element?.getBoundingClientRect();
  return {
    ms: largest.startTime,
    tag: largest.element?.tagName.toLowerCase() ?? '?',
    imageUrl: largest.url,
    width: Math.round(box?.width ?? 0),
    height: Math.round(box?.height ?? 0),
  };
})()`;

/** The median LCP of `url` in milliseconds from navigation start. */
export async function measureLcp(url: string, options: LcpOptions = {}): Promise<number> {
  return (await measureLcpInDetail(url, options)).medianMs;
}

export async function measureLcpInDetail(url: string, options: LcpOptions = {}): Promise<LcpMeasurement> {
  const browser = await chromium.launch({
    executablePath: options.executablePath ?? process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: CHROMIUM_FLAGS,
    headless: true,
  });
  try {
    await loadOnce(browser, url, options);
    const entries: LcpEntry[] = [];
    for (let load = 0; load < (options.loads ?? 7); load++) entries.push(await loadOnce(browser, url, options));
    const last = entries.at(-1)!;
    return {
      medianMs: Math.round(median(entries.map((entry) => entry.ms))),
      loadsMs: entries.map((entry) => Math.round(entry.ms)),
      element: { tag: last.tag, imageUrl: last.imageUrl || null, width: last.width, height: last.height },
    };
  } finally {
    await browser.close();
  }
}

async function loadOnce(browser: Browser, url: string, options: LcpOptions): Promise<LcpEntry> {
  const context = await browser.newContext({ viewport: options.viewport ?? { width: 1440, height: 900 } });
  try {
    const page = await context.newPage();
    const devtools = await context.newCDPSession(page);
    await devtools.send('Network.setCacheDisabled', { cacheDisabled: true });
    await page.addInitScript({ content: OBSERVE_LARGEST_PAINTS });
    await page.goto(url, { waitUntil: 'networkidle' });
    return await page.evaluate<LcpEntry>(READ_LARGEST_PAINT);
  } finally {
    await context.close();
  }
}

/**
 * The baseline page: only `<img>` of the image at `imageUrl` at the given size, page and image
 * both served by a bare node:http server in this process. Close it when done.
 */
export async function staticPageWithSameImage(
  imageUrl: string,
  size: { readonly width: number; readonly height: number },
): Promise<{ readonly url: string; close(): Promise<void> }> {
  const answer = await fetch(imageUrl);
  if (!answer.ok) throw new Error(`GET ${imageUrl}: ${answer.status}`);
  const image = Buffer.from(await answer.arrayBuffer());
  const imageType = answer.headers.get('content-type') ?? 'image/jpeg';
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Same image</title></head>
<body><img src="/image" alt="" width="${size.width}" height="${size.height}"></body></html>`;
  const server = createServer((request, response) => {
    if (request.url === '/image') response.writeHead(200, { 'content-type': imageType, 'content-length': image.length }).end(image);
    else response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const url = process.argv[2];
  if (!url) throw new Error('usage: tsx scripts/bench/lcp.ts <url of a page, e.g. http://127.0.0.1:3000/marketplace>');
  const product = await measureLcpInDetail(url);
  console.log(`${url}: LCP median ${product.medianMs} ms, loads ${product.loadsMs.join(', ')}; largest: <${product.element.tag}> ${product.element.imageUrl ?? ''} ${product.element.width}x${product.element.height}`);
  if (product.element.imageUrl) {
    const baseline = await staticPageWithSameImage(product.element.imageUrl, product.element);
    try {
      const same = await measureLcpInDetail(baseline.url);
      console.log(`static page with the same image: LCP median ${same.medianMs} ms, loads ${same.loadsMs.join(', ')}; ratio ${(product.medianMs / same.medianMs).toFixed(2)}`);
    } finally {
      await baseline.close();
    }
  }
}

/**
 * Section `lcp` of `npm run bench`: the marketplace's Largest Contentful Paint in headless Chromium
 * (lcp.ts), as a first-time visitor gets it from a real server on localhost, against a static page
 * holding only the same image, measured the same way in the same trial.
 *
 * The server is the product as `npm start` runs it: the web app built (skipped when up to date),
 * on a fresh PostgreSQL database stocked by `npm run seed` (the demo marketplace: 10 listings with
 * photos and live auctions). Each side's figure is the median of BENCH_LCP_LOADS loads (default 7).
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Page } from '../../api/contracts/common';
import type { Listing } from '../../api/contracts/listings';
import type { Figure, Trial } from './figures';
import { measureLcpInDetail, staticPageWithSameImage, type LcpMeasurement } from './lcp';
import { ApiClient, inFreshDeployment, startProductServer, type DeploymentSettings, type ServerBenchOptions } from './server-harness';
import { positiveNumber } from './settings';

const LOADS = positiveNumber('BENCH_LCP_LOADS', 7);
const GOAL_MS = 500;
const REPOSITORY = fileURLToPath(new URL('../..', import.meta.url));
/** The size of a marketplace card's photo, for a baseline when the largest paint is not an image. */
const CARD_IMAGE = { width: 400, height: 300 };

export async function lcpFigures(options: ServerBenchOptions): Promise<Figure[]> {
  await runScript(['scripts/build-web.ts'], {});
  return inFreshDeployment(options, async (deployment) => {
    await runScript(['scripts/seed.ts', '--yes'], deploymentEnvironment(deployment));
    const server = await startProductServer({ ...deployment, name: 'lcp' });
    const rssAtStartMiB = server.rssMiB();
    try {
      const url = `${server.url}/marketplace`;
      const trials: Trial[] = [];
      const largest: Array<LcpMeasurement['element']> = [];
      for (let trial = 1; trial <= options.trials; trial++) {
        const product = await measureLcpInDetail(url, { loads: LOADS });
        const image = product.element.imageUrl ? { url: product.element.imageUrl, size: product.element } : { url: await firstCardImage(server.url), size: CARD_IMAGE };
        const page = await staticPageWithSameImage(image.url, image.size);
        let same: LcpMeasurement;
        try {
          same = await measureLcpInDetail(page.url, { loads: LOADS });
        } finally {
          await page.close();
        }
        trials.push({ value: product.medianMs, baseline: same.medianMs });
        largest.push(product.element);
        options.log(`lcp, trial ${trial}: /marketplace ${product.medianMs} ms (loads ${product.loadsMs.join(', ')}); static page ${same.medianMs} ms; largest <${product.element.tag}> ${product.element.width}x${product.element.height}`);
      }
      return [
        {
          name: '/marketplace LCP, headless Chromium, localhost',
          unit: 'ms',
          baselineName: 'a static page with the same image',
          higherIsBetter: false,
          goalRatio: null,
          goalValue: { atMost: GOAL_MS },
          trials,
          details: { loadsPerSide: LOADS, largestElement: largest.at(-1), serverRssMiB: { atStart: rssAtStartMiB, atEnd: server.rssMiB() } },
        },
      ];
    } finally {
      await server.stop();
    }
  });
}

/** The first listing's first photo, as the marketplace's first card shows it. */
async function firstCardImage(serverUrl: string): Promise<string> {
  const api = new ApiClient(serverUrl, 1);
  try {
    const answer = await api.call<Page<Listing>>('GET', '/api/public/listings?page=0&size=1');
    const imageUrl = answer.status === 200 ? answer.body.content[0]?.mediaUrls[0] : undefined;
    if (!imageUrl) throw new Error('the marketplace shows no photo to compare with');
    return new URL(imageUrl, serverUrl).href;
  } finally {
    await api.close();
  }
}

/** What the server gets from startProductServer, for the scripts that work on its database. */
function deploymentEnvironment(deployment: DeploymentSettings): NodeJS.ProcessEnv {
  return { DATABASE_URL: deployment.databaseUrl, DATA_DIR: deployment.dataDir, JWT_SECRET: deployment.jwtSecret };
}

/** `node --import tsx <script>` in the repository, configured by `environment` alone as the server is; fails unless it exits 0. */
async function runScript(args: readonly string[], environment: NodeJS.ProcessEnv): Promise<void> {
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, ...environment };
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], { cwd: REPOSITORY, env, stdio: ['ignore', 'ignore', 'inherit'] });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', resolve);
  });
  if (code !== 0) throw new Error(`${args.join(' ')} exited with ${code}`);
}

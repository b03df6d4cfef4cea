import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';

/** Debian's Chromium (.ci/run installs it), or CHROMIUM_PATH; never a browser downloaded by a tool. */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** The product in a real browser: one `npm start` on a fresh data dir for all of them (started by the global setup), one file at a time. */
const browserSuite: TestProjectInlineConfiguration = {
  extends: true,
  test: {
    name: 'e2e',
    include: ['test/e2e/**/*.test.ts'],
    globalSetup: ['test/e2e/global-setup.ts'],
    provide: { chromiumPath: CHROMIUM },
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
};

/**
 * Without Chromium a developer's `npm test` says what to install and runs everything else; in CI
 * (CI set, as .ci/run sets it) a missing browser fails the run, never skips it silently.
 */
function browserSuiteRuns(): boolean {
  if (existsSync(CHROMIUM)) return true;
  const howToInstall =
    `Chromium was not found at ${CHROMIUM}. Install it (Debian/Ubuntu: sudo apt-get install -y chromium) ` +
    'or point CHROMIUM_PATH at a Chromium or Chrome binary.';
  if (process.env.CI) throw new Error(`The browser tests cannot run in CI: ${howToInstall}`);
  console.warn(`\nBrowser tests NOT RUN: ${howToInstall}\n`);
  return false;
}

export default defineConfig({
  test: {
    root: fileURLToPath(new URL('..', import.meta.url)),
    testTimeout: 20_000,
    hookTimeout: 30_000,
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: ['test/**/*.test.ts'], exclude: ['test/e2e/**'] },
      },
      ...(browserSuiteRuns() ? [browserSuite] : []),
    ],
  },
});

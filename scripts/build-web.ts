import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { buildWhenChanged } from './build-support';

/**
 * Builds the web app into web/dist for `npm start` (and `npm run build:web`, which always builds),
 * skipped when its sources have not changed since the last build (scripts/build-support.ts).
 */
const WEB = fileURLToPath(new URL('../web/', import.meta.url));

const outcome = await buildWhenChanged({
  lock: join(WEB, '.build-lock'),
  output: join(WEB, 'dist'),
  builtFile: 'index.html',
  sources: ['src', 'public', 'index.html', 'vite.config.ts', '../package-lock.json'].map((path) => join(WEB, path)),
  force: process.argv.includes('--force'),
  build: async (aside) => {
    // Always the production build: Vite builds React's development build when NODE_ENV says
    // otherwise, as under vitest (NODE_ENV=test), and `npm start` would then serve it.
    process.env.NODE_ENV = 'production';
    await build({ configFile: join(WEB, 'vite.config.ts'), logLevel: 'warn', build: { outDir: aside, emptyOutDir: true } });
  },
});
console.log(outcome === 'built' ? 'web/dist built' : 'web/dist is up to date');

import { build, type Plugin } from 'esbuild';
import { readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildWhenChanged } from './build-support';

/**
 * Bundles the API into dist/server/server.js, which `npm start` and the container run as
 * `node --liftoff-only dist/server/server.js`:
 * - run through tsx instead, each module is compiled as it loads, by hooks that Node runs on a
 *   thread of their own: a second JavaScript heap, some 65 MiB, for the life of the server;
 * - --liftoff-only keeps WebAssembly (PGlite, on the embedded default) on V8's baseline compiler:
 *   its optimising tier compiles PostgreSQL's hot functions on background threads, whose memory
 *   (80-100 MiB) the allocator keeps, for no bids/s measurable on the embedded default.
 * Packages stay in node_modules, imported as they are; a module imported on demand (the KurrentDB
 * store, the S3 media storage) gets a chunk of its own, so that its packages are still loaded only
 * when configured. Skipped when its sources have not changed since the last build; --force
 * builds anyway.
 */
const ROOT = fileURLToPath(new URL('../', import.meta.url));
const OUTPUT = join(ROOT, 'dist/server');

/**
 * Each module keeps its own import.meta.url (relative to the bundle, which stays in this
 * checkout), so that what it finds beside its source file (web/dist, the seed's photos) is found
 * as when it runs from source.
 */
const sourceModuleUrls: Plugin = {
  name: 'source-module-urls',
  setup(bundle) {
    bundle.onLoad({ filter: /\.ts$/ }, async ({ path }) => {
      const source = await readFile(path, 'utf8');
      if (!source.includes('import.meta.url')) return undefined;
      const sourceUrl = `new URL(${JSON.stringify(relative(OUTPUT, path))}, import.meta.url).href`;
      return { contents: source.replaceAll('import.meta.url', sourceUrl), loader: 'ts' };
    });
  },
};

const outcome = await buildWhenChanged({
  lock: join(ROOT, 'dist/.server-build-lock'),
  output: OUTPUT,
  builtFile: 'server.js',
  sources: ['api', 'engine', 'projections', 'package-lock.json', 'tsconfig.json', 'scripts/build-server.ts'].map((path) => join(ROOT, path)),
  force: process.argv.includes('--force'),
  build: async (aside) => {
    await build({
      entryPoints: [join(ROOT, 'api/server.ts')],
      outdir: aside,
      bundle: true,
      splitting: true,
      packages: 'external',
      platform: 'node',
      format: 'esm',
      target: 'node20.19',
      plugins: [sourceModuleUrls],
      logLevel: 'warning',
    });
  },
});
console.log(outcome === 'built' ? 'dist/server built' : 'dist/server is up to date');

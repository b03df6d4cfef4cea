import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { compression, defineAlgorithm } from 'vite-plugin-compression2';

const API = process.env.API_URL ?? 'http://localhost:3000';

/**
 * The web app. `npm start` builds it into web/dist, which the API serves on its own port;
 * `npm run dev:web` serves it with hot reload and passes API calls to a running `npm start`.
 */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [
    react(),
    // Brotli and gzip copies beside each asset, served by the API as the browser accepts (api/web-app.ts).
    compression({ algorithms: [defineAlgorithm('brotliCompress'), defineAlgorithm('gzip', { level: 9 })], logLevel: 'silent' }),
  ],
  // No source maps: production serves none (api/web-app.ts refuses .map files as well).
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: false },
  server: {
    proxy: {
      '/api': API,
      '/media': API,
      // The keys receipts are checked against.
      '/.well-known': API,
      '/ws': { target: API.replace(/^http/, 'ws'), ws: true },
    },
  },
});

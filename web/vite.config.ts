import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const API = process.env.API_URL ?? 'http://localhost:3000';

/**
 * The web app. `npm start` builds it into web/dist, which the API serves on its own port;
 * `npm run dev:web` serves it with hot reload and passes API calls to a running `npm start`.
 */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: true },
  server: {
    proxy: {
      '/api': API,
      '/media': API,
      '/ws': { target: API.replace(/^http/, 'ws'), ws: true },
    },
  },
});

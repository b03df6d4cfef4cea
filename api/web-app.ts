import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { handleNotFound } from './http/errors';
import { quietLogLevel } from './observability/quiet-log-level';

/** Where `npm run build:web` puts the app. */
export const WEB_DIST = fileURLToPath(new URL('../web/dist/', import.meta.url));

/**
 * Paths the API answers itself (the probes and the metrics too), and the built assets: an unknown
 * one at or under them is a JSON 404, never the app's page, so that a probe or a scraper pointed at
 * a wrong path fails instead of reading a page.
 */
const API_PREFIXES = ['/api', '/media', '/ws', '/docs', '/health', '/ready', '/metrics', '/assets'];

/**
 * Serves the built web app from the API's own port: its files (hashed assets cached for a year),
 * and index.html for any other page path, so that /marketplace/{slug} opened directly works. When
 * the app has not been built, only the API answers.
 */
export async function serveWebApp(app: FastifyInstance, dist = WEB_DIST): Promise<boolean> {
  if (!existsSync(`${dist}index.html`)) return false;
  await app.register(fastifyStatic, {
    root: dist,
    wildcard: false,
    index: false,
    // A dozen files per page load: logged only from LOG_LEVEL=debug on.
    logLevel: quietLogLevel(app, 'debug'),
    // The .br and .gz beside each file (web/vite.config.ts), as the client's Accept-Encoding allows.
    preCompressed: true,
    // Source maps are not built for production; one built by hand is still not published.
    allowedPath: (path) => !path.endsWith('.map'),
    setHeaders(response, path) {
      // Vite names built assets by their content: they never change under a name.
      response.header('cache-control', path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  app.setNotFoundHandler((request: FastifyRequest, reply: FastifyReply) => {
    const path = request.url.split('?')[0]!;
    const isPage = (request.method === 'GET' || request.method === 'HEAD') && !API_PREFIXES.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
    if (!isPage) return handleNotFound(request, reply);
    return reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').sendFile('index.html');
  });
  return true;
}

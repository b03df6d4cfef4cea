import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Histogram, Registry } from 'prom-client';
import { z } from 'zod';
import type { AppDependencies } from '../dependencies';
import type { UploadKind } from './metrics';
import { quietLogLevel } from './quiet-log-level';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Marks an upload route: its answers are counted in provenance_uploads_total under this kind. */
    upload?: UploadKind;
  }
}

/** Requests that matched no route share one label: a scan of random paths cannot grow the series. */
const UNMATCHED_ROUTE = 'unmatched';

/**
 * GET /metrics in Prometheus's text format: this app's HTTP latencies (by route pattern, method
 * and status class) with the services' metrics (deps.metrics). Registered before the routes, so
 * that its hook times every one of them.
 */
export const metricsRoutes = fp(
  async (app: FastifyInstance, { deps }: { deps: AppDependencies }) => {
    // This app's own registry: several apps may share one set of services (and one process).
    const registry = new Registry();
    const requestDuration = new Histogram({
      name: 'provenance_http_request_duration_seconds',
      help: 'HTTP requests answered, by route pattern, method and status class (2xx, 4xx...), and how long they took',
      labelNames: ['route', 'method', 'status_class'] as const,
      registers: [registry],
    });

    app.addHook('onResponse', async (request, reply) => {
      const { url, config } = request.routeOptions;
      requestDuration.observe({ route: url ?? UNMATCHED_ROUTE, method: request.method, status_class: `${Math.floor(reply.statusCode / 100)}xx` }, reply.elapsedTime / 1000);
      if (config.upload) deps.metrics.countUpload(config.upload, reply.statusCode);
    });

    app.get(
      '/metrics',
      {
        logLevel: quietLogLevel(app),
        schema: {
          tags: ['operations'],
          summary: 'Metrics in the Prometheus text format',
          description:
            'HTTP latency histograms by route; bids accepted and refused (by code); event-store appends and conflicts; ' +
            'events the projections applied and how far they are behind; WebSocket connections and messages; uploads; ' +
            'and the Node.js process metrics.',
          response: { 200: { description: 'Prometheus text exposition format 0.0.4', content: { 'text/plain': { schema: z.string() } } } },
        },
      },
      async (_request, reply) => {
        const merged = Registry.merge([registry, deps.metrics.registry]);
        return reply.type(merged.contentType).send(await merged.metrics());
      },
    );
  },
  { name: 'metrics' },
);

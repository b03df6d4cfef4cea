import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { analyticsAnswerSchema, analyticsQuerySchema } from '../../contracts/admin/analytics';
import { errorResponses } from '../../contracts/common';
import type { AppDependencies } from '../../dependencies';
import { analyticsWindow, presentAnalytics } from './presenters';
import { readAnalytics } from './queries';

/** GET /api/admin/analytics: the dashboard's and the analytics page's figures, from the read models. */
export const adminAnalyticsRoutes: FastifyPluginAsyncZod<{ deps: AppDependencies }> = async (app, { deps }) => {
  app.get(
    '/api/admin/analytics',
    {
      schema: {
        tags: ['admin'],
        summary: 'Catalogue, NFC, sales and bidding figures, with daily series and top lots',
        description: 'Read from the read models, which follow the event log within moments of each change. Money in dollars.',
        security: [{ bearer: [] }],
        querystring: analyticsQuerySchema,
        response: { 200: analyticsAnswerSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => {
      const now = deps.clock();
      const window = analyticsWindow(now, request.query.days, request.query.topLots);
      return presentAnalytics(await readAnalytics(deps.db, window), window, now);
    },
  );
};

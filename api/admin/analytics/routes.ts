import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDependencies } from '../../dependencies';
import { analyticsAnswerSchema, analyticsWindow, presentAnalytics } from './presenters';
import { readAnalytics } from './queries';

const analyticsQuery = z.object({
  days: z.coerce.number().int().min(1).max(365).default(30).describe('Days in the series, ending today (UTC); 1 to 365, default 30'),
  topLots: z.coerce.number().int().min(1).max(50).default(5).describe('How many top lots; 1 to 50, default 5'),
});

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
        querystring: analyticsQuery,
        response: { 200: analyticsAnswerSchema },
      },
    },
    async (request) => {
      const now = deps.clock();
      const window = analyticsWindow(now, request.query.days, request.query.topLots);
      return presentAnalytics(await readAnalytics(deps.db, window), window, now);
    },
  );
};

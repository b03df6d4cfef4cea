import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDependencies } from '../dependencies';
import { adminAnalyticsRoutes } from './analytics/routes';
import { adminAuctionRoutes } from './auctions/routes';
import { adminBulkImportRoutes } from './bulk-import/routes';
import { adminListingRoutes } from './listings/routes';
import { adminMediaRoutes } from './media/routes';
import { adminNfcRoutes } from './nfc/routes';
import { adminOrderRoutes } from './orders/routes';
import { adminUserRoutes } from './users/routes';

/**
 * Everything under /api/admin but sign-in (api/auth/routes.ts, beside the buyers' sign-in, so both
 * share one throttle): one scope whose first hook demands an ADMIN access token before the body is
 * even read. Anonymous 401, buyer 403, on every route registered here.
 */
export const adminRoutes: FastifyPluginAsyncZod<{ deps: AppDependencies }> = async (app, { deps }) => {
  await app.register(async (adminOnly) => {
    adminOnly.addHook('onRequest', adminOnly.requireRole('ADMIN'));
    // Uploads (media, bulk import): one file per request; each route sets its own size limit.
    await adminOnly.register(multipart, { limits: { files: 1, fields: 10, parts: 12, fieldSize: 64 * 1024, fileSize: 10 * 1024 * 1024 } });
    await adminOnly.register(adminListingRoutes, { deps });
    await adminOnly.register(adminMediaRoutes, { deps });
    await adminOnly.register(adminNfcRoutes, { deps });
    await adminOnly.register(adminBulkImportRoutes, { deps });
    await adminOnly.register(adminAnalyticsRoutes, { deps });
    await adminOnly.register(adminAuctionRoutes, { deps });
    await adminOnly.register(adminUserRoutes, { deps });
    await adminOnly.register(adminOrderRoutes, { deps });
  });
};

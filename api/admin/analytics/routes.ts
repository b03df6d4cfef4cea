import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDependencies } from '../../dependencies';

export const adminAnalyticsRoutes: FastifyPluginAsyncZod<{ deps: AppDependencies }> = async () => {};

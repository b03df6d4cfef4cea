import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDependencies } from '../../dependencies';

export const adminNfcRoutes: FastifyPluginAsyncZod<{ deps: AppDependencies }> = async () => {};

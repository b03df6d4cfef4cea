import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDependencies } from '../dependencies';

export const bidRoutes: FastifyPluginAsyncZod<{ deps: AppDependencies }> = async () => {};

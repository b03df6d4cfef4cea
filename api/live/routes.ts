import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDependencies } from '../dependencies';

export const liveRoutes: FastifyPluginAsyncZod<{ deps: AppDependencies }> = async () => {};

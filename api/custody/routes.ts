import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDependencies } from '../dependencies';

export const custodyRoutes: FastifyPluginAsyncZod<{ deps: AppDependencies }> = async () => {};

import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDependencies } from '../dependencies';

export const authRoutes: FastifyPluginAsyncZod<{ deps: AppDependencies }> = async () => {};

import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDependencies } from '../../dependencies';

export const adminMediaRoutes: FastifyPluginAsyncZod<{ deps: AppDependencies }> = async () => {};

import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance } from 'fastify';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppDependencies } from './dependencies';
import { authentication } from './http/authentication';
import { handleError, handleNotFound } from './http/errors';
import { authRoutes } from './auth/routes';
import { bidRoutes } from './bids/routes';
import { listingRoutes } from './listings/routes';
import { liveRoutes } from './live/routes';
import { mediaRoutes } from './media/routes';
import { userRoutes } from './users/routes';

/** Builds the HTTP API without listening, so tests and the server entry share one app. */
export async function buildApp(deps: AppDependencies): Promise<FastifyInstance> {
  const app = Fastify({
    logger: {
      level: deps.logLevel ?? 'info',
      // Tokens and passwords never reach the log.
      redact: ['req.headers.authorization', 'req.headers.cookie', 'req.body.password', 'req.body.currentPassword', 'req.body.newPassword', 'req.body.refreshToken'],
    },
    genReqId: () => crypto.randomUUID(),
    requestIdHeader: false,
    bodyLimit: 1024 * 1024,
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.setErrorHandler(handleError);
  app.setNotFoundHandler(handleNotFound);
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });

  await app.register(swagger, {
    openapi: {
      info: { title: 'Provenance API', version: '1.0.0', description: 'Live auctions of authenticated, NFC-tagged sports memorabilia.' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });
  await app.register(authentication, { secret: deps.jwtSecret, db: deps.db });

  // Liveness that means something: the database answers.
  app.get('/health', { schema: { hide: true } }, async (_request, reply) => {
    try {
      await deps.sql.query('SELECT 1');
      return { status: 'ok' };
    } catch (error) {
      app.log.error({ err: error }, 'health check: database unreachable');
      return reply.code(503).send({ status: 'unavailable' });
    }
  });

  await app.register(authRoutes, { deps });
  await app.register(userRoutes, { deps });
  await app.register(listingRoutes, { deps });
  await app.register(bidRoutes, { deps });
  await app.register(liveRoutes, { deps });
  await app.register(mediaRoutes, { deps });

  return app;
}

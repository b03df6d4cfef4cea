import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance } from 'fastify';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppDependencies } from './dependencies';
import { authentication } from './http/authentication';
import { handleError, handleNotFound, HttpError } from './http/errors';
import { adminRoutes } from './admin/routes';
import { auditRoutes } from './audit/routes';
import { authRoutes } from './auth/routes';
import { custodyRoutes } from './custody/routes';
import { mobileBindingRoutes } from './mobile-binding/routes';
import { bidRoutes } from './bids/routes';
import { listingRoutes } from './listings/routes';
import { liveRoutes } from './live/routes';
import { mediaRoutes } from './media/routes';
import { userRoutes } from './users/routes';
import { serveWebApp } from './web-app';

export interface AppOptions {
  /** The built web app's folder, served on the same port (npm start); absent: the API only. */
  readonly webApp?: string;
}

/** Builds the HTTP API without listening, so tests and the server entry share one app. */
export async function buildApp(deps: AppDependencies, options: AppOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: {
      level: deps.logLevel ?? 'info',
      // Tokens and passwords never reach the log.
      redact: ['req.headers.authorization', 'req.headers.cookie', 'req.body.password', 'req.body.currentPassword', 'req.body.newPassword', 'req.body.refreshToken'],
    },
    genReqId: () => crypto.randomUUID(),
    requestIdHeader: false,
    bodyLimit: 1024 * 1024,
    trustProxy: deps.trustProxy ?? false,
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.setErrorHandler(handleError);
  // Postgres cannot store NUL in text; such input is refused here, once, for every route.
  app.addHook('preValidation', async (request) => {
    const where = findNul(request.params, 'params') ?? findNul(request.query, 'querystring') ?? findNul(request.body, 'body');
    if (where) throw new HttpError(400, `${where}: must not contain NUL characters`, 'INVALID_CHARACTERS');
  });
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
  await app.register(adminRoutes, { deps });
  await app.register(auditRoutes, { deps });
  await app.register(custodyRoutes, { deps });
  await app.register(mobileBindingRoutes, { deps });

  const servesWebApp = options.webApp !== undefined && (await serveWebApp(app, options.webApp));
  if (!servesWebApp) app.setNotFoundHandler(handleNotFound);

  return app;
}

/** The path of the first string (or key) holding NUL, e.g. "body.firstName"; null when there is none. */
function findNul(value: unknown, path: string, depth = 0): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path : null;
  if (depth > 32 || value === null || typeof value !== 'object') return null;
  for (const [key, inner] of Object.entries(value)) {
    const found = key.includes('\u0000') ? path : findNul(inner, `${path}.${key}`, depth + 1);
    if (found) return found;
  }
  return null;
}

import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance } from 'fastify';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { clusterRoutes } from './cluster/routes';
import type { AppDependencies } from './dependencies';
import { authentication } from './http/authentication';
import { handleError, handleNotFound } from './http/errors';
import { DEFAULT_RATE_LIMITS, type RateLimits } from './http/rate-limit-settings';
import { rateLimiting } from './http/rate-limits';
import { requestIdGenerator } from './http/request-id';
import { securityHeaders } from './http/security-headers';
import { closeConnectionWhenBodyUnread } from './http/unread-body';
import { refuseMalformedText } from './http/well-formed-input';
import { adminRoutes } from './admin/routes';
import { auditRoutes } from './audit/routes';
import { integrityRoutes } from './integrity/routes';
import { authRoutes } from './auth/routes';
import { recoveryRoutes } from './auth/recovery-routes';
import { mailRoutes } from './mail/routes';
import { notificationRoutes } from './notices/routes';
import { watchlistRoutes } from './watchlist/routes';
import { orderRoutes } from './orders/routes';
import { custodyRoutes } from './custody/routes';
import { mobileBindingRoutes } from './mobile-binding/routes';
import { bidRoutes } from './bids/routes';
import { listingRoutes } from './listings/routes';
import { liveRoutes } from './live/routes';
import { mediaRoutes } from './media/routes';
import { userRoutes } from './users/routes';
import { serveWebApp } from './web-app';
import { OPENAPI_SERVERS_AND_LINKS, withOperationIds } from './docs/openapi';
import { metricsRoutes } from './observability/metrics-routes';
import { probeRoutes } from './observability/probes';

export interface AppOptions {
  /** The built web app's folder, served on the same port (npm start); absent: the API only. */
  readonly webApp?: string;
  /** The general request limits (Config.rateLimits); absent: the defaults. */
  readonly rateLimits?: RateLimits;
  /** Where log lines go (npm start in a terminal: pino-pretty); absent: JSON to stdout. */
  readonly logStream?: { write(line: string): void };
}

/** Builds the HTTP API without listening, so tests and the server entry share one app. */
export async function buildApp(deps: AppDependencies, options: AppOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: {
      level: deps.logLevel ?? 'info',
      // Tokens and passwords never reach the log.
      redact: ['req.headers.authorization', 'req.headers.cookie', 'req.body.password', 'req.body.currentPassword', 'req.body.newPassword', 'req.body.refreshToken', 'req.body.token'],
      ...(options.logStream ? { stream: options.logStream } : {}),
    },
    genReqId: requestIdGenerator(deps.trustProxy),
    requestIdHeader: false,
    bodyLimit: 1024 * 1024,
    trustProxy: deps.trustProxy ?? false,
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.setErrorHandler(handleError);
  app.addHook('preValidation', refuseMalformedText);
  app.addHook('onSend', closeConnectionWhenBodyUnread);
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });

  await app.register(securityHeaders, { mediaStorage: deps.mediaStorage });
  await app.register(swagger, {
    openapi: {
      info: { title: 'Provenance API', version: '1.0.0', description: 'Live auctions of authenticated, NFC-tagged sports memorabilia.' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
      ...OPENAPI_SERVERS_AND_LINKS,
    },
    transform: withOperationIds(jsonSchemaTransform),
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });
  await app.register(authentication, { secret: deps.jwtSecret, db: deps.db, sql: deps.sql });
  await app.register(rateLimiting, { limits: options.rateLimits ?? DEFAULT_RATE_LIMITS });

  await app.register(metricsRoutes, { deps });
  await app.register(probeRoutes, { deps });

  await app.register(authRoutes, { deps });
  await app.register(recoveryRoutes, { deps });
  await app.register(userRoutes, { deps });
  await app.register(watchlistRoutes, { deps });
  await app.register(orderRoutes, { deps });
  await app.register(notificationRoutes, { deps });
  await app.register(listingRoutes, { deps });
  await app.register(bidRoutes, { deps });
  await app.register(liveRoutes, { deps });
  await app.register(mediaRoutes, { deps });
  await app.register(adminRoutes, { deps });
  await app.register(mailRoutes, { deps });
  await app.register(auditRoutes, { deps });
  await app.register(integrityRoutes, { deps });
  await app.register(custodyRoutes, { deps });
  await app.register(mobileBindingRoutes, { deps });
  await app.register(clusterRoutes, { deps });

  const servesWebApp = options.webApp !== undefined && (await serveWebApp(app, options.webApp));
  if (!servesWebApp) app.setNotFoundHandler(handleNotFound);

  return app;
}

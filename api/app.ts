import Fastify, { type FastifyInstance } from 'fastify';
import type { Infrastructure } from './infrastructure';

export interface AppOptions {
  readonly infrastructure: Pick<Infrastructure, 'database' | 'eventStore'>;
  readonly logLevel?: string;
}

/** Builds the HTTP API without listening, so tests and the server entry share one app. */
export async function buildApp({ infrastructure, logLevel = 'info' }: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: { level: logLevel, redact: ['req.headers.authorization', 'req.headers.cookie'] },
  });

  // Liveness that means something: the database answers.
  app.get('/health', async (_request, reply) => {
    try {
      await infrastructure.database.query('SELECT 1');
      return { status: 'ok' };
    } catch (error) {
      app.log.error({ err: error }, 'health check: database unreachable');
      return reply.code(503).send({ status: 'unavailable' });
    }
  });

  return app;
}

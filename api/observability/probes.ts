import type { FastifyBaseLogger } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { positionToString } from '../../engine/eventstore/port';
import type { AppDependencies } from '../dependencies';
import { quietLogLevel } from './quiet-log-level';
import { measureReadModelLag } from './read-model-lag';

/** A check with no answer by then has failed: the probe answers even while the database hangs. */
const CHECK_TIMEOUT_MS = 2000;

const checkSchema = z.object({
  status: z.enum(['ok', 'failing']),
  reason: z.string().optional().describe('Why the check fails; the error itself is in the log'),
});

const readinessSchema = z.object({
  status: z.enum(['ready', 'not_ready']),
  failing: z.array(z.enum(['database', 'eventStore', 'readModels'])).describe('The checks that fail'),
  checks: z.object({
    database: checkSchema,
    eventStore: checkSchema.extend({
      headPosition: z.string().nullable().optional().describe("The newest event's position in the log; null while the log is empty"),
    }),
    readModels: checkSchema.extend({
      behindEvents: z.number().int().optional().describe('Events in the log the read models have not applied yet, counted up to maxBehindEvents + 1'),
      maxBehindEvents: z.number().int().describe('READY_MAX_LAG_EVENTS'),
      oldestPendingSeconds: z.number().nullable().optional().describe('How long the oldest of them has been waiting; null when there is none'),
    }),
  }),
});

type Verdict = z.infer<typeof checkSchema>;

/**
 * The probes of an orchestrator or a load balancer. GET /health (liveness): the process answers,
 * nothing more, so that a database outage never gets the process restarted. GET /ready
 * (readiness): the database and the event store answer, and the read models are at most
 * READY_MAX_LAG_EVENTS behind the log; otherwise 503, naming the failing checks.
 */
export const probeRoutes: FastifyPluginAsyncZod<{ deps: AppDependencies }> = async (app, { deps }) => {
  app.get(
    '/health',
    {
      logLevel: quietLogLevel(app),
      schema: {
        tags: ['operations'],
        summary: 'Liveness: 200 while the process answers',
        description: 'Checks nothing else: see GET /ready for whether the process can serve.',
        response: { 200: z.object({ status: z.literal('ok') }) },
      },
    },
    async () => ({ status: 'ok' as const }),
  );

  app.get(
    '/ready',
    {
      logLevel: quietLogLevel(app),
      schema: {
        tags: ['operations'],
        summary: 'Readiness: 200 when the database and event store answer and the read models keep up; else 503',
        response: { 200: readinessSchema, 503: readinessSchema },
      },
    },
    async (request, reply) => {
      const maxBehindEvents = deps.readyMaxLagEvents;
      const [database, eventStore, readModels] = await Promise.all([
        guarded(request.log, 'database', async () => {
          await deps.sql.query('SELECT 1');
          return { status: 'ok' as const };
        }),
        guarded(request.log, 'eventStore', async () => {
          const head = await deps.eventStore.headPosition();
          return { status: 'ok' as const, headPosition: head ? positionToString(head) : null };
        }),
        guarded(request.log, 'readModels', async () => {
          const lag = await measureReadModelLag(deps, maxBehindEvents + 1);
          const tooFar = lag.events > maxBehindEvents;
          return {
            status: tooFar ? ('failing' as const) : ('ok' as const),
            ...(tooFar ? { reason: `more than ${maxBehindEvents} events behind the log (READY_MAX_LAG_EVENTS)` } : {}),
            behindEvents: lag.events,
            oldestPendingSeconds: lag.oldestPendingAt ? Math.max(0, (Date.now() - lag.oldestPendingAt.getTime()) / 1000) : null,
          };
        }),
      ]);
      const checks = { database, eventStore, readModels: { ...readModels, maxBehindEvents } };
      const failing = (['database', 'eventStore', 'readModels'] as const).filter((name) => checks[name].status === 'failing');
      return reply.code(failing.length === 0 ? 200 : 503).send({ status: failing.length === 0 ? 'ready' : 'not_ready', failing, checks });
    },
  );
};

/** Runs one check within CHECK_TIMEOUT_MS: one that throws or does not answer in time fails. */
async function guarded<Answer extends Verdict>(log: FastifyBaseLogger, name: string, check: () => Promise<Answer>): Promise<Answer | Verdict> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timed out'>((resolve) => {
    timer = setTimeout(() => resolve('timed out'), CHECK_TIMEOUT_MS);
  });
  try {
    const answer = await Promise.race([check(), timedOut]);
    if (answer !== 'timed out') return answer;
    log.warn({ check: name }, `readiness: ${name} gave no answer within ${CHECK_TIMEOUT_MS} ms`);
    return { status: 'failing', reason: `no answer within ${CHECK_TIMEOUT_MS} ms` };
  } catch (error) {
    // The error may name hosts or credentials: it goes to the log, not to the (public) answer.
    log.warn({ err: error, check: name }, `readiness: ${name} failed`);
    return { status: 'failing', reason: 'no answer (the error is in the log)' };
  } finally {
    clearTimeout(timer);
  }
}

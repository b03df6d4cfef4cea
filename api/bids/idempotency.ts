import { createHash, randomUUID } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { v5 as uuidv5 } from 'uuid';
import { z } from 'zod';
import type { Database } from '../database';
import { HttpError } from '../http/errors';

/** 1 to 200 visible ASCII characters, as clients send UUIDs or their own request ids. */
export const idempotencyKeyHeaders = z.object({
  'idempotency-key': z
    .string()
    .regex(/^[\x21-\x7e]{1,200}$/, 'Idempotency-Key must be 1 to 200 visible ASCII characters')
    .optional()
    .describe('Optional. A retry with the same key gets the first answer again instead of acting twice'),
});

/** Namespace of command ids derived from (user, Idempotency-Key): a random, fixed UUID. */
const COMMAND_ID_NAMESPACE = '8d4b0f3e-2c71-4f0a-9b6e-5a1d3c7e9f20';
/** A claimed key with no answer yet after this long belongs to a request that died: a retry may take it over. */
const ABANDONED_AFTER_MS = 30_000;
/** status_code of a claimed key whose request is still running. */
const IN_PROGRESS = 0;

interface Claim {
  readonly userId: string;
  readonly key: string;
}

/**
 * Idempotency-Key for one route, kept per user in idempotency_keys. The first request with a key
 * claims it with a placeholder row (an insert that does nothing on conflict, so of two concurrent
 * duplicates exactly one runs); its answer, success or refusal, is stored before it is sent. A
 * retry with the same key and body gets that answer again; with another body, 422.
 *
 * Behind the table, the command id derives from (user, key): were the stored answer ever lost, the
 * engine would still recognise the repeated command and not act twice.
 */
export function idempotencyKeys(options: {
  readonly db: Kysely<Database>;
  readonly clock: () => Date;
  /** What makes two requests the same request: the route and the meaning of the body. */
  readonly fingerprint: (request: FastifyRequest) => unknown;
}) {
  const { db, clock, fingerprint } = options;
  const claims = new WeakMap<FastifyRequest, Claim>();

  return {
    /** preHandler, after authentication: claims the key, or answers with the stored answer. */
    async claim(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | void> {
      const key = keyOf(request);
      if (key === undefined) return;
      const userId = request.actor!.userId;
      const requestHash = createHash('sha256').update(JSON.stringify(fingerprint(request))).digest('hex');
      const now = clock();
      const claimed = await db
        .insertInto('idempotency_keys')
        .values({ user_id: userId, key, request_hash: requestHash, status_code: IN_PROGRESS, body: '{}', created_at: now })
        .onConflict((conflict) => conflict.columns(['user_id', 'key']).doNothing())
        .returning('key')
        .executeTakeFirst();
      if (claimed) return void claims.set(request, { userId, key });

      const stored = await db.selectFrom('idempotency_keys').selectAll().where('user_id', '=', userId).where('key', '=', key).executeTakeFirst();
      if (stored && stored.request_hash !== requestHash) {
        throw new HttpError(422, 'Idempotency-Key was already used with a different request', 'IDEMPOTENCY_KEY_REUSED');
      }
      if (stored && stored.status_code !== IN_PROGRESS) {
        return reply.code(stored.status_code).header('idempotent-replayed', 'true').send(stored.body);
      }
      const takenOver = await db
        .updateTable('idempotency_keys')
        .set({ created_at: now })
        .where('user_id', '=', userId)
        .where('key', '=', key)
        .where('status_code', '=', IN_PROGRESS)
        .where('created_at', '<', new Date(now.getTime() - ABANDONED_AFTER_MS))
        .returning('key')
        .executeTakeFirst();
      if (takenOver) return void claims.set(request, { userId, key });
      throw new HttpError(409, 'A request with this Idempotency-Key is still being processed; try again shortly', 'IDEMPOTENCY_KEY_IN_PROGRESS');
    },

    /** The command id: derived from the key when there is one, so that a repeat is recognised. */
    commandIdOf(request: FastifyRequest): string {
      const key = keyOf(request);
      return key === undefined ? randomUUID() : uuidv5(`${request.actor!.userId}:${key}`, COMMAND_ID_NAMESPACE);
    },

    /**
     * onSend: stores the answer of a request that claimed a key. Server failures and "too busy"
     * are not answers to keep: the claim is released so that a retry runs again.
     */
    async record(request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> {
      const claim = claims.get(request);
      if (!claim) return payload;
      claims.delete(request);
      const answer = typeof payload === 'string' ? (JSON.parse(payload) as { code?: unknown }) : null;
      if (answer === null || reply.statusCode >= 500 || answer.code === 'CONCURRENCY_CONFLICT') {
        await db.deleteFrom('idempotency_keys').where('user_id', '=', claim.userId).where('key', '=', claim.key).execute();
      } else {
        await db
          .updateTable('idempotency_keys')
          .set({ status_code: reply.statusCode, body: payload as string })
          .where('user_id', '=', claim.userId)
          .where('key', '=', claim.key)
          .execute();
      }
      return payload;
    },
  };
}

function keyOf(request: FastifyRequest): string | undefined {
  const key = request.headers['idempotency-key'];
  return typeof key === 'string' ? key : undefined;
}

import { createHash, randomUUID } from 'node:crypto';
import type DataLoader from 'dataloader';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sql, type Kysely, type Selectable } from 'kysely';
import { z } from 'zod';
import { nameBasedId, uuidNamespace } from '../../engine/application/name-based-ids';
import type { IdempotencyKeysTable } from '../accounts/schema';
import type { Database } from '../database';
import { HttpError } from '../http/errors';
import { oneBatchAtATime } from '../statement-batches';

/** 1 to 200 visible ASCII characters, as clients send UUIDs or their own request ids. */
export const idempotencyKeyHeaders = z.object({
  'idempotency-key': z
    .string()
    .regex(/^[\x21-\x7e]{1,200}$/, 'Idempotency-Key must be 1 to 200 visible ASCII characters')
    .optional()
    .describe('Optional. A retry with the same key gets the first answer again instead of acting twice'),
});

/** Namespace of command ids derived from (user, Idempotency-Key): a random, fixed UUID. */
const COMMAND_ID_NAMESPACE = uuidNamespace('8d4b0f3e-2c71-4f0a-9b6e-5a1d3c7e9f20');
/** A claimed key with no answer yet after this long belongs to a request that died: a retry may take it over. */
const ABANDONED_AFTER_MS = 30_000;
/** status_code of a claimed key whose request is still running. */
const IN_PROGRESS = 0;

interface Claim {
  readonly userId: string;
  readonly key: string;
}

interface ClaimRequest extends Claim {
  readonly requestHash: string;
  readonly at: Date;
}

/** A claim taken now, or the row that was there before it. */
type ClaimOutcome = { readonly claimed: true } | { readonly claimed: false; readonly stored: Selectable<IdempotencyKeysTable> | undefined };

interface Answer extends Claim {
  readonly statusCode: number;
  readonly body: string;
}

/**
 * The idempotency_keys table, written in batches: every claim of a batch in one INSERT, every
 * answer in one UPDATE. One per process (the bid routes share it), so that concurrent requests
 * of every route share the batches.
 */
export class IdempotencyKeyStore {
  readonly #claims: DataLoader<ClaimRequest, ClaimOutcome>;
  readonly #answers: DataLoader<Answer, void>;

  constructor(private readonly db: Kysely<Database>) {
    this.#claims = oneBatchAtATime((requests) => this.#claimAll(requests));
    this.#answers = oneBatchAtATime((answers) => this.#answerAll(answers));
  }

  claim(request: ClaimRequest): Promise<ClaimOutcome> {
    return this.#claims.load(request);
  }

  answer(answer: Answer): Promise<void> {
    return this.#answers.load(answer);
  }

  /** Lets a retry run again: for answers not worth keeping (a server failure, "too busy"). */
  async release(claim: Claim): Promise<void> {
    await this.db.deleteFrom('idempotency_keys').where('user_id', '=', claim.userId).where('key', '=', claim.key).execute();
  }

  /** Takes over a claim whose request died (no answer after ABANDONED_AFTER_MS); false when it is still running. */
  async takeOver(claim: Claim, now: Date): Promise<boolean> {
    const takenOver = await this.db
      .updateTable('idempotency_keys')
      .set({ created_at: now })
      .where('user_id', '=', claim.userId)
      .where('key', '=', claim.key)
      .where('status_code', '=', IN_PROGRESS)
      .where('created_at', '<', new Date(now.getTime() - ABANDONED_AFTER_MS))
      .returning('key')
      .executeTakeFirst();
    return takenOver !== undefined;
  }

  async #claimAll(requests: readonly ClaimRequest[]): Promise<ClaimOutcome[]> {
    const rows = requests.map((request) => ({ user_id: request.userId, key: request.key, request_hash: request.requestHash, created_at: request.at.toISOString() }));
    // ON CONFLICT DO NOTHING also skips the second of two requests with one key in this batch.
    const { rows: claimed } = await sql<Claim>`
      INSERT INTO idempotency_keys (user_id, key, request_hash, status_code, body, created_at)
      SELECT user_id, key, request_hash, ${IN_PROGRESS}, '{}'::jsonb, created_at
      FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS claim(user_id text, key text, request_hash text, created_at timestamptz)
      ON CONFLICT (user_id, key) DO NOTHING
      RETURNING user_id AS "userId", key`.execute(this.db);
    const taken = new Set(claimed.map(claimName));
    const outcomes = requests.map((request): ClaimOutcome | undefined => (taken.delete(claimName(request)) ? { claimed: true } : undefined));
    const others = requests.filter((_, index) => outcomes[index] === undefined);
    const stored =
      others.length === 0
        ? []
        : await this.db
            .selectFrom('idempotency_keys')
            .selectAll()
            .where((eb) => eb.or(others.map((other) => eb.and([eb('user_id', '=', other.userId), eb('key', '=', other.key)]))))
            .execute();
    const storedByName = new Map(stored.map((row) => [claimName({ userId: row.user_id, key: row.key }), row]));
    return requests.map((request, index) => outcomes[index] ?? { claimed: false, stored: storedByName.get(claimName(request)) });
  }

  async #answerAll(answers: readonly Answer[]): Promise<void[]> {
    const rows = answers.map((answer) => ({ user_id: answer.userId, key: answer.key, status_code: answer.statusCode, body: answer.body }));
    await sql`
      UPDATE idempotency_keys AS kept SET status_code = answer.status_code, body = answer.body::jsonb
      FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS answer(user_id text, key text, status_code integer, body text)
      WHERE kept.user_id = answer.user_id AND kept.key = answer.key`.execute(this.db);
    return answers.map(() => undefined);
  }
}

function claimName(claim: Claim): string {
  return JSON.stringify([claim.userId, claim.key]);
}

/**
 * Idempotency-Key for one route, kept per user in idempotency_keys. The first request with a key
 * claims it with a placeholder row (an insert that does nothing on conflict, so of two concurrent
 * duplicates exactly one runs); its answer, success or refusal, is stored before it is sent. A
 * retry with the same key and body gets that answer again; with another body, 422. Claims and
 * answers of concurrent requests are written in batches (IdempotencyKeyStore): a hot auction's bids
 * cost two statements per batch, not per bid.
 *
 * Behind the table, the command id derives from (user, key), and the event ids from the command id:
 * the key's effect is in the log in the append's own transaction. Were the stored answer ever lost,
 * the append itself would recognise the repeated command and not act twice.
 */
export function idempotencyKeys(options: {
  readonly store: IdempotencyKeyStore;
  readonly clock: () => Date;
  /** What makes two requests the same request: the route and the meaning of the body. */
  readonly fingerprint: (request: FastifyRequest) => unknown;
}) {
  const { store, clock, fingerprint } = options;
  const claims = new WeakMap<FastifyRequest, Claim>();

  return {
    /** preHandler, after authentication: claims the key, or answers with the stored answer. */
    async claim(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | void> {
      const key = keyOf(request);
      if (key === undefined) return;
      const claim = { userId: request.actor!.userId, key };
      const requestHash = createHash('sha256').update(JSON.stringify(fingerprint(request))).digest('hex');
      const now = clock();
      const outcome = await store.claim({ ...claim, requestHash, at: now });
      if (outcome.claimed) return void claims.set(request, claim);

      const { stored } = outcome;
      if (stored && stored.request_hash !== requestHash) {
        throw new HttpError(422, 'Idempotency-Key was already used with a different request', 'IDEMPOTENCY_KEY_REUSED');
      }
      if (stored && stored.status_code !== IN_PROGRESS) {
        return reply.code(stored.status_code).header('idempotent-replayed', 'true').send(stored.body);
      }
      if (await store.takeOver(claim, now)) return void claims.set(request, claim);
      throw new HttpError(409, 'A request with this Idempotency-Key is still being processed; try again shortly', 'IDEMPOTENCY_KEY_IN_PROGRESS');
    },

    /** The command id: derived from the key when there is one, so that a repeat is recognised. */
    commandIdOf(request: FastifyRequest): string {
      const key = keyOf(request);
      return key === undefined ? randomUUID() : nameBasedId(`${request.actor!.userId}:${key}`, COMMAND_ID_NAMESPACE);
    },

    /**
     * onSend: stores the answer of a request that claimed a key. Server failures and "too busy"
     * are not answers to keep: the claim is released so that a retry runs again.
     */
    async record(request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> {
      const claim = claims.get(request);
      if (!claim) return payload;
      claims.delete(request);
      const body = answerToKeep(reply.statusCode, payload);
      if (body === null) await store.release(claim);
      else await store.answer({ ...claim, statusCode: reply.statusCode, body });
      return payload;
    },
  };
}

/**
 * The body to keep as a key's answer, or null to let a retry run again: after "too busy" (a 409
 * like a refusal, errors.ts, but a retry may well succeed), a server failure, or a body that is not
 * a JSON object (answers are written to a jsonb column in batches: one would fail them all). Only a
 * 409's body is parsed: the routes' serializer writes every other answer, an accepted bid's
 * receipt and all, as JSON.
 */
function answerToKeep(statusCode: number, payload: unknown): string | null {
  if (typeof payload !== 'string' || statusCode >= 500 || !payload.startsWith('{')) return null;
  if (statusCode !== 409) return payload;
  try {
    return (JSON.parse(payload) as { code?: unknown }).code === 'CONCURRENCY_CONFLICT' ? null : payload;
  } catch {
    return null;
  }
}

function keyOf(request: FastifyRequest): string | undefined {
  const key = request.headers['idempotency-key'];
  return typeof key === 'string' ? key : undefined;
}

import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import { outboxAnswerSchema, outboxQuerySchema, type OutboxMail } from '../contracts/admin/mail';
import { errorResponses } from '../contracts/common';
import type { AppDependencies } from '../dependencies';

/** GET /api/admin/mail: what the mail outbox holds, failed mail first by default, so that what could not be sent is seen. */
export const mailRoutes: FastifyPluginAsyncZod<{ deps: AppDependencies }> = async (app, { deps }) => {
  const { db } = deps;
  app.get(
    '/api/admin/mail',
    {
      onRequest: app.requireRole('ADMIN'),
      schema: {
        tags: ['admin'],
        summary: 'Mail in the outbox by status (FAILED by default: given up after its last attempt), newest first, with the counts of each',
        security: [{ bearer: [] }],
        querystring: outboxQuerySchema,
        response: { 200: outboxAnswerSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => {
      const { status, limit } = request.query;
      let query = db.selectFrom('mail_outbox').select(['id', 'recipient', 'subject', 'attempts', 'created_at', 'next_attempt_at', 'sent_at', 'failed_at', 'last_error']);
      if (status === 'SENT') query = query.where('sent_at', 'is not', null);
      else if (status === 'FAILED') query = query.where('failed_at', 'is not', null);
      else query = query.where('sent_at', 'is', null).where('failed_at', 'is', null);
      const [rows, counts] = await Promise.all([
        query.orderBy('created_at', 'desc').orderBy('id').limit(limit).execute(),
        db
          .selectFrom('mail_outbox')
          .select([
            sql<string | number>`count(*) filter (where sent_at is null and failed_at is null)`.as('pending'),
            sql<string | number>`count(*) filter (where sent_at is not null)`.as('sent'),
            sql<string | number>`count(*) filter (where failed_at is not null)`.as('failed'),
          ])
          .executeTakeFirstOrThrow(),
      ]);
      const iso = (at: Date | string | null) => (at === null ? null : new Date(at).toISOString());
      return {
        content: rows.map(
          (row): OutboxMail => ({
            id: row.id,
            recipient: row.recipient,
            subject: row.subject,
            status: row.sent_at !== null ? 'SENT' : row.failed_at !== null ? 'FAILED' : 'PENDING',
            attempts: row.attempts,
            createdAt: iso(row.created_at)!,
            nextAttemptAt: row.sent_at === null && row.failed_at === null ? iso(row.next_attempt_at) : null,
            sentAt: iso(row.sent_at),
            lastError: row.last_error,
          }),
        ),
        counts: { pending: Number(counts.pending), sent: Number(counts.sent), failed: Number(counts.failed) },
      };
    },
  );
};

import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import { errorResponses } from '../contracts/common';
import { markReadRequestSchema, notificationsPageSchema, notificationsQuerySchema, unreadCountSchema } from '../contracts/notifications';
import type { AppDependencies } from '../dependencies';
import { presentNotification } from './presenters';
import { NOTICES_CHANNEL } from './record';
import { unreadCounts } from './unread';

/** The signed-in user's notices (/api/v1/users/me/notifications): read them, newest first, and mark them read. */
export const notificationRoutes: FastifyPluginAsyncZod<{ deps: AppDependencies }> = async (app, { deps }) => {
  const { db } = deps;

  const unreadCountOf = async (userId: string) => (await unreadCounts(db, [userId])).get(userId) ?? 0;

  app.get(
    '/api/v1/users/me/notifications',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['users'],
        summary: "The signed-in user's notices, newest first, paged",
        security: [{ bearer: [] }],
        querystring: notificationsQuerySchema,
        response: { 200: notificationsPageSchema, ...errorResponses(400, 401) },
      },
    },
    async (request) => {
      const { page, size, unread } = request.query;
      const userId = request.actor!.userId;
      let mine = db.selectFrom('notifications').where('recipient_id', '=', userId);
      if (unread === 'true') mine = mine.where('read_at', 'is', null);
      const [rows, total, unreadCount] = await Promise.all([
        mine.selectAll().orderBy('sequence', 'desc').limit(size).offset(page * size).execute(),
        mine.select(sql<string | number>`count(*)`.as('n')).executeTakeFirstOrThrow(),
        unreadCountOf(userId),
      ]);
      const totalElements = Number(total.n);
      const totalPages = Math.ceil(totalElements / size);
      return {
        content: rows.map(presentNotification),
        unreadCount,
        totalElements,
        totalPages,
        number: page,
        size,
        first: page === 0,
        last: page >= totalPages - 1,
      };
    },
  );

  app.post(
    '/api/v1/users/me/notifications/read',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['users'],
        summary: 'Mark notices read: some by id, or all',
        description: "Ids that are not the user's own, or already read, are left alone. Answers the unread count after.",
        security: [{ bearer: [] }],
        body: markReadRequestSchema,
        response: { 200: unreadCountSchema, ...errorResponses(400, 401) },
      },
    },
    async (request) => {
      const userId = request.actor!.userId;
      const body = request.body;
      let marking = db.updateTable('notifications').set({ read_at: deps.clock() }).where('recipient_id', '=', userId).where('read_at', 'is', null);
      if ('ids' in body) marking = marking.where('id', 'in', body.ids);
      const marked = await marking.returning('id').execute();
      // The user's other devices hear of the new count.
      if (marked.length > 0) await sql`select pg_notify(${NOTICES_CHANNEL}, '')`.execute(db);
      return { unreadCount: await unreadCountOf(userId) };
    },
  );
};

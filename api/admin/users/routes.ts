import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { changeRoles } from '../../accounts/users';
import { userProfileSchema } from '../../contracts/accounts';
import { changeRolesRequestSchema } from '../../contracts/admin/users';
import { errorResponses } from '../../contracts/common';
import type { AppDependencies } from '../../dependencies';
import { HttpError } from '../../http/errors';
import { pendingEmailOf } from '../../accounts/account-tokens';
import { toProfile } from '../../users/profile';

const userParams = z.object({ id: z.uuid() });

export const OWN_ADMIN_ROLE = 'You cannot remove your own admin role';

/** Granting and revoking roles: ADMIN and AUDITOR (and BUYER) on another user, each change logged. */
export const adminUserRoutes: FastifyPluginAsyncZod<{ deps: AppDependencies }> = async (app, { deps }) => {
  app.put(
    '/api/admin/users/:id/roles',
    {
      schema: {
        tags: ['admin'],
        summary: "Set a user's roles (the whole set); they apply from the user's next sign-in or refresh",
        description: `Each change is logged with who made it. 409 "${OWN_ADMIN_ROLE}" when an admin would drop their own ADMIN.`,
        security: [{ bearer: [] }],
        params: userParams,
        body: changeRolesRequestSchema,
        response: { 200: userProfileSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => {
      const actor = request.actor!;
      const { id } = request.params;
      // An admin locking themselves out of the admin area would leave it to someone else to undo.
      if (id === actor.userId && !request.body.roles.includes('ADMIN')) throw new HttpError(409, OWN_ADMIN_ROLE, 'OWN_ADMIN_ROLE');
      const user = await changeRoles(deps.db, app.accountAccess, { userId: id, roles: request.body.roles, actorId: actor.userId }, deps.clock());
      if (!user) throw new HttpError(404, 'User not found', 'USER_NOT_FOUND');
      return toProfile(user, await pendingEmailOf(deps.db, user.id, deps.clock()));
    },
  );
};

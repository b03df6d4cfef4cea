import { z } from 'zod';
import { roleSchema } from '../accounts';

/** PUT /api/admin/users/{id}/roles: the user's whole set of roles. */
export const changeRolesRequestSchema = z.strictObject({
  roles: z.array(roleSchema).min(1, 'A user needs at least one role').max(3).describe('The whole set: BUYER, ADMIN and/or AUDITOR'),
});
export type ChangeRolesRequest = z.infer<typeof changeRolesRequestSchema>;

import { z } from 'zod';

/**
 * What every answer of the API may share: the one error shape (api/http/errors.ts builds it) and
 * the paged list around any item.
 */

/** One problem of a refused form, naming its field ("stats.touchdowns" for a nested one). */
export const fieldErrorSchema = z.object({ field: z.string(), message: z.string() });
export type FieldError = z.infer<typeof fieldErrorSchema>;

export const errorSchema = z.object({
  statusCode: z.number().int(),
  error: z.string(),
  message: z.string(),
  code: z.string().optional(),
  errors: z.array(fieldErrorSchema).optional().describe("A refused form's problems, each naming its field"),
});
export type ErrorAnswer = z.infer<typeof errorSchema>;

/** `{ 400: errorSchema, 401: errorSchema, ... }` for a route's declared error answers. */
export function errorResponses<const Status extends number>(...statuses: Status[]): Record<Status, typeof errorSchema> {
  return Object.fromEntries(statuses.map((status) => [status, errorSchema])) as Record<Status, typeof errorSchema>;
}

/** The paged list answer (Spring's shape, as the spec's client reads it) around any item. */
export function pageSchema<Item extends z.ZodType>(item: Item) {
  return z.object({
    content: z.array(item),
    totalElements: z.number(),
    totalPages: z.number(),
    number: z.number().describe('This page, from 0'),
    size: z.number(),
    first: z.boolean(),
    last: z.boolean(),
  });
}
export interface Page<Item> {
  readonly content: Item[];
  readonly totalElements: number;
  readonly totalPages: number;
  readonly number: number;
  readonly size: number;
  readonly first: boolean;
  readonly last: boolean;
}

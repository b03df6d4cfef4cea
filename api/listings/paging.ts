import { z } from 'zod';
import { listingCategorySchema, listingTagSchema } from '../../engine/domain';
import { LISTING_SORT_FIELDS, type ListingSortField } from './queries';

// Field names exactly as the spec's client sends them; the direction in either case, as Spring takes it.
const SORT_PATTERN = new RegExp(`^(${LISTING_SORT_FIELDS.join('|')})(,(asc|desc|ASC|DESC))?$`);

/** Postgres refuses text holding NUL: such input is a 400, never a database error. */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
export const printableText = (max: number) => z.string().max(max).regex(/^[^\u0000-\u001f\u007f]*$/, 'must not contain control characters');

/** The query parameters the marketplace and the admin's listing table share: paging, search, category, tag, sort. */
export const listingSearchQuery = z.object({
  page: z.coerce.number().int().min(0).max(1_000_000).default(0),
  size: z.coerce.number().int().min(1).max(100).default(20),
  search: printableText(200)
    .trim()
    .optional()
    .describe('Matches player, team, title and description; case-insensitive "contains"'),
  category: listingCategorySchema.optional(),
  // One value or the parameter repeated (tag=WORN&tag=MVP); always a list after parsing.
  tag: z
    .union([listingTagSchema, z.array(listingTagSchema).max(20)])
    .optional()
    .transform((tags) => (tags === undefined ? undefined : Array.isArray(tags) ? tags : [tags]))
    .describe(
      'Repeatable: listings whose tags include ANY of the given ones. SIGNED and AUTOGRAPHED name the same thing ' +
        '(cards show SIGNED for both), so either matches both: tag=SIGNED is the marketplace\'s "Signed" chip',
    ),
  sort: z
    .string()
    .regex(SORT_PATTERN, 'must be "{field},{direction}" with field createdAt, price, title or endsAt and direction asc or desc')
    .default('createdAt,desc')
    .transform(parseSort)
    .describe(
      '"{field},{direction}": createdAt, price, title, or endsAt (endsAt,asc = ending soonest; listings without an auction last); ' +
        'asc or desc. Default createdAt,desc',
    ),
});

export function toPage<Item>(content: Item[], total: number, page: number, size: number) {
  const totalPages = Math.ceil(total / size);
  return { content, totalElements: total, totalPages, number: page, size, first: page === 0, last: page >= totalPages - 1 };
}

function parseSort(text: string): { field: ListingSortField; direction: 'asc' | 'desc' } {
  const [field, direction = 'asc'] = text.split(',') as [ListingSortField, string?];
  return { field, direction: direction.toLowerCase() === 'desc' ? 'desc' : 'asc' };
}

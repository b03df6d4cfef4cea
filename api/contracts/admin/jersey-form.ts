import { z } from 'zod';
import { MAX_MEDIA_PER_LISTING } from '../../../engine/domain/listing/listing';

/**
 * The admin's jersey form (POST /api/admin/jerseys), and the one place its rules live: the route,
 * every row of a bulk import and the web form check with this schema, with messages naming the field.
 */

/** The form's team options, with the name a buyer reads. */
export const JERSEY_TEAMS = {
  patriots: 'New England Patriots',
  buccaneers: 'Tampa Bay Buccaneers',
  chiefs: 'Kansas City Chiefs',
} as const;
export type JerseyTeam = keyof typeof JERSEY_TEAMS;
export const JERSEY_SIZES = ['xs', 's', 'm', 'l', 'xl', 'xxl'] as const;
export const JERSEY_CONDITIONS = ['new', 'like-new', 'good', 'fair'] as const;

/** Form inputs arrive as text (HTML forms, spreadsheet cells) or as JSON numbers; blank means absent. */
const blankToUndefined = (value: unknown) => (value === null || (typeof value === 'string' && value.trim() === '') ? undefined : value);
const numeric = (value: unknown) => {
  const present = blankToUndefined(value);
  return typeof present === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(present) ? Number(present) : present;
};

const requiredText = (label: string, max: number) =>
  z.preprocess(blankToUndefined, z.string({ error: `${label} is required` }).trim().max(max, `${label} must be at most ${max} characters`));
const optionalText = (label: string, max: number) =>
  z.preprocess(blankToUndefined, z.string({ error: `${label} must be text` }).trim().max(max, `${label} must be at most ${max} characters`).optional());
const choice = <T extends string>(label: string, options: readonly T[]) =>
  z.preprocess(
    (value) => {
      const present = blankToUndefined(value);
      return typeof present === 'string' ? present.trim().toLowerCase() : present;
    },
    z.enum(options as [T, ...T[]], {
      error: (issue) => (issue.input === undefined ? `${label} is required` : `${label} must be one of ${options.join(', ')}`),
    }),
  );
const wholeNumber = (label: string, min: number, max: number) =>
  z
    .number({ error: (issue) => (issue.input === undefined ? `${label} is required` : `${label} must be a number`) })
    .int(`${label} must be a whole number`)
    .min(min, `${label} must be at least ${min}`)
    .max(max, `${label} must be at most ${max}`);

export const jerseyFormSchema = z.object({
  // Bounded so that the title made of it ("{name} #{n} {team} Jersey") stays within a listing's 200 characters.
  playerName: requiredText('Player name', 120),
  jerseyNumber: z.preprocess(numeric, wholeNumber('Jersey number', 0, 99)),
  team: choice('Team', Object.keys(JERSEY_TEAMS) as JerseyTeam[]),
  size: choice('Size', JERSEY_SIZES),
  condition: choice('Condition', JERSEY_CONDITIONS),
  gameTitle: optionalText('Game title', 200),
  gameDate: z.preprocess(blankToUndefined, z.iso.date({ error: 'Game date must be a date (YYYY-MM-DD)' }).optional()),
  opponent: optionalText('Opponent', 200),
  venue: optionalText('Venue', 200),
  stats: z
    .preprocess(
      (value) => blankToUndefined(value) ?? {},
      z.object(
        {
          touchdowns: z.preprocess(numeric, wholeNumber('Touchdowns', 0, 99).optional()),
          passingYards: z.preprocess(numeric, wholeNumber('Passing yards', -999, 9_999).optional()),
          completions: z.preprocess(numeric, wholeNumber('Completions', 0, 999).optional()),
        },
        { error: 'Stats must be an object' },
      ),
    ),
  description: optionalText('Description', 10_000),
  /** Not on the spec's form: the asking price in dollars, the auction's starting price unless publishing says otherwise. */
  price: z.preprocess(
    numeric,
    z
      .number({ error: 'Price must be a number' })
      .min(0, 'Price must be at least 0')
      .max(10_000_000, 'Price must be at most 10000000')
      .refine((dollars) => /^\d+(\.\d{1,2})?$/.test(String(dollars)), 'Price must be in whole cents')
      .optional(),
  ),
  mediaIds: z.preprocess(
    (value) => blankToUndefined(value) ?? [],
    z
      .array(z.string({ error: 'Media ids must be text' }).min(1).max(200), { error: 'Media ids must be a list' })
      .max(MAX_MEDIA_PER_LISTING, `A listing can have at most ${MAX_MEDIA_PER_LISTING} media files`),
  ),
  nfcUid: optionalText('NFC UID', 64),
});
export type JerseyForm = z.infer<typeof jerseyFormSchema>;

/** POST /api/admin/jerseys: the form, and whether to save the listing at once. */
export const jerseyRequestSchema = jerseyFormSchema.extend({
  save: z.boolean().default(true).describe('Save at once (needs at least one uploaded media file); false keeps a draft'),
});
export type JerseyRequest = z.infer<typeof jerseyRequestSchema>;

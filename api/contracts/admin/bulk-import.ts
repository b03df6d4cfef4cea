import { z } from 'zod';

/** POST /api/admin/bulk-import: what became of each row of the spreadsheet. */

/** The template's columns (the jersey form's fields, snake_case), in the template's order. */
export const TEMPLATE_COLUMNS = [
  'player_name',
  'jersey_number',
  'team',
  'size',
  'condition',
  'game_title',
  'game_date',
  'opponent',
  'venue',
  'touchdowns',
  'passing_yards',
  'completions',
  'description',
] as const;
export type TemplateColumn = (typeof TEMPLATE_COLUMNS)[number];

/** The jersey form's required fields; a file without one of these columns cannot make a listing. */
export const REQUIRED_COLUMNS: readonly TemplateColumn[] = ['player_name', 'jersey_number', 'team', 'size', 'condition'];

/** The template's sample row: an example an admin can read, and that imports cleanly as it stands. */
export const TEMPLATE_SAMPLE_ROW: Readonly<Record<TemplateColumn, string>> = {
  player_name: 'Tom Brady',
  jersey_number: '12',
  team: 'buccaneers',
  size: 'l',
  condition: 'good',
  game_title: 'Super Bowl LV',
  game_date: '2021-02-07',
  opponent: 'Kansas City Chiefs',
  venue: 'Raymond James Stadium',
  touchdowns: '3',
  passing_yards: '201',
  completions: '21',
  description: 'Game-worn jersey from Super Bowl LV, photo-matched to the broadcast.',
};

export const cellErrorSchema = z.object({ column: z.string(), message: z.string() });
export type CellError = z.infer<typeof cellErrorSchema>;

/** Cells as the import read them, indexed by column (the first is column A). */
const cellsAsRead = (what: string) =>
  z.array(z.string()).describe(`${what}; cells as read: dates as YYYY-MM-DD, numbers as written, a spreadsheet error as its text (#N/A)`);

export const bulkImportResultSchema = z.object({
  totalRows: z.number().int().describe('Rows below the header that hold anything (blank rows are skipped)'),
  created: z.number().int(),
  failed: z.number().int(),
  header: cellsAsRead("The file's header row, so that the refused rows can be written out under it to fix and import again"),
  listings: z
    .array(z.object({ row: z.number().int(), listingId: z.string(), slug: z.string() }))
    .describe('One DRAFT listing per valid row; add photos and save it from the admin form'),
  errors: z
    .array(
      z.object({
        row: z.number().int().describe('As the spreadsheet numbers it: the header is row 1'),
        cells: cellsAsRead("The row's cells, in the header's columns: the row to fix and import again"),
        errors: z.array(cellErrorSchema),
      }),
    )
    .describe('Every refused row with all its problems, each named by its column; such a row created nothing'),
});
export type BulkImportResult = z.infer<typeof bulkImportResultSchema>;

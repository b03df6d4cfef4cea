import { z } from 'zod';

/** POST /api/admin/bulk-import: what became of each row of the spreadsheet. */

export const cellErrorSchema = z.object({ column: z.string(), message: z.string() });
export type CellError = z.infer<typeof cellErrorSchema>;

export const bulkImportResultSchema = z.object({
  totalRows: z.number().int().describe('Rows below the header that hold anything (blank rows are skipped)'),
  created: z.number().int(),
  failed: z.number().int(),
  listings: z
    .array(z.object({ row: z.number().int(), listingId: z.string(), slug: z.string() }))
    .describe('One DRAFT listing per valid row; add photos and save it from the admin form'),
  errors: z
    .array(
      z.object({
        row: z.number().int().describe('As the spreadsheet numbers it: the header is row 1'),
        errors: z.array(cellErrorSchema),
      }),
    )
    .describe('Every refused row with all its problems, each named by its column; such a row created nothing'),
});
export type BulkImportResult = z.infer<typeof bulkImportResultSchema>;

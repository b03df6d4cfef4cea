import { stringify } from 'csv-stringify/browser/esm/sync';
import type { BulkImportResult } from '../../../../../api/contracts/admin/bulk-import';

/**
 * The refused rows of an import as a CSV to fix and import again, written by csv-stringify as the
 * audit export is: every field quoted (RFC 4180), CRLF lines as spreadsheets write CSV, and no cell
 * that a spreadsheet would run as a formula (one starting with = + - @, a tab or a carriage return
 * gets a leading single quote, shown as text). A quoted -1 then reads '-1, which the admin fixes
 * with the rest of the row.
 */
function csv(rows: readonly (readonly string[])[]): string {
  return stringify(rows as string[][], { quoted: true, quoted_empty: true, record_delimiter: 'windows', escape_formulas: true });
}

/** One field, defused and quoted. */
export function csvField(value: string): string {
  return csv([[value]]).slice(0, -2);
}

/** The file's header row, then each refused row's cells as the import read them. */
export function failedRowsCsv(result: Pick<BulkImportResult, 'header' | 'errors'>): string {
  return csv([result.header, ...result.errors.map((row) => row.cells)]);
}

/** "jerseys.xlsx" -> "jerseys-failed-rows.csv". */
export function failedRowsFilename(sourceName: string): string {
  const base = sourceName.replace(/\.[^.]*$/, '') || 'import';
  return `${base}-failed-rows.csv`;
}

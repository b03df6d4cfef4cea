import type { BulkImportResult } from '../../../../../api/contracts/admin/bulk-import';

/**
 * The refused rows of an import as a CSV to fix and import again. The file opens in a spreadsheet,
 * so no cell may run there as a formula (CSV injection): a cell starting with = + - @, a tab or a
 * carriage return gets a leading single quote, which spreadsheets show as text. A quoted -1 then
 * reads '-1, which the admin fixes with the rest of the row.
 */

const FORMULA_START = /^[=+\-@\t\r]/;

/** One field, defused and then quoted as RFC 4180 quotes (every field, so nothing depends on what it holds). */
export function csvField(value: string): string {
  const defused = FORMULA_START.test(value) ? `'${value}` : value;
  return `"${defused.replace(/"/g, '""')}"`;
}

/** The file's header row, then each refused row's cells as the import read them; CRLF lines, as spreadsheets write CSV. */
export function failedRowsCsv(result: Pick<BulkImportResult, 'header' | 'errors'>): string {
  return [result.header, ...result.errors.map((row) => row.cells)].map((cells) => `${cells.map(csvField).join(',')}\r\n`).join('');
}

/** "jerseys.xlsx" -> "jerseys-failed-rows.csv". */
export function failedRowsFilename(sourceName: string): string {
  const base = sourceName.replace(/\.[^.]*$/, '') || 'import';
  return `${base}-failed-rows.csv`;
}

import { TEMPLATE_COLUMNS, TEMPLATE_SAMPLE_ROW } from '../../contracts/admin/bulk-import';

export const TEMPLATE_FILENAME = 'jersey_import_template.csv';

/** RFC 4180: a field with a comma, quote or line break goes in quotes, its quotes doubled. */
function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** The header row and the sample row, CRLF-terminated as spreadsheets write CSV. */
export function templateCsv(): string {
  return [TEMPLATE_COLUMNS, TEMPLATE_COLUMNS.map((column) => TEMPLATE_SAMPLE_ROW[column])].map((row) => `${row.map(csvField).join(',')}\r\n`).join('');
}

import * as XLSX from '@e965/xlsx';
import { REQUIRED_COLUMNS, TEMPLATE_COLUMNS, type CellError, type TemplateColumn } from '../../contracts/admin/bulk-import';
import type { JerseyForm } from '../../contracts/admin/jersey-form';
import { HttpError } from '../../http/errors';
import { isWellFormedText, malformedTextMessage } from '../../http/well-formed-input';
import { validateJerseyForm } from '../listings/jersey-form';
import type { SheetCell, SheetRow } from './read-sheet';

/** Where each column goes in the jersey form: the field path validateJerseyForm names in its errors. */
const FORM_FIELD_OF_COLUMN: Record<TemplateColumn, string> = {
  player_name: 'playerName',
  jersey_number: 'jerseyNumber',
  team: 'team',
  size: 'size',
  condition: 'condition',
  game_title: 'gameTitle',
  game_date: 'gameDate',
  opponent: 'opponent',
  venue: 'venue',
  touchdowns: 'stats.touchdowns',
  passing_yards: 'stats.passingYards',
  completions: 'stats.completions',
  description: 'description',
};
const COLUMN_OF_FORM_FIELD = new Map(Object.entries(FORM_FIELD_OF_COLUMN).map(([column, field]) => [field, column]));

/** Which template column each cell index holds. */
export type ColumnLayout = ReadonlyMap<number, TemplateColumn>;

const TEMPLATE_LIST = TEMPLATE_COLUMNS.join(', ');

/**
 * The header row's columns, matched case-insensitively and trimmed. A file with unknown or repeated
 * columns, or without a required one, is refused whole: guessing would put values in the wrong fields.
 * A column without a header is ignored when it is empty in every row.
 */
export function readHeader(header: SheetRow, dataRows: readonly SheetRow[]): ColumnLayout {
  const layout = new Map<number, TemplateColumn>();
  const unknown: string[] = [];
  const repeated: string[] = [];
  header.cells.forEach((cell, index) => {
    const name = typeof cell === 'string' ? cell.trim().toLowerCase() : cell.spreadsheetError;
    if (name === '') {
      if (dataRows.some((row) => !isBlankCell(row.cells[index]))) {
        throw new HttpError(400, `Column ${XLSX.utils.encode_col(index)} has values but no header; the template's columns are: ${TEMPLATE_LIST}`, 'UNNAMED_COLUMN');
      }
      return;
    }
    if (!(TEMPLATE_COLUMNS as readonly string[]).includes(name)) unknown.push(name);
    else if ([...layout.values()].includes(name as TemplateColumn)) repeated.push(name);
    else layout.set(index, name as TemplateColumn);
  });
  if (unknown.length > 0) {
    throw new HttpError(400, `Unknown columns: ${unknown.join(', ')}. The template's columns are: ${TEMPLATE_LIST}`, 'UNKNOWN_COLUMNS');
  }
  if (repeated.length > 0) throw new HttpError(400, `Columns appear more than once: ${repeated.join(', ')}`, 'REPEATED_COLUMNS');
  const present = new Set(layout.values());
  const missing = REQUIRED_COLUMNS.filter((column) => !present.has(column));
  if (missing.length > 0) throw new HttpError(400, `Missing required columns: ${missing.join(', ')}`, 'MISSING_COLUMNS');
  return layout;
}

const isBlankCell = (cell: SheetCell | undefined) => cell === undefined || (typeof cell === 'string' && cell.trim() === '');

/** One row checked as the jersey form checks it, each problem named by its column. */
export function validateRow(layout: ColumnLayout, row: SheetRow): { form: JerseyForm } | { errors: CellError[] } {
  const input: { stats: Record<string, string> } & Record<string, unknown> = { stats: {} };
  const cellErrors = new Map<TemplateColumn, CellError>();
  for (const [index, column] of layout) {
    const cell = row.cells[index] ?? '';
    if (typeof cell !== 'string') {
      cellErrors.set(column, { column, message: `${column} holds the spreadsheet error ${cell.spreadsheetError}` });
      continue;
    }
    // A workbook's escapes can spell NUL or a lone surrogate, which the HTTP boundary never sees.
    if (!isWellFormedText(cell)) {
      cellErrors.set(column, { column, message: malformedTextMessage(column) });
      continue;
    }
    const [field, stat] = FORM_FIELD_OF_COLUMN[column].split('.') as [string, string | undefined];
    if (stat === undefined) input[field] = cell;
    else input.stats[stat] = cell;
  }
  const validated = validateJerseyForm(input);
  if (!validated.errors && cellErrors.size === 0) return { form: validated.form };

  // A cell holding an error value is reported once, as that, not again as "required".
  const formErrors = (validated.errors ?? [])
    .map((error) => ({ column: COLUMN_OF_FORM_FIELD.get(error.field) ?? error.field, message: error.message }))
    .filter((error) => !cellErrors.has(error.column as TemplateColumn));
  const templateOrder = (error: CellError) => TEMPLATE_COLUMNS.indexOf(error.column as TemplateColumn);
  return { errors: [...cellErrors.values(), ...formErrors].sort((a, b) => templateOrder(a) - templateOrder(b)) };
}

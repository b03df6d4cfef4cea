import { REQUIRED_COLUMNS, TEMPLATE_COLUMNS, TEMPLATE_SAMPLE_ROW, type TemplateColumn } from '../../../../../api/contracts/admin/bulk-import';
import { JERSEY_CONDITIONS, JERSEY_SIZES, JERSEY_TEAMS } from '../../../../../api/contracts/admin/jersey-form';

/** "a, b or c". */
const oneOf = (options: readonly string[]) => `${options.slice(0, -1).join(', ')} or ${options.at(-1)}`;

/** What each column takes, as the jersey form checks it (its options come from the form's own lists). */
const ACCEPTS: Record<TemplateColumn, string> = {
  player_name: 'Text, up to 120 characters',
  jersey_number: 'Whole number, 0 to 99',
  team: oneOf(Object.keys(JERSEY_TEAMS)),
  size: oneOf(JERSEY_SIZES),
  condition: oneOf(JERSEY_CONDITIONS),
  game_title: 'Text, up to 200 characters',
  game_date: 'Date, YYYY-MM-DD',
  opponent: 'Text, up to 200 characters',
  venue: 'Text, up to 200 characters',
  touchdowns: 'Whole number, 0 to 99',
  passing_yards: 'Whole number, -999 to 9999',
  completions: 'Whole number, 0 to 999',
  description: 'Text, up to 10,000 characters',
};

export interface FormatRow {
  readonly column: TemplateColumn;
  readonly required: boolean;
  readonly accepts: string;
  readonly example: string;
}

/** The expected-format table: the template's columns in order, each with the template's own sample value. */
export const EXPECTED_FORMAT: readonly FormatRow[] = TEMPLATE_COLUMNS.map((column) => ({
  column,
  required: REQUIRED_COLUMNS.includes(column),
  accepts: ACCEPTS[column],
  example: TEMPLATE_SAMPLE_ROW[column],
}));

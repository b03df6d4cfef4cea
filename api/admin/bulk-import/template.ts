import { TEMPLATE_COLUMNS, type TemplateColumn } from './columns';

export const TEMPLATE_FILENAME = 'jersey_import_template.csv';

/** One row an admin can read as an example, and that imports cleanly as it stands. */
const SAMPLE_ROW: Record<TemplateColumn, string> = {
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

/** RFC 4180: a field with a comma, quote or line break goes in quotes, its quotes doubled. */
function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** The header row and the sample row, CRLF-terminated as spreadsheets write CSV. */
export function templateCsv(): string {
  return [TEMPLATE_COLUMNS, TEMPLATE_COLUMNS.map((column) => SAMPLE_ROW[column])].map((row) => `${row.map(csvField).join(',')}\r\n`).join('');
}

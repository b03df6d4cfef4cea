import * as XLSX from '@e965/xlsx';
import { CsvError, parse as parseCsv } from 'csv-parse/sync';
import { HttpError } from '../../http/errors';
import { assertSafeZipArchive } from './zip-limits';

/**
 * An uploaded import file, from bytes to rows of text cells: the format decided by the file's name
 * AND its bytes, the work bounded before a parser runs, the rows numbered as a spreadsheet shows them.
 */

export type SheetFormat = 'csv' | 'xlsx' | 'xls';
export const ACCEPTED_EXTENSIONS = ['.csv', '.xlsx', '.xls'] as const;
const ACCEPTED = ACCEPTED_EXTENSIONS.join(', ');

/** Rows below the header one import takes; a bigger catalogue goes in several files. */
export const MAX_DATA_ROWS = 1000;
/** The header is row 1, so nothing may sit below this row. */
const LAST_ROW = MAX_DATA_ROWS + 1;
/** The template has 13 columns; a sheet far wider than that is not an import sheet. */
const MAX_COLUMNS = 50;
/** Characters in one CSV record: all 13 cells at their longest (a description is 10,000) fit easily. */
const MAX_CSV_RECORD_CHARACTERS = 64 * 1024;

/** A cell as text; a spreadsheet's error value (#N/A, #DIV/0!) is kept apart so it is never taken as text. */
export type SheetCell = string | { readonly spreadsheetError: string };

export interface SheetRow {
  /** The row's number as a spreadsheet shows it (the first line is 1). */
  readonly row: number;
  /** Indexed by column: cells[0] is column A. */
  readonly cells: readonly SheetCell[];
}

const ZIP_SIGNATURE = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
const OLE2_SIGNATURE = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
type Contents = 'a zip (.xlsx) workbook' | 'an OLE2 (.xls) workbook' | 'text' | 'binary data';
const CONTENTS_OF_FORMAT: Record<SheetFormat, Contents> = { xlsx: 'a zip (.xlsx) workbook', xls: 'an OLE2 (.xls) workbook', csv: 'text' };

function contentsOf(bytes: Buffer): Contents {
  if (bytes.subarray(0, ZIP_SIGNATURE.length).equals(ZIP_SIGNATURE)) return 'a zip (.xlsx) workbook';
  if (bytes.subarray(0, OLE2_SIGNATURE.length).equals(OLE2_SIGNATURE)) return 'an OLE2 (.xls) workbook';
  return bytes.includes(0) ? 'binary data' : 'text';
}

/** The format the file's extension names, provided its bytes are that format. */
export function sheetFormatOf(filename: string, bytes: Buffer): SheetFormat {
  const extension = /\.[^.]*$/.exec(filename.trim().toLowerCase())?.[0] ?? '';
  const format = extension.slice(1) as SheetFormat;
  if (!(ACCEPTED_EXTENSIONS as readonly string[]).includes(extension)) {
    throw new HttpError(415, `Unsupported file type "${extension || filename}": accepted types are ${ACCEPTED}`, 'UNSUPPORTED_FILE_TYPE');
  }
  const contents = contentsOf(bytes);
  if (contents !== CONTENTS_OF_FORMAT[format]) {
    throw new HttpError(415, `The file is named ${extension} but holds ${contents}, not ${CONTENTS_OF_FORMAT[format]}; accepted types are ${ACCEPTED}`, 'FILE_TYPE_MISMATCH');
  }
  return format;
}

/**
 * The file's rows that hold anything, header first. Refuses a file with rows past LAST_ROW or wider
 * than MAX_COLUMNS, and one that cannot be read, before any row is looked at.
 */
export function readSheetRows(format: SheetFormat, bytes: Buffer): SheetRow[] {
  return format === 'csv' ? readCsvRows(bytes) : readWorkbookRows(format, bytes);
}

function tooManyRows(lastRow: number): HttpError {
  return new HttpError(
    400,
    `A bulk import takes at most ${MAX_DATA_ROWS} rows below the header (up to row ${LAST_ROW}); this file goes on to row ${lastRow}. Split it into several files`,
    'TOO_MANY_ROWS',
  );
}

function tooManyColumns(columns: number): HttpError {
  return new HttpError(400, `The sheet has ${columns} columns; an import sheet has the template's 13 (at most ${MAX_COLUMNS})`, 'TOO_MANY_COLUMNS');
}

const isBlank = (cells: readonly SheetCell[]) => cells.every((cell) => typeof cell === 'string' && cell.trim() === '');

function readCsvRows(bytes: Buffer): SheetRow[] {
  const text = decodeText(bytes);
  const rows: SheetRow[] = [];
  let lastFilledRow = 0;
  try {
    parseCsv(text, {
      bom: true,
      relax_column_count: false,
      skip_empty_lines: true,
      max_record_size: MAX_CSV_RECORD_CHARACTERS,
      // Rows are collected here, not by the parser: rows past the limit are only counted, so a
      // 10 MB file of tiny rows is never held in memory.
      on_record: (cells, context) => {
        // Skipped empty lines still take a row in a spreadsheet: count them, as it shows the file.
        const row = context.records + context.empty_lines;
        if (!isBlank(cells)) {
          lastFilledRow = row;
          if (row <= LAST_ROW) rows.push({ row, cells });
        }
        return null;
      },
    });
  } catch (error) {
    if (error instanceof CsvError) throw new HttpError(400, `The CSV file could not be read: ${error.message}`, 'MALFORMED_FILE');
    throw error;
  }
  if (lastFilledRow > LAST_ROW) throw tooManyRows(lastFilledRow);
  // Every record has the header's width (relax_column_count is off), so the first one tells.
  if ((rows[0]?.cells.length ?? 0) > MAX_COLUMNS) throw tooManyColumns(rows[0]!.cells.length);
  return rows;
}

/** UTF-8 (Excel's "CSV UTF-8"), else Windows-1252, which Excel's plain "CSV" writes. */
function decodeText(bytes: Buffer): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder('windows-1252').decode(bytes);
  }
}

function readWorkbookRows(format: 'xlsx' | 'xls', bytes: Buffer): SheetRow[] {
  if (format === 'xlsx') assertSafeZipArchive(bytes);
  let workbook: XLSX.WorkBook;
  try {
    workbook = XLSX.read(bytes, {
      type: 'buffer',
      // The first sheet only, only as many rows as an import takes, and no formulas, HTML or styles.
      sheets: 0,
      sheetRows: LAST_ROW,
      dense: true,
      cellFormula: false,
      cellHTML: false,
      cellStyles: false,
      // Number formats tell a date cell from a number cell.
      cellNF: true,
      bookVBA: false,
    });
  } catch (error) {
    throw new HttpError(400, `The .${format} file could not be read: ${(error as Error).message}`, 'MALFORMED_FILE');
  }
  const sheetName = workbook.SheetNames[0];
  const sheet = sheetName === undefined ? undefined : (workbook.Sheets[sheetName] as XLSX.DenseWorkSheet | undefined);
  if (!sheet?.['!ref']) return [];
  // With sheetRows, SheetJS keeps the sheet's whole extent in !fullref and reads only the rows before LAST_ROW.
  const extent = XLSX.utils.decode_range((sheet['!fullref'] as string | undefined) ?? sheet['!ref']);
  if (extent.e.r + 1 > LAST_ROW) throw tooManyRows(extent.e.r + 1);
  if (extent.e.c + 1 > MAX_COLUMNS) throw tooManyColumns(extent.e.c + 1);

  const read = XLSX.utils.decode_range(sheet['!ref']);
  const data = sheet['!data'] ?? [];
  const rows: SheetRow[] = [];
  for (let r = read.s.r; r <= read.e.r; r++) {
    const cells: SheetCell[] = [];
    for (let c = 0; c <= read.e.c; c++) cells.push(cellText(data[r]?.[c]));
    if (!isBlank(cells)) rows.push({ row: r + 1, cells });
  }
  return rows;
}

/**
 * A cell as the admin typed it: numbers as written, dates as YYYY-MM-DD, errors apart. Without the
 * cellDates option SheetJS gives date cells as serial numbers with a date format, never as Dates.
 */
function cellText(cell: XLSX.CellObject | undefined): SheetCell {
  if (!cell || cell.v === undefined || cell.v === null) return '';
  switch (cell.t) {
    case 'e':
      return { spreadsheetError: cell.w ?? '#ERROR' };
    case 'n':
      if (typeof cell.v === 'number' && cell.z !== undefined && XLSX.SSF.is_date(cell.z)) {
        const date = XLSX.SSF.parse_date_code(cell.v) as { y: number; m: number; d: number } | null;
        if (date) return isoDate(date.y, date.m, date.d);
      }
      return String(cell.v);
    case 'b':
      return cell.v ? 'TRUE' : 'FALSE';
    default:
      return String(cell.v);
  }
}

function isoDate(year: number, month: number, day: number): string {
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

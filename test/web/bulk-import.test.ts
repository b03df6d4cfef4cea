import { parse } from 'csv-parse/sync';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromCallback, type EventObject } from 'xstate';
import type { BulkImportResult } from '../../api/contracts/admin/bulk-import';
import { ApiError, setAccessTokenSource } from '../../web/src/lib/api-client';
import { sendSheet } from '../../web/src/features/admin/bulk-import/bulk-import-api';
import { bulkImportMachine, percentSent, type BulkImportEvent } from '../../web/src/features/admin/bulk-import/bulk-import-machine';
import { EXPECTED_FORMAT } from '../../web/src/features/admin/bulk-import/expected-format';
import { csvField, failedRowsCsv, failedRowsFilename } from '../../web/src/features/admin/bulk-import/failed-rows-csv';

const HEADER = ['player_name', 'jersey_number', 'team', 'size', 'condition'];

function result(overrides: Partial<BulkImportResult> = {}): BulkImportResult {
  return {
    totalRows: 3,
    created: 1,
    failed: 2,
    header: HEADER,
    listings: [{ row: 2, listingId: 'listing-1', slug: 'tom-brady-12-buccaneers-jersey' }],
    errors: [
      { row: 3, cells: ['Bad Team', '12', 'raiders', 'l', 'good'], errors: [{ column: 'team', message: 'Team must be one of patriots, buccaneers, chiefs' }] },
      { row: 4, cells: ['=HYPERLINK("http://evil")', '-1', 'chiefs', 'l', 'good'], errors: [{ column: 'jersey_number', message: 'Jersey number must be at least 0' }] },
    ],
    ...overrides,
  };
}

describe('the failed-rows CSV', () => {
  it('quotes every field and doubles its quotes (RFC 4180)', () => {
    expect(csvField('Tom Brady')).toBe('"Tom Brady"');
    expect(csvField('')).toBe('""');
    expect(csvField('Tom "TB12" Brady')).toBe('"Tom ""TB12"" Brady"');
    expect(csvField('Two lines,\nof text')).toBe('"Two lines,\nof text"');
  });

  it('defuses every cell a spreadsheet would run as a formula: = + - @, tab and carriage return first get a single quote', () => {
    expect(csvField('=1+2')).toBe(`"'=1+2"`);
    expect(csvField('+1')).toBe(`"'+1"`);
    expect(csvField('-1')).toBe(`"'-1"`);
    expect(csvField('@SUM(A1)')).toBe(`"'@SUM(A1)"`);
    expect(csvField('\t=cmd')).toBe(`"'\t=cmd"`);
    expect(csvField('\r=cmd')).toBe(`"'\r=cmd"`);
    expect(csvField('=HYPERLINK("http://evil")')).toBe(`"'=HYPERLINK(""http://evil"")"`);
    // Only the first character counts: these are text already.
    expect(csvField('a=b')).toBe('"a=b"');
    expect(csvField(' =1')).toBe('" =1"');
    expect(csvField('like-new')).toBe('"like-new"');
  });

  it('holds the header and only the refused rows, CRLF-terminated, and reads back as those rows', () => {
    const csv = failedRowsCsv(result());
    expect(csv.split('\r\n')).toEqual([
      '"player_name","jersey_number","team","size","condition"',
      '"Bad Team","12","raiders","l","good"',
      `"'=HYPERLINK(""http://evil"")","'-1","chiefs","l","good"`,
      '',
    ]);
    expect(parse(csv)).toEqual([HEADER, ['Bad Team', '12', 'raiders', 'l', 'good'], [`'=HYPERLINK("http://evil")`, "'-1", 'chiefs', 'l', 'good']]);
  });

  it('keeps cells with line breaks, commas and quotes whole', () => {
    const csv = failedRowsCsv(result({ errors: [{ row: 9, cells: ['Tom "TB12" Brady', '12', 'chiefs', 'l', 'Two lines,\r\nof text'], errors: [] }] }));
    expect(parse(csv)).toEqual([HEADER, ['Tom "TB12" Brady', '12', 'chiefs', 'l', 'Two lines,\r\nof text']]);
  });

  it('is named after the imported file', () => {
    expect(failedRowsFilename('jerseys.xlsx')).toBe('jerseys-failed-rows.csv');
    expect(failedRowsFilename('week 3.final.csv')).toBe('week 3.final-failed-rows.csv');
    expect(failedRowsFilename('.csv')).toBe('import-failed-rows.csv');
  });
});

describe('the expected-format table', () => {
  it("lists the template's 13 columns in order, the five required ones, and the template's sample values", () => {
    expect(EXPECTED_FORMAT.map((row) => row.column)).toEqual([
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
    ]);
    expect(EXPECTED_FORMAT.filter((row) => row.required).map((row) => row.column)).toEqual(HEADER);
    expect(EXPECTED_FORMAT.find((row) => row.column === 'team')).toMatchObject({ accepts: 'patriots, buccaneers or chiefs', example: 'buccaneers' });
    expect(EXPECTED_FORMAT.find((row) => row.column === 'size')?.accepts).toBe('xs, s, m, l, xl or xxl');
  });
});

/** The machine with its upload replaced: the test sends what the request would report. */
function start() {
  const uploads: Array<{ file: File; stopped: boolean; report: (event: BulkImportEvent) => void }> = [];
  const actor = createActor(
    bulkImportMachine.provide({
      actors: {
        uploadSheet: fromCallback<EventObject, { file: File }>(({ input, sendBack }) => {
          const upload = { file: input.file, stopped: false, report: sendBack };
          uploads.push(upload);
          return () => {
            upload.stopped = true;
          };
        }),
      },
    }),
  ).start();
  return { actor, uploads, state: () => actor.getSnapshot() };
}

const csvFile = (name = 'jerseys.csv') => new File(['player_name\nTom'], name, { type: 'text/csv' });

describe('the bulk import flow: idle -> chosen -> uploading -> done | failed', () => {
  it('uploads the chosen file, showing the share of bytes sent, then the result', () => {
    const { actor, uploads, state } = start();
    expect(state().value).toBe('idle');
    actor.send({ type: 'UPLOAD' });
    expect(state().value).toBe('idle');

    const file = csvFile();
    actor.send({ type: 'CHOOSE', file });
    expect(state().value).toBe('chosen');
    expect(state().context.file).toBe(file);

    actor.send({ type: 'UPLOAD' });
    expect(state().value).toBe('uploading');
    expect(uploads).toHaveLength(1);
    expect(uploads[0]!.file).toBe(file);
    expect(percentSent(state().context.progress)).toBe(0);

    uploads[0]!.report({ type: 'PROGRESS', loaded: 450, total: 1000 });
    expect(percentSent(state().context.progress)).toBe(45);
    uploads[0]!.report({ type: 'PROGRESS', loaded: 1000, total: 1000 });
    expect(percentSent(state().context.progress)).toBe(100);

    // While the file is on its way, another cannot replace it.
    actor.send({ type: 'CHOOSE', file: csvFile('other.csv') });
    expect(state().context.file).toBe(file);

    const answer = result();
    uploads[0]!.report({ type: 'UPLOADED', result: answer });
    expect(state().value).toBe('done');
    expect(state().context).toMatchObject({ result: answer, error: null, progress: null, file });
    expect(uploads[0]!.stopped).toBe(true);
  });

  it('a refused file shows the reason; Upload & Process tries again; a new file starts over', () => {
    const { actor, uploads, state } = start();
    actor.send({ type: 'CHOOSE', file: csvFile() });
    actor.send({ type: 'UPLOAD' });
    uploads[0]!.report({ type: 'UPLOAD_FAILED', message: 'Unknown columns: price' });
    expect(state().value).toBe('failed');
    expect(state().context.error).toBe('Unknown columns: price');

    actor.send({ type: 'UPLOAD' });
    expect(state().value).toBe('uploading');
    expect(state().context.error).toBeNull();
    expect(uploads).toHaveLength(2);
    uploads[1]!.report({ type: 'UPLOAD_FAILED', message: 'Network error' });

    const fixed = csvFile('fixed.csv');
    actor.send({ type: 'CHOOSE', file: fixed });
    expect(state().value).toBe('chosen');
    expect(state().context).toMatchObject({ file: fixed, error: null });
  });

  it("the chooser's refusal is shown without losing the file already chosen; Remove and Import another file start over", () => {
    const { actor, uploads, state } = start();
    actor.send({ type: 'REFUSE', message: 'Only .csv, .xlsx or .xls files can be imported' });
    expect(state().value).toBe('idle');
    expect(state().context.error).toBe('Only .csv, .xlsx or .xls files can be imported');

    const file = csvFile();
    actor.send({ type: 'CHOOSE', file });
    expect(state().context.error).toBeNull();
    actor.send({ type: 'REFUSE', message: 'File is larger than 10 MB' });
    expect(state().value).toBe('chosen');
    expect(state().context).toMatchObject({ file, error: 'File is larger than 10 MB' });

    actor.send({ type: 'CLEAR' });
    expect(state().value).toBe('idle');
    expect(state().context).toMatchObject({ file: null, error: null, result: null });

    actor.send({ type: 'CHOOSE', file });
    actor.send({ type: 'UPLOAD' });
    uploads[0]!.report({ type: 'UPLOADED', result: result() });
    actor.send({ type: 'CLEAR' });
    expect(state().value).toBe('idle');
    expect(state().context).toMatchObject({ file: null, result: null });
  });

  it('percentSent is whole, capped at 100, and 0 before anything is known', () => {
    expect(percentSent(null)).toBe(0);
    expect(percentSent({ loaded: 0, total: 0 })).toBe(0);
    expect(percentSent({ loaded: 1, total: 3 })).toBe(33);
    expect(percentSent({ loaded: 5, total: 4 })).toBe(100);
  });
});

/** Just enough of XMLHttpRequest for sendSheet: the test plays the network's part. */
class FakeRequest {
  static last: FakeRequest | null = null;
  readonly headers: Record<string, string> = {};
  readonly listeners = new Map<string, () => void>();
  readonly upload = { addEventListener: (_type: 'progress', listener: (event: { lengthComputable: boolean; loaded: number; total: number }) => void) => (this.onProgress = listener) };
  onProgress: ((event: { lengthComputable: boolean; loaded: number; total: number }) => void) | null = null;
  method = '';
  url = '';
  body: FormData | null = null;
  timeout = 0;
  status = 0;
  responseText = '';
  aborted = false;
  constructor() {
    FakeRequest.last = this;
  }
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  addEventListener(type: string, listener: () => void) {
    this.listeners.set(type, listener);
  }
  send(body: FormData) {
    this.body = body;
  }
  abort() {
    this.aborted = true;
    this.listeners.get('abort')?.();
  }
  answer(status: number, body: unknown) {
    this.status = status;
    this.responseText = typeof body === 'string' ? body : JSON.stringify(body);
    this.listeners.get('load')?.();
  }
}

describe('sendSheet: the upload itself', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    setAccessTokenSource(() => null);
  });

  function send(file = csvFile()) {
    vi.stubGlobal('XMLHttpRequest', FakeRequest);
    setAccessTokenSource(() => 'admin-token');
    const progress: Array<[number, number]> = [];
    const abort = new AbortController();
    const sent = sendSheet(file, (loaded, total) => progress.push([loaded, total]), abort.signal);
    return { sent, progress, abort, request: FakeRequest.last! };
  }

  it('POSTs the file in the multipart field "file" with the admin token, reports progress and resolves with the result', async () => {
    const file = csvFile();
    const { sent, progress, request } = send(file);
    expect(request.method).toBe('POST');
    expect(request.url).toBe('/api/admin/bulk-import');
    expect(request.headers).toMatchObject({ authorization: 'Bearer admin-token', accept: 'application/json' });
    expect(request.body!.get('file')).toBeInstanceOf(File);
    expect((request.body!.get('file') as File).name).toBe('jerseys.csv');

    request.onProgress!({ lengthComputable: true, loaded: 10, total: 40 });
    request.onProgress!({ lengthComputable: false, loaded: 20, total: 0 });
    request.onProgress!({ lengthComputable: true, loaded: 40, total: 40 });
    expect(progress).toEqual([
      [10, 40],
      [40, 40],
    ]);
    request.answer(201, result());
    await expect(sent).resolves.toEqual(result());
  });

  it("rejects with the server's own message and status", async () => {
    const { sent, request } = send();
    request.answer(415, { statusCode: 415, code: 'UNSUPPORTED_FILE_TYPE', message: 'Unsupported file type ".txt": accepted types are .csv, .xlsx, .xls' });
    const error = await sent.catch((failure: unknown) => failure);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 415, code: 'UNSUPPORTED_FILE_TYPE', message: 'Unsupported file type ".txt": accepted types are .csv, .xlsx, .xls' });
  });

  it('rejects on a network failure, and stops the request when aborted', async () => {
    const failing = send();
    failing.request.listeners.get('error')!();
    await expect(failing.sent).rejects.toMatchObject({ status: 0, code: 'NETWORK', message: 'Network error' });

    const stopped = send();
    stopped.abort.abort();
    expect(stopped.request.aborted).toBe(true);
    await expect(stopped.sent).rejects.toMatchObject({ name: 'AbortError' });
  });

  it("drives the page's machine: progress, the result, the server's reason, and Try Again", async () => {
    vi.stubGlobal('XMLHttpRequest', FakeRequest);
    const actor = createActor(bulkImportMachine).start();
    actor.send({ type: 'CHOOSE', file: csvFile() });
    actor.send({ type: 'UPLOAD' });
    FakeRequest.last!.onProgress!({ lengthComputable: true, loaded: 3, total: 4 });
    expect(percentSent(actor.getSnapshot().context.progress)).toBe(75);
    FakeRequest.last!.answer(400, { statusCode: 400, message: 'Missing required columns: team, size' });
    await vi.waitFor(() => expect(actor.getSnapshot().value).toBe('failed'));
    expect(actor.getSnapshot().context.error).toBe('Missing required columns: team, size');

    actor.send({ type: 'UPLOAD' });
    FakeRequest.last!.answer(201, result());
    await vi.waitFor(() => expect(actor.getSnapshot().value).toBe('done'));
    expect(actor.getSnapshot().context.result).toEqual(result());
  });
});

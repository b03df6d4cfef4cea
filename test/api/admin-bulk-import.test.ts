import { crc32, deflateRawSync } from 'node:zlib';
import * as XLSX from '@e965/xlsx';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listingStreamId } from '../../engine/domain';
import { API_BACKENDS, startTestApi, type TestApi } from '../support/api';

const TEMPLATE_HEADER = 'player_name,jersey_number,team,size,condition,game_title,game_date,opponent,venue,touchdowns,passing_yards,completions,description';
const TEN_MEGABYTES = 10 * 1024 * 1024;
const MEGABYTE = 1024 * 1024;

/** A workbook of one sheet, written by SheetJS as Excel would save it. */
function workbook(rows: unknown[][], bookType: 'xlsx' | 'biff8', edit: (sheet: XLSX.WorkSheet) => void = () => undefined): Buffer {
  const sheet = XLSX.utils.aoa_to_sheet(rows);
  edit(sheet);
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, sheet, 'Jerseys');
  return XLSX.write(book, { type: 'buffer', bookType, compression: true }) as Buffer;
}

interface ZipEntry {
  readonly name: string;
  readonly data: Buffer;
  /** What the headers claim the entry unpacks to; the real size unless a test lies. */
  readonly declaredSize?: number;
}

/** A zip archive (deflated entries) written by hand, so a test controls every size it declares. */
function zipArchive(entries: readonly ZipEntry[]): Buffer {
  const parts: Buffer[] = [];
  const directory: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name);
    const packed = deflateRawSync(entry.data, { level: 9 });
    const size = entry.declaredSize ?? entry.data.length;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(crc32(entry.data), 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(crc32(entry.data), 16);
    central.writeUInt32LE(packed.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    parts.push(local, name, packed);
    directory.push(central, name);
    offset += local.length + name.length + packed.length;
  }
  const centralDirectory = Buffer.concat(directory);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(centralDirectory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...parts, centralDirectory, end]);
}

/** The smallest .xlsx Excel and SheetJS open: one sheet of inline-string cells. */
function minimalXlsxEntries(rows: string[][]): ZipEntry[] {
  const xml = (text: string) => Buffer.from(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>${text}`);
  const relationships = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
  const sheetRows = rows
    .map((cells, r) => `<row r="${r + 1}">${cells.map((cell, c) => `<c r="${XLSX.utils.encode_cell({ r, c })}" t="inlineStr"><is><t>${cell}</t></is></c>`).join('')}</row>`)
    .join('');
  return [
    {
      name: '[Content_Types].xml',
      data: xml(
        '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
          '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
          '<Default Extension="xml" ContentType="application/xml"/>' +
          '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
          '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>' +
          '</Types>',
      ),
    },
    {
      name: '_rels/.rels',
      data: xml(`<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${relationships}/officeDocument" Target="xl/workbook.xml"/></Relationships>`),
    },
    {
      name: 'xl/workbook.xml',
      data: xml(`<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="${relationships}"><sheets><sheet name="Jerseys" sheetId="1" r:id="rId1"/></sheets></workbook>`),
    },
    {
      name: 'xl/_rels/workbook.xml.rels',
      data: xml(`<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${relationships}/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`),
    },
    { name: 'xl/worksheets/sheet1.xml', data: xml(`<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${sheetRows}</sheetData></worksheet>`) },
  ];
}

describe.each(API_BACKENDS)('admin bulk import on %s', (backend) => {
  let api: TestApi;
  let admin: { userId: string; token: string };
  let buyerToken: string;
  beforeAll(async () => {
    api = await startTestApi(backend);
    const signedUp = await api.signUp('ADMIN');
    admin = { userId: signedUp.user.id, token: signedUp.tokens.accessToken };
    buyerToken = (await api.signUp('BUYER')).tokens.accessToken;
  });
  afterAll(async () => api.close());

  /** POST /api/admin/bulk-import as a browser sends a file input: multipart, the file in field "file". */
  async function upload(filename: string, bytes: Uint8Array | string, options: { token?: string | null; field?: string } = {}) {
    const form = new FormData();
    form.append(options.field ?? 'file', new Blob([bytes]), filename);
    const token = options.token === undefined ? admin.token : options.token;
    const response = await fetch(`${api.url}/api/admin/bulk-import`, {
      method: 'POST',
      headers: token ? { authorization: `Bearer ${token}` } : {},
      body: form,
    });
    return { status: response.status, body: (await response.json()) as any };
  }

  const countListings = async () => Number((await api.deps.db.selectFrom('listings').select((eb) => eb.fn.countAll().as('count')).executeTakeFirstOrThrow()).count);

  /** Refused as a whole: the status, the message, and not one listing more than before. */
  async function expectRefused(filename: string, bytes: Uint8Array | string, status: number, message: string | RegExp) {
    const before = await countListings();
    const response = await upload(filename, bytes);
    expect(response.status).toBe(status);
    expect(response.body.statusCode).toBe(status);
    if (typeof message === 'string') expect(response.body.message).toBe(message);
    else expect(response.body.message).toMatch(message);
    expect(await countListings()).toBe(before);
    return response.body;
  }

  const goodRow = (playerName: string, jerseyNumber = '12', team = 'patriots') =>
    `${playerName},${jerseyNumber},${team},l,good,AFC Championship,2019-01-20,Kansas City Chiefs,Arrowhead Stadium,1,348,30,Photo-matched`;

  it('answers 401 to anonymous callers and 403 to buyers on both routes, creating nothing', async () => {
    const before = await countListings();
    const csv = `${TEMPLATE_HEADER}\n${goodRow('Anonymous Caller')}\n`;
    for (const [token, status] of [[null, 401], [buyerToken, 403]] as const) {
      const imported = await upload('jerseys.csv', csv, { token });
      expect(imported.status).toBe(status);
      expect(imported.body.statusCode).toBe(status);
      const template = await api.call('GET', '/api/admin/bulk-import/template', token ? { token } : {});
      expect(template.status).toBe(status);
    }
    expect(await countListings()).toBe(before);
  });

  it('documents both routes in the OpenAPI description', async () => {
    const { body } = await api.call('GET', '/docs/json');
    expect(body.paths).toHaveProperty(['/api/admin/bulk-import', 'post']);
    expect(body.paths).toHaveProperty(['/api/admin/bulk-import/template', 'get']);
  });

  describe('GET /api/admin/bulk-import/template', () => {
    it('is jersey_import_template.csv: the spec\'s columns in order and one sample row, which imports cleanly', async () => {
      const response = await fetch(`${api.url}/api/admin/bulk-import/template`, { headers: { authorization: `Bearer ${admin.token}` } });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      expect(response.headers.get('content-disposition')).toBe('attachment; filename="jersey_import_template.csv"');
      const text = await response.text();
      const lines = text.split('\r\n');
      expect(lines).toHaveLength(3);
      expect(lines[0]).toBe(TEMPLATE_HEADER);
      expect(lines[1]).toBe(
        'Tom Brady,12,buccaneers,l,good,Super Bowl LV,2021-02-07,Kansas City Chiefs,Raymond James Stadium,3,201,21,' +
          '"Game-worn jersey from Super Bowl LV, photo-matched to the broadcast."',
      );
      expect(lines[2]).toBe('');

      const imported = await upload('jersey_import_template.csv', text);
      expect(imported.status).toBe(201);
      expect(imported.body).toMatchObject({ totalRows: 1, created: 1, failed: 0, errors: [] });
      const listing = await api.deps.db.selectFrom('listings').selectAll().where('id', '=', imported.body.listings[0].listingId).executeTakeFirstOrThrow();
      expect(listing).toMatchObject({
        title: 'Tom Brady #12 Buccaneers Jersey',
        description: 'Game-worn jersey from Super Bowl LV, photo-matched to the broadcast.',
        team_or_club: 'Tampa Bay Buccaneers',
        date_or_season: '2021-02-07',
        size: 'L',
        status: 'DRAFT',
      });
      expect(listing.jersey).toEqual({
        jerseyNumber: 12,
        gameTitle: 'Super Bowl LV',
        gameDate: '2021-02-07',
        opponent: 'Kansas City Chiefs',
        venue: 'Raymond James Stadium',
        stats: { touchdowns: 3, passingYards: 201, completions: 21 },
      });
    });
  });

  describe('POST /api/admin/bulk-import', () => {
    it('CSV: a DRAFT listing per valid row, event-sourced as one import; every refused row with its row number and column-named errors', async () => {
      const csv = [
        TEMPLATE_HEADER,
        goodRow('Patrick Mahomes', '15', 'chiefs'),
        // Row 3: every column wrong at once.
        `,abc,raiders,xxxl,mint,${'t'.repeat(201)},2021-13-45,${'o'.repeat(201)},${'v'.repeat(201)},-1,1.5,many,${'d'.repeat(10_001)}`,
        '',
        // Row 5 (the empty line above is row 4, as a spreadsheet shows the file).
        goodRow('Rob Gronkowski', '87'),
        ',,,,,,,,,,,,',
        // Row 7: the required cells blank; options in any case are fine, jersey number out of range is not.
        'Julian Edelman,100,PATRIOTS, XL ,Like-New,,,,,,,,',
        ',,,,,,,,,,,,',
        '"Tom ""TB12"" Brady",12,Buccaneers,M,New,"Super Bowl LV",2021-02-07,"Kansas City Chiefs","Raymond James Stadium",3,201,21,"Two lines,\nof description"',
        'Blank Required,,,,,,,,,,,,',
      ].join('\n');

      const response = await upload('jerseys.csv', csv);
      expect(response.status).toBe(201);
      expect(response.body).toMatchObject({ totalRows: 6, created: 3, failed: 3 });
      expect(response.body.listings.map((listing: { row: number }) => listing.row)).toEqual([2, 5, 9]);
      expect(response.body.errors.map(({ row, errors }: { row: number; errors: unknown[] }) => ({ row, errors }))).toEqual([
        {
          row: 3,
          errors: [
            { column: 'player_name', message: 'Player name is required' },
            { column: 'jersey_number', message: 'Jersey number must be a number' },
            { column: 'team', message: 'Team must be one of patriots, buccaneers, chiefs' },
            { column: 'size', message: 'Size must be one of xs, s, m, l, xl, xxl' },
            { column: 'condition', message: 'Condition must be one of new, like-new, good, fair' },
            { column: 'game_title', message: 'Game title must be at most 200 characters' },
            { column: 'game_date', message: 'Game date must be a date (YYYY-MM-DD)' },
            { column: 'opponent', message: 'Opponent must be at most 200 characters' },
            { column: 'venue', message: 'Venue must be at most 200 characters' },
            { column: 'touchdowns', message: 'Touchdowns must be at least 0' },
            { column: 'passing_yards', message: 'Passing yards must be a whole number' },
            { column: 'completions', message: 'Completions must be a number' },
            { column: 'description', message: 'Description must be at most 10000 characters' },
          ],
        },
        { row: 7, errors: [{ column: 'jersey_number', message: 'Jersey number must be at most 99' }] },
        {
          row: 10,
          errors: [
            { column: 'jersey_number', message: 'Jersey number is required' },
            { column: 'team', message: 'Team is required' },
            { column: 'size', message: 'Size is required' },
            { column: 'condition', message: 'Condition is required' },
          ],
        },
      ]);
      // Each refused row comes back as the file holds it, under the file's header, to be fixed and imported again.
      expect(response.body.header).toEqual(TEMPLATE_HEADER.split(','));
      expect(response.body.errors[0].cells[1]).toBe('abc');
      expect(response.body.errors[1].cells).toEqual(['Julian Edelman', '100', 'PATRIOTS', ' XL ', 'Like-New', '', '', '', '', '', '', '', '']);
      expect(response.body.errors[2].cells).toEqual(['Blank Required', ...Array<string>(12).fill('')]);

      const ids: string[] = response.body.listings.map((listing: { listingId: string }) => listing.listingId);
      const rows = await api.deps.db.selectFrom('listings').selectAll().where('id', 'in', ids).execute();
      const byId = new Map(rows.map((row) => [row.id, row]));
      const [mahomes, gronkowski, brady] = ids.map((id) => byId.get(id)!);
      expect(mahomes).toMatchObject({ title: 'Patrick Mahomes #15 Chiefs Jersey', team_or_club: 'Kansas City Chiefs', status: 'DRAFT', owner_id: admin.userId });
      expect(gronkowski).toMatchObject({ title: 'Rob Gronkowski #87 Patriots Jersey', player_name: 'Rob Gronkowski', condition: 'good', size: 'L' });
      expect(brady).toMatchObject({ title: 'Tom "TB12" Brady #12 Buccaneers Jersey', description: 'Two lines,\nof description', size: 'M', condition: 'new' });
      for (const listing of response.body.listings) {
        expect(byId.get(listing.listingId)!.slug, `row ${listing.row}`).toBe(listing.slug);
        expect(byId.get(listing.listingId)!.media_ids).toEqual([]);
      }
      expect(response.body.listings[0].slug).toBe('patrick-mahomes-15-chiefs-jersey');

      const drafted = await Promise.all(ids.map((id) => api.deps.eventStore.readStream(listingStreamId(id))));
      for (const events of drafted) {
        expect(events.map((event) => event.type)).toEqual(['ListingDrafted']);
        expect(events[0]!.metadata).toMatchObject({ actorId: admin.userId, actorRoles: ['ADMIN', 'BUYER'] });
      }
      const correlationIds = new Set(drafted.map((events) => (events[0]!.metadata as { correlationId: string }).correlationId));
      expect(correlationIds.size).toBe(1);
    });

    it('CSV: takes a header in any case with spaces, only the required columns, a BOM and Windows-1252 text', async () => {
      const header = ' Player_Name ,JERSEY_NUMBER,Team,size,Condition';
      const utf8 = await upload('bom.csv', `\uFEFF${header}\r\nJosé Núñez,7,chiefs,s,fair\r\n`);
      expect(utf8.status).toBe(201);
      expect(utf8.body).toMatchObject({ totalRows: 1, created: 1, failed: 0 });
      const windows1252 = await upload('excel.csv', Buffer.from(`${header}\r\nThomas M\xfcller,25,patriots,m,good\r\n`, 'latin1'));
      expect(windows1252.status).toBe(201);
      const names = await api.deps.db
        .selectFrom('listings')
        .select('player_name')
        .where('id', 'in', [utf8.body.listings[0].listingId, windows1252.body.listings[0].listingId])
        .orderBy('player_name')
        .execute();
      expect(names.map((row) => row.player_name)).toEqual(['José Núñez', 'Thomas Müller']);
    });

    it('answers 200 with created 0 when no row is valid', async () => {
      const before = await countListings();
      const response = await upload('bad.csv', `${TEMPLATE_HEADER}\n${goodRow('Bad Team', '12', 'raiders')}\n`);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        totalRows: 1,
        created: 0,
        failed: 1,
        header: TEMPLATE_HEADER.split(','),
        listings: [],
        errors: [{ row: 2, cells: goodRow('Bad Team', '12', 'raiders').split(','), errors: [{ column: 'team', message: 'Team must be one of patriots, buccaneers, chiefs' }] }],
      });
      expect(await countListings()).toBe(before);
    });

    it('XLSX: numbers, dates and text cells as typed; an error cell is reported as such; invalid rows create nothing', async () => {
      const header = TEMPLATE_HEADER.split(',');
      const bytes = workbook(
        [
          header,
          ['Travis Kelce', 87, 'Chiefs', 'XL', 'good', 'Super Bowl LVIII', null, 'San Francisco 49ers', 'Allegiant Stadium', 1, null, 9, 'Signed'],
          ['Half Number', 12.5, 'patriots', 'l', 'good'],
          ['Error Cell', 10, 'patriots', 'l', 'good', null],
          [],
          ['Randy Moss', 81, 'patriots', 'm', 'like-new'],
        ],
        'xlsx',
        (sheet) => {
          // 2024-02-11 as Excel stores a date: a serial day number with a date format.
          sheet.G2 = { t: 'n', v: 45333, z: 'yyyy-mm-dd' };
          sheet.F4 = { t: 'e', v: 0x2a, w: '#N/A' };
        },
      );

      const response = await upload('jerseys.xlsx', bytes);
      expect(response.status).toBe(201);
      expect(response.body).toMatchObject({ totalRows: 4, created: 2, failed: 2 });
      expect(response.body.listings.map((listing: { row: number }) => listing.row)).toEqual([2, 6]);
      const blanks = (count: number) => Array<string>(count).fill('');
      expect(response.body.errors).toEqual([
        { row: 3, cells: ['Half Number', '12.5', 'patriots', 'l', 'good', ...blanks(8)], errors: [{ column: 'jersey_number', message: 'Jersey number must be a whole number' }] },
        { row: 4, cells: ['Error Cell', '10', 'patriots', 'l', 'good', '#N/A', ...blanks(7)], errors: [{ column: 'game_title', message: 'game_title holds the spreadsheet error #N/A' }] },
      ]);
      const kelce = await api.deps.db.selectFrom('listings').selectAll().where('id', '=', response.body.listings[0].listingId).executeTakeFirstOrThrow();
      expect(kelce).toMatchObject({ title: 'Travis Kelce #87 Chiefs Jersey', size: 'XL', date_or_season: '2024-02-11', status: 'DRAFT' });
      expect(kelce.jersey).toMatchObject({ jerseyNumber: 87, gameDate: '2024-02-11', stats: { touchdowns: 1, passingYards: null, completions: 9 } });
      expect((await api.deps.eventStore.readStream(listingStreamId(kelce.id))).map((event) => event.type)).toEqual(['ListingDrafted']);
    });

    it('XLS (Excel 97-2003): imports good rows and reports bad ones', async () => {
      const bytes = workbook(
        [TEMPLATE_HEADER.split(',').slice(0, 5), ['Drew Bledsoe', 11, 'patriots', 'xxl', 'fair'], ['No Size', 11, 'patriots', null, 'fair']],
        'biff8',
      );
      expect(bytes.subarray(0, 4).toString('hex')).toBe('d0cf11e0');
      const response = await upload('legacy.xls', bytes);
      expect(response.status).toBe(201);
      expect(response.body).toMatchObject({
        totalRows: 2,
        created: 1,
        failed: 1,
        listings: [{ row: 2 }],
        errors: [{ row: 3, errors: [{ column: 'size', message: 'Size is required' }] }],
      });
      const listing = await api.deps.db.selectFrom('listings').selectAll().where('id', '=', response.body.listings[0].listingId).executeTakeFirstOrThrow();
      expect(listing).toMatchObject({ title: 'Drew Bledsoe #11 Patriots Jersey', size: 'XXL', status: 'DRAFT' });
    });

    it('refuses a file over 10 MB with 413 "File is larger than 10 MB", creating nothing', async () => {
      const oversize = Buffer.alloc(TEN_MEGABYTES + 1, 'a');
      oversize.write(`${TEMPLATE_HEADER}\n${goodRow('Too Big')}\n`);
      await expectRefused('big.csv', oversize, 413, 'File is larger than 10 MB');
    });

    it('refuses zip bombs before SheetJS unpacks them: too much unpacked, an absurd ratio, lying sizes, too many parts', async () => {
      const rows = [TEMPLATE_HEADER.split(',').slice(0, 5), ['Zip Safe', '1', 'patriots', 'l', 'good']];
      // The same archive without padding imports, so each refusal below is the padding's doing.
      const baseline = await upload('minimal.xlsx', zipArchive(minimalXlsxEntries(rows)));
      expect(baseline.status).toBe(201);
      expect(baseline.body).toMatchObject({ created: 1 });

      const bomb = /refused as a possible zip bomb$/;
      const padded = (padding: ZipEntry) => zipArchive([...minimalXlsxEntries(rows), padding]);
      await expectRefused('over-50-mb.xlsx', padded({ name: 'xl/media/padding.bin', data: Buffer.alloc(60 * MEGABYTE) }), 400, bomb);
      await expectRefused('ratio.xlsx', padded({ name: 'xl/media/padding.bin', data: Buffer.alloc(8 * MEGABYTE) }), 400, bomb);
      await expectRefused('declared.xlsx', padded({ name: 'xl/media/padding.bin', data: Buffer.alloc(10), declaredSize: 0xfffffff0 }), 400, bomb);
      await expectRefused('lying.xlsx', padded({ name: 'xl/media/padding.bin', data: Buffer.alloc(60 * MEGABYTE), declaredSize: 1024 }), 400, bomb);

      const parts = Array.from({ length: 200 }, (_, index) => ({ name: `xl/media/part${index}.bin`, data: Buffer.from('x') }));
      const tooManyParts = await expectRefused('parts.xlsx', zipArchive([...minimalXlsxEntries(rows), ...parts]), 400, 'The .xlsx file holds 205 parts, more than a spreadsheet has (at most 200)');
      expect(tooManyParts.code).toBe('ARCHIVE_TOO_LARGE');
    });

    it('refuses other file types with 415, naming the accepted ones', async () => {
      const csv = `${TEMPLATE_HEADER}\n${goodRow('Wrong Type')}\n`;
      await expectRefused('jerseys.txt', csv, 415, 'Unsupported file type ".txt": accepted types are .csv, .xlsx, .xls');
      await expectRefused('jerseys', csv, 415, 'Unsupported file type "jerseys": accepted types are .csv, .xlsx, .xls');
      await expectRefused('jerseys.numbers', csv, 415, 'Unsupported file type ".numbers": accepted types are .csv, .xlsx, .xls');
    });

    it('refuses a file whose bytes are not what its extension says (HTML named .xlsx, and the like) with 415', async () => {
      const html = '<html><body><table><tr><td>player_name</td></tr><tr><td>Tom Brady</td></tr></table></body></html>';
      await expectRefused('jerseys.xlsx', html, 415, 'The file is named .xlsx but holds text, not a zip (.xlsx) workbook; accepted types are .csv, .xlsx, .xls');
      const xlsx = workbook([TEMPLATE_HEADER.split(',')], 'xlsx');
      const xls = workbook([TEMPLATE_HEADER.split(',')], 'biff8');
      await expectRefused('jerseys.xls', xlsx, 415, 'The file is named .xls but holds a zip (.xlsx) workbook, not an OLE2 (.xls) workbook; accepted types are .csv, .xlsx, .xls');
      await expectRefused('jerseys.xlsx', xls, 415, 'The file is named .xlsx but holds an OLE2 (.xls) workbook, not a zip (.xlsx) workbook; accepted types are .csv, .xlsx, .xls');
      await expectRefused('jerseys.csv', xlsx, 415, 'The file is named .csv but holds a zip (.xlsx) workbook, not text; accepted types are .csv, .xlsx, .xls');
      await expectRefused('jerseys.csv', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0x0d]), 415, 'The file is named .csv but holds binary data, not text; accepted types are .csv, .xlsx, .xls');
    });

    it('refuses malformed files with 400, creating nothing', async () => {
      const unclosedQuote = `${TEMPLATE_HEADER}\n${goodRow('Fine Row')}\n"Open Quote,12,patriots,l,good,,,,,,,,\n`;
      await expectRefused('quote.csv', unclosedQuote, 400, 'The CSV file could not be read: Quote Not Closed: the parsing is finished with an opening quote at line 3');
      await expectRefused('short.csv', `${TEMPLATE_HEADER}\n${goodRow('Fine Row')}\nShort Row,12,patriots\n`, 400, 'The CSV file could not be read: Invalid Record Length: expect 13, got 3 on line 3');
      const corrupt = Buffer.concat([Buffer.from('PK\x03\x04'), Buffer.alloc(500, 0x41)]);
      await expectRefused('corrupt.xlsx', corrupt, 400, 'The .xlsx file is damaged or is not a spreadsheet');
      const truncated = workbook([TEMPLATE_HEADER.split(','), ['Cut Short', 1, 'patriots', 'l', 'good']], 'xlsx');
      await expectRefused('truncated.xlsx', truncated.subarray(0, truncated.length - 40), 400, 'The .xlsx file is damaged or is not a spreadsheet');
      const ole2Garbage = Buffer.concat([Buffer.from('d0cf11e0a1b11ae1', 'hex'), Buffer.alloc(1024, 0x42)]);
      await expectRefused('garbage.xls', ole2Garbage, 400, /^The \.xls file could not be read: /);
    });

    it('refuses unknown, repeated, unnamed or missing columns before any row is imported', async () => {
      await expectRefused(
        'unknown.csv',
        `${TEMPLATE_HEADER},price,Colour\n${goodRow('Unknown Columns')},100,red\n`,
        400,
        `Unknown columns: price, colour. The template's columns are: ${TEMPLATE_HEADER.split(',').join(', ')}`,
      );
      await expectRefused('repeated.csv', 'player_name,jersey_number,team,size,condition,Team\nRepeated,1,patriots,l,good,chiefs\n', 400, 'Columns appear more than once: team');
      await expectRefused('missing.csv', 'player_name,jersey_number,condition\nMissing,1,good\n', 400, 'Missing required columns: team, size');
      await expectRefused(
        'unnamed.csv',
        'player_name,jersey_number,team,size,condition,\nUnnamed,1,patriots,l,good,surprise\n',
        400,
        `Column F has values but no header; the template's columns are: ${TEMPLATE_HEADER.split(',').join(', ')}`,
      );
      // An unnamed column left empty (a trailing comma Excel writes) is no problem.
      const trailing = await upload('trailing.csv', 'player_name,jersey_number,team,size,condition,\nTrailing Comma,1,patriots,l,good,\n');
      expect(trailing.status).toBe(201);
    });

    it('refuses an empty file, a file of blank lines, and a header without rows', async () => {
      await expectRefused('empty.csv', '', 400, 'The file is empty');
      await expectRefused('empty.xlsx', '', 400, 'The file is empty');
      await expectRefused('blank.csv', '\n\n,,,\n', 400, 'The file is empty');
      await expectRefused('blank.xlsx', workbook([], 'xlsx'), 400, 'The file is empty');
      await expectRefused('header.csv', `${TEMPLATE_HEADER}\n`, 400, 'The file has a header row but no rows to import');
      await expectRefused('header.xls', workbook([TEMPLATE_HEADER.split(',')], 'biff8'), 400, 'The file has a header row but no rows to import');
    });

    it('refuses more than 1,000 rows below the header, in CSV and in a workbook', async () => {
      const rows = Array.from({ length: 1001 }, (_, index) => goodRow(`Player ${index}`));
      const tooMany = 'A bulk import takes at most 1000 rows below the header (up to row 1001); this file goes on to row 1002. Split it into several files';
      await expectRefused('many.csv', `${TEMPLATE_HEADER}\n${rows.join('\n')}\n`, 400, tooMany);
      const sheetRows = rows.map((row) => row.split(','));
      await expectRefused('many.xlsx', workbook([TEMPLATE_HEADER.split(','), ...sheetRows], 'xlsx'), 400, tooMany);
      await expectRefused('many.xls', workbook([TEMPLATE_HEADER.split(','), ...sheetRows], 'biff8'), 400, tooMany);
    });

    it('answers 400 "A file is required (field "file")" without a file, with the file in another field, or with JSON', async () => {
      const message = 'A file is required (field "file")';
      const onlyField = new FormData();
      onlyField.append('note', 'no file here');
      const response = await fetch(`${api.url}/api/admin/bulk-import`, { method: 'POST', headers: { authorization: `Bearer ${admin.token}` }, body: onlyField });
      expect(response.status).toBe(400);
      expect(((await response.json()) as { message: string }).message).toBe(message);

      const otherField = await upload('jerseys.csv', `${TEMPLATE_HEADER}\n${goodRow('Other Field')}\n`, { field: 'upload' });
      expect(otherField.status).toBe(400);
      expect(otherField.body.message).toBe(message);

      const json = await api.call('POST', '/api/admin/bulk-import', { token: admin.token, body: { file: 'player_name' } });
      expect(json.status).toBe(400);
      expect(json.body.message).toBe(message);
    });

    it('answers 400 to a multipart body that does not parse', async () => {
      const response = await api.call('POST', '/api/admin/bulk-import', {
        token: admin.token,
        headers: { 'content-type': 'multipart/form-data; boundary=----cut' },
        body: '------cut\r\nContent-Disposition: form-data; name="file"; filename="jerseys.csv"\r\n\r\nplayer_name',
      });
      expect(response.status).toBe(400);
      expect(response.body.message).toMatch(/^The upload could not be read as multipart\/form-data: /);
    });
  });
});

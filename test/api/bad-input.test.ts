import * as XLSX from '@e965/xlsx';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_BACKENDS, startTestApi, type TestApi } from '../support/api';
import { createMarketplaceListing } from '../support/marketplace';
import { oneConnection } from '../support/one-connection';

const WELL_FORMED_RULE = 'must be well-formed text (no NUL characters, no unpaired UTF-16 surrogates)';
const LONE_SURROGATE = 'x \ud800 y';
const MEDIA_UPLOAD = '/api/admin/listings/media/upload';
const BULK_IMPORT = '/api/admin/bulk-import';
const UPLOAD_ROUTES = [MEDIA_UPLOAD, BULK_IMPORT];

/** A multipart body by hand, so that a test can get its boundary wrong. */
function multipartBody(boundary: string, filename: string, content: string | Buffer, options: { close?: boolean } = {}): Buffer {
  return Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`),
    Buffer.from(content),
    Buffer.from(options.close === false ? '' : `\r\n--${boundary}--\r\n`),
  ]);
}

/** Input the database itself refuses must come back as 400, never 500. */
describe.each(API_BACKENDS)('text the database cannot store, on %s', (backend) => {
  let api: TestApi;
  let admin: string;
  beforeAll(async () => {
    api = await startTestApi(backend);
    admin = (await api.signUp('ADMIN')).tokens.accessToken;
  });
  afterAll(async () => api.close());

  const countListings = async () => Number((await api.deps.db.selectFrom('listings').select((eb) => eb.fn.countAll().as('count')).executeTakeFirstOrThrow()).count);

  it('is refused with 400 when it reaches a query', async () => {
    const { tokens, user } = await api.signUp('BUYER');
    const response = await api.call('PUT', `/api/v1/users/${user.id}/profile`, {
      token: tokens.accessToken,
      body: { firstName: 'Nul\u0000Byte', lastName: 'Buyer', phone: null },
    });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ statusCode: 400, error: 'Bad Request', message: `body.firstName: ${WELL_FORMED_RULE}`, code: 'INVALID_CHARACTERS' });
  });

  it('is refused with 400 at registration', async () => {
    const response = await api.call('POST', '/api/auth/register', {
      body: { firstName: 'A\u0000', lastName: 'B', email: 'nul@example.com', password: 'Str0ng!Passw0rd', role: 'BUYER' },
    });
    expect(response.status).toBe(400);
  });

  it('refuses a lone UTF-16 surrogate in any text field with 400 naming the field, and stores nothing', async () => {
    const bound = await createMarketplaceListing(api, { stage: 'NFC_BOUND' });
    const before = await countListings();
    const refusals = [
      await api.call('POST', '/api/admin/jerseys', {
        token: admin,
        body: { playerName: LONE_SURROGATE, jerseyNumber: 12, team: 'buccaneers', size: 'l', condition: 'good', stats: {}, mediaIds: [], save: false },
      }),
      await api.call('POST', '/api/admin/listings', {
        token: admin,
        body: { title: LONE_SURROGATE, category: 'EQUIPMENT', condition: 'GAME_USED', sportType: 'BASEBALL', price: 1200, mediaIds: [], tags: [], save: false },
      }),
      await api.call('POST', `/api/admin/listings/${bound.listingId}/unbind`, { token: admin, body: { reason: LONE_SURROGATE } }),
      // The low half alone, at the end of a nested field, and a surrogate in a field name.
      await api.call('POST', '/api/admin/jerseys', {
        token: admin,
        body: { playerName: 'Tom Brady', jerseyNumber: 12, team: 'buccaneers', size: 'l', condition: 'good', stats: {}, mediaIds: ['media-\udc00'], save: false },
      }),
      await api.call('POST', '/api/admin/listings', { token: admin, body: { ['ti\ud800tle']: 'Bat' } }),
    ];
    expect(refusals.map((response) => [response.status, response.body.code, response.body.message])).toEqual([
      [400, 'INVALID_CHARACTERS', `body.playerName: ${WELL_FORMED_RULE}`],
      [400, 'INVALID_CHARACTERS', `body.title: ${WELL_FORMED_RULE}`],
      [400, 'INVALID_CHARACTERS', `body.reason: ${WELL_FORMED_RULE}`],
      [400, 'INVALID_CHARACTERS', `body.mediaIds.0: ${WELL_FORMED_RULE}`],
      [400, 'INVALID_CHARACTERS', `body: ${WELL_FORMED_RULE}`],
    ]);
    expect(await countListings()).toBe(before);
    const tag = await api.call('GET', `/api/admin/nfc/tags/${encodeURIComponent(bound.nfcUid!)}`, { token: admin });
    expect(tag.body.status).toBe('BOUND');
  });

  it('keeps well-formed text of every script, emoji (surrogate pairs) included, as it was sent', async () => {
    const title = 'مرحبا \u202eRTL\u202c 🏈👍🏽 Ünïcödé';
    const created = await api.call('POST', '/api/admin/listings', {
      token: admin,
      body: { title, category: 'EQUIPMENT', condition: 'GAME_USED', sportType: 'BASEBALL', price: 1200, mediaIds: [], tags: [], save: false },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect((await api.call('GET', `/api/admin/listings/${created.body.id}`, { token: admin })).body.title).toBe(title);
  });

  it('reports a bulk import cell holding NUL or a lone surrogate as that row\'s error, and creates nothing', async () => {
    const rows = [
      ['player_name', 'jersey_number', 'team', 'size', 'condition'],
      ['Tom Brady', 12, 'buccaneers', 'l', 'good'],
      [LONE_SURROGATE, 12, 'buccaneers', 'l', 'good'],
      ['Nul\u0000Byte', 12, 'buccaneers', 'l', 'good'],
    ];
    // .xls keeps both as they are; a CSV cannot hold either (it is UTF-8, and NUL makes it binary).
    const book = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(rows), 'Jerseys');
    const form = new FormData();
    form.append('file', new Blob([XLSX.write(book, { type: 'buffer', bookType: 'biff8' }) as Buffer]), 'jerseys.xls');
    const before = await countListings();
    const response = await fetch(`${api.url}${BULK_IMPORT}`, { method: 'POST', headers: { authorization: `Bearer ${admin}` }, body: form });
    const body = (await response.json()) as { created: number; errors: Array<{ row: number; errors: unknown[] }> };
    expect(response.status, JSON.stringify(body)).toBe(201);
    expect(body.created).toBe(1);
    expect(body.errors.map((error) => [error.row, error.errors])).toEqual([
      [3, [{ column: 'player_name', message: `player_name: ${WELL_FORMED_RULE}` }]],
      [4, [{ column: 'player_name', message: `player_name: ${WELL_FORMED_RULE}` }]],
    ]);
    expect(await countListings()).toBe(before + 1);
  });
});

describe.each(API_BACKENDS)('malformed uploads, on %s', (backend) => {
  let api: TestApi;
  let admin: string;
  beforeAll(async () => {
    api = await startTestApi(backend);
    admin = (await api.signUp('ADMIN')).tokens.accessToken;
  });
  afterAll(async () => api.close());

  const post = (path: string, contentType: string, body: Buffer) =>
    api.call('POST', path, { token: admin, headers: { 'content-type': contentType }, body: body.toString('latin1') });

  it.each(UPLOAD_ROUTES)('answers 400 on %s to a multipart body with a missing or wrong boundary, or a part cut short', async (path) => {
    const body = multipartBody('right', 'ball.jpg', 'bytes');
    const answers = [
      await post(path, 'multipart/form-data', body),
      await post(path, 'multipart/form-data; boundary=wrong', body),
      await post(path, `multipart/form-data; boundary=${'b'.repeat(300)}`, body),
      await post(path, 'multipart/form-data; boundary=right', multipartBody('right', 'ball.jpg', 'bytes', { close: false })),
    ];
    for (const answer of answers) {
      expect(answer.status, JSON.stringify(answer.body)).toBe(400);
      expect(answer.body).toMatchObject({ statusCode: 400, error: 'Bad Request', code: 'MALFORMED_UPLOAD' });
      expect(answer.body.message).toMatch(/^The upload could not be read as multipart\/form-data: /);
    }
  });
});

describe.each(API_BACKENDS)('a request refused before its body is read, on %s', (backend) => {
  let api: TestApi;
  let admin: string;
  let connection: ReturnType<typeof oneConnection>;
  beforeAll(async () => {
    api = await startTestApi(backend);
    admin = (await api.signUp('ADMIN')).tokens.accessToken;
  });
  afterAll(async () => api.close());

  const largeUpload = (filename: string, headers: Record<string, string>) => {
    const boundary = 'refused-before-read';
    return connection.send({
      method: 'POST',
      path: MEDIA_UPLOAD,
      headers: { ...headers, 'content-type': `multipart/form-data; boundary=${boundary}` },
      body: multipartBody(boundary, filename, Buffer.alloc(400 * 1024, 'a')),
    });
  };
  const health = () => connection.send({ method: 'GET', path: '/health' });

  it('leaves the client\'s connection serving: a file refused by its name (415), an upload without a token (401)', async () => {
    connection = oneConnection(api.url);
    try {
      expect((await health()).status).toBe(200);
      const byName = await largeUpload('notes.txt', { authorization: `Bearer ${admin}` });
      expect(byName.status, byName.body).toBe(415);
      // The rest of the file is not read: the connection it would clog is closed.
      expect(byName.headers.connection).toBe('close');
      expect((await health()).status).toBe(200);
      const anonymous = await largeUpload('ball.jpg', {});
      expect(anonymous.status, anonymous.body).toBe(401);
      expect((await health()).status).toBe(200);
    } finally {
      connection.close();
    }
  });
});

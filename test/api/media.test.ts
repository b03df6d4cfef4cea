import { randomUUID } from 'node:crypto';
import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { down, up } from '../../api/migrations/2026-11-22T0100-media';
import { localMediaDirectory } from '../../api/media/local-storage';
import { storeMedia } from '../../api/media/storage';
import { API_BACKENDS, startTestApi, type TestApi } from '../support/api';

const JPEG = await readFile(new URL('../../api/seed/images/salah-ball.jpg', import.meta.url));

describe.each(API_BACKENDS)('media on %s', (backend) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startTestApi(backend);
  });
  afterAll(async () => api.close());

  it('serves a stored file with its bytes, content type, length and immutable caching', async () => {
    const { mediaId } = await storeMedia(api.deps, { bytes: JPEG, contentType: 'image/jpeg', originalFilename: 'ball.jpg' });

    const response = await fetch(`${api.url}/media/${mediaId}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/jpeg');
    expect(response.headers.get('content-length')).toBe(String(JPEG.length));
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await response.arrayBuffer()).equals(JPEG)).toBe(true);
  });

  it('keeps the file under a server-chosen name and the row COMPLETED, the client filename only as a label', async () => {
    const bytes = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
    const { mediaId } = await storeMedia(api.deps, { bytes, contentType: 'Image/PNG; charset=binary', originalFilename: '../../../etc/cron.d/evil.png' });

    const row = await api.deps.db.selectFrom('media').selectAll().where('id', '=', mediaId).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ storage_key: `${mediaId}.png`, content_type: 'image/png', status: 'COMPLETED', original_filename: 'evil.png' });
    expect(Number(row.size_bytes)).toBe(bytes.length);
    const stored = await readFile(join(localMediaDirectory(api.deps.dataDir), `${mediaId}.png`));
    expect(stored.equals(Buffer.from(bytes))).toBe(true);
    expect((await readdir(localMediaDirectory(api.deps.dataDir))).every((name) => /^[0-9a-f-]{36}\.(jpg|png)$/.test(name))).toBe(true);

    const response = await api.call('GET', `/media/${mediaId}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
  });

  it('refuses to store a type a listing cannot carry, and an empty file', async () => {
    await expect(storeMedia(api.deps, { bytes: Buffer.from('<script>alert(1)</script>'), contentType: 'text/html' })).rejects.toMatchObject({ statusCode: 415 });
    await expect(storeMedia(api.deps, { bytes: new Uint8Array(0), contentType: 'image/jpeg' })).rejects.toMatchObject({ statusCode: 400 });
  });

  it('answers 404 "Media not found" for an unknown id', async () => {
    const response = await api.call('GET', `/media/${randomUUID()}`);
    expect(response.status).toBe(404);
    expect(response.body).toMatchObject({ statusCode: 404, message: 'Media not found' });
  });

  it('answers 404 for an upload not yet confirmed and for a file gone from disk', async () => {
    const pendingId = randomUUID();
    await api.deps.db
      .insertInto('media')
      .values({ id: pendingId, storage_key: `${pendingId}.jpg`, content_type: 'image/jpeg', size_bytes: 10, original_filename: null, status: 'PENDING', created_at: new Date() })
      .execute();
    expect((await api.call('GET', `/media/${pendingId}`)).status).toBe(404);

    const { mediaId } = await storeMedia(api.deps, { bytes: JPEG, contentType: 'image/jpeg' });
    await rm(join(localMediaDirectory(api.deps.dataDir), `${mediaId}.jpg`));
    const gone = await api.call('GET', `/media/${mediaId}`);
    expect(gone.status).toBe(404);
    expect(gone.body.message).toBe('Media not found');
  });

  it('answers 400 for an id that is not a media id', async () => {
    for (const id of ['not-a-uuid', '12345', `${randomUUID()}.jpg`]) {
      const response = await api.call('GET', `/media/${id}`);
      expect(response.status, id).toBe(400);
      expect(response.body.statusCode).toBe(400);
    }
  });

  it('never serves a file outside the media folder, however the path is dressed up', async () => {
    for (const path of [
      '/media/..%2F..%2Fetc%2Fpasswd',
      '/media/%2e%2e%2f%2e%2e%2fetc%2fpasswd',
      '/media/..%5C..%5Cetc%5Cpasswd',
      '/media/%2Fetc%2Fpasswd',
      '/media/..%252F..%252Fetc%252Fpasswd',
    ]) {
      const response = await fetch(`${api.url}${path}`);
      const text = await response.text();
      expect([400, 404], path).toContain(response.status);
      expect(text).not.toContain('root:');
    }
  });

  it('answers HEAD with the headers and no body', async () => {
    const { mediaId } = await storeMedia(api.deps, { bytes: JPEG, contentType: 'image/jpeg' });
    const response = await fetch(`${api.url}/media/${mediaId}`, { method: 'HEAD' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/jpeg');
    expect(await response.text()).toBe('');
  });
});

describe('the media migration', () => {
  it('goes down and up again', async () => {
    const api = await startTestApi('PGlite');
    try {
      const db = api.deps.db as unknown as Kysely<unknown>;
      await down(db);
      await expect(storeMedia(api.deps, { bytes: JPEG, contentType: 'image/jpeg' })).rejects.toThrow(/media/);
      await up(db);
      const { mediaId } = await storeMedia(api.deps, { bytes: JPEG, contentType: 'image/jpeg' });
      expect((await api.call('GET', `/media/${mediaId}`)).status).toBe(200);
    } finally {
      await api.close();
    }
  }, 60_000);
});

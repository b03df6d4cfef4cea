import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sweepAbandonedUploads } from '../../api/media/uploads';
import { API_BACKENDS, startTestApi, type TestApi } from '../support/api';

const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
let now = new Date('2033-05-01T10:00:00.000Z');

describe.each(API_BACKENDS)('abandoned uploads on %s', (backend) => {
  let api: TestApi;
  let token: string;
  beforeAll(async () => {
    api = await startTestApi(backend, { clock: () => now });
    token = (await api.signUp('ADMIN')).tokens.accessToken;
  });
  afterAll(async () => api.close());

  const presign = async () => (await api.call('POST', '/api/admin/media/upload/presigned-url', { token, body: { filename: 'shirt.png', contentType: 'image/png' } })).body;

  it('fails uploads never confirmed an hour after their URL expired, and deletes the bytes that did arrive', async () => {
    const neverSent = await presign();
    const sentNotConfirmed = await presign();
    const put = await fetch(sentNotConfirmed.uploadUrl, { method: 'PUT', headers: sentNotConfirmed.headers, body: PNG });
    expect(put.status).toBe(200);
    const confirmedInTime = await presign();
    const putConfirmed = await fetch(confirmedInTime.uploadUrl, { method: 'PUT', headers: confirmedInTime.headers, body: PNG });
    expect((await api.call('POST', '/api/admin/media/upload/confirm', { token, body: { mediaId: confirmedInTime.mediaId, etag: putConfirmed.headers.get('etag'), fileSizeBytes: PNG.length } })).status).toBe(200);

    // Within the grace after expiry nothing is swept: a slow client may still confirm.
    now = new Date(Date.parse(neverSent.expiresAt) + 30 * 60_000);
    expect(await sweepAbandonedUploads(api.deps, now)).toBe(0);

    now = new Date(Date.parse(neverSent.expiresAt) + 61 * 60_000);
    expect(await sweepAbandonedUploads(api.deps, now)).toBe(2);
    for (const abandoned of [neverSent, sentNotConfirmed]) {
      const status = await api.call('GET', `/api/admin/media/upload/status/${abandoned.mediaId}`, { token });
      expect(status.body).toMatchObject({ status: 'FAILED', error: { code: 'UPLOAD_ABANDONED', message: 'The upload was never confirmed' } });
    }
    const row = await api.deps.db.selectFrom('media').select('storage_key').where('id', '=', sentNotConfirmed.mediaId).executeTakeFirstOrThrow();
    expect(await api.deps.mediaStorage.inspect(row.storage_key, 8)).toBeUndefined();
    expect((await api.call('GET', `/api/admin/media/upload/status/${confirmedInTime.mediaId}`, { token })).body.status).toBe('COMPLETED');
    expect(await sweepAbandonedUploads(api.deps, now)).toBe(0);
  });
});

import { randomUUID } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localMediaDirectory } from '../../api/media/local-storage';
import { API_BACKENDS, startTestApi, type ApiBackend, type TestApi } from '../support/api';
import { createMarketplaceListing } from '../support/marketplace';
import { HTML, JPEG, md5Etag, MP4, PNG } from '../media/fixtures';
import { startS3rver } from '../media/s3rver';

const MB = 1024 * 1024;
const IMAGE_LIMIT = 25 * MB;
const VIDEO_LIMIT = 500 * MB;
const PRESIGN = '/api/admin/media/upload/presigned-url';
const CONFIRM = '/api/admin/media/upload/confirm';
const STATUS = '/api/admin/media/upload/status';
const MULTIPART = '/api/admin/listings/media/upload';
const TYPES_MESSAGE = 'File type must be one of image/jpeg, image/png, image/webp, video/mp4, video/quicktime, video/x-msvideo';
const EXTENSIONS_MESSAGE = 'File type must be one of .jpeg, .jpg, .png, .webp, .mp4, .mov, .avi';

/** The three steps a dashboard takes, against any API (local or S3 storage). */
function uploads(api: TestApi, token: string) {
  const presign = (body: Record<string, unknown>) => api.call('POST', PRESIGN, { token, body });
  const confirm = (body: Record<string, unknown>) => api.call('POST', CONFIRM, { token, body });
  const status = (mediaId: string) => api.call('GET', `${STATUS}/${mediaId}`, { token });
  const put = (upload: { uploadUrl: string; headers: Record<string, string> }, bytes: Uint8Array) =>
    fetch(upload.uploadUrl, { method: 'PUT', headers: upload.headers, body: bytes });
  /** Presign and PUT; the answer of each. */
  const upload = async (filename: string, contentType: string, bytes: Uint8Array) => {
    const presigned = await presign({ filename, contentType });
    expect(presigned.status, JSON.stringify(presigned.body)).toBe(201);
    const response = await put(presigned.body, bytes);
    expect(response.status).toBe(200);
    return { mediaId: presigned.body.mediaId as string, presigned: presigned.body, etag: response.headers.get('etag')! };
  };
  const multipart = (file: Blob | string, filename: string, field = 'file') => {
    const form = new FormData();
    if (typeof file === 'string') form.append(field, file);
    else form.append(field, file, filename);
    return fetch(`${api.url}${MULTIPART}`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
  };
  return { presign, confirm, status, put, upload, multipart };
}

async function mediaFiles(api: TestApi): Promise<string[]> {
  return readdir(localMediaDirectory(api.deps.dataDir)).catch(() => []);
}

describe.each(API_BACKENDS)('admin media uploads on %s', (backend: ApiBackend) => {
  let api: TestApi;
  let adminToken: string;
  let buyerToken: string;
  let client: ReturnType<typeof uploads>;
  beforeAll(async () => {
    api = await startTestApi(backend);
    adminToken = (await api.signUp('ADMIN')).tokens.accessToken;
    buyerToken = (await api.signUp('BUYER')).tokens.accessToken;
    client = uploads(api, adminToken);
  });
  afterAll(async () => api.close());

  it('answers 401 without a token and 403 to a buyer, on every media route', async () => {
    const routes: Array<[string, string, unknown]> = [
      ['POST', PRESIGN, { filename: 'ball.jpg', contentType: 'image/jpeg' }],
      ['POST', CONFIRM, { mediaId: randomUUID(), etag: '"x"', fileSizeBytes: 1 }],
      ['GET', `${STATUS}/${randomUUID()}`, undefined],
      ['POST', MULTIPART, { file: 'not multipart' }],
    ];
    for (const [method, path, body] of routes) {
      const anonymous = await api.call(method, path, { body });
      expect(anonymous.status, `${method} ${path}`).toBe(401);
      const buyer = await api.call(method, path, { token: buyerToken, body });
      expect(buyer.status, `${method} ${path}`).toBe(403);
    }
    const form = new FormData();
    form.append('file', new Blob([JPEG], { type: 'image/jpeg' }), 'ball.jpg');
    const multipartByBuyer = await fetch(`${api.url}${MULTIPART}`, { method: 'POST', headers: { authorization: `Bearer ${buyerToken}` }, body: form });
    expect(multipartByBuyer.status).toBe(403);
    expect(await api.deps.db.selectFrom('media').select('id').execute()).toEqual([]);
  });

  it('takes a photo through presigned URL, PUT, confirm and status, and serves it at its public URL', async () => {
    const before = Date.now();
    const presigned = await client.presign({ filename: 'salah ball.jpg', contentType: 'image/jpeg' });
    expect(presigned.status).toBe(201);
    const { mediaId, uploadUrl, headers, expiresAt, maxSizeBytes, method } = presigned.body;
    expect(mediaId).toMatch(/^[0-9a-f-]{36}$/);
    expect(method).toBe('PUT');
    expect(uploadUrl.startsWith(`${api.url}/media/uploads/${mediaId}.jpg?`)).toBe(true);
    expect(headers).toEqual({ 'Content-Type': 'image/jpeg' });
    expect(maxSizeBytes).toBe(IMAGE_LIMIT);
    expect(Date.parse(expiresAt) - before).toBeGreaterThanOrEqual(15 * 60_000 - 1000);
    expect(Date.parse(expiresAt) - before).toBeLessThanOrEqual(15 * 60_000 + 5000);

    const pending = await client.status(mediaId);
    expect(pending.status).toBe(200);
    expect(pending.body).toEqual({ mediaId, status: 'PENDING', contentType: 'image/jpeg', fileSizeBytes: null, expiresAt });
    expect((await api.call('GET', `/media/${mediaId}`)).status).toBe(404);

    const put = await client.put(presigned.body, JPEG);
    expect(put.status).toBe(200);
    const etag = put.headers.get('etag');
    expect(etag).toBe(md5Etag(JPEG));

    const confirmed = await client.confirm({ mediaId, etag, fileSizeBytes: JPEG.length });
    expect(confirmed.status).toBe(200);
    const completed = { mediaId, status: 'COMPLETED', contentType: 'image/jpeg', fileSizeBytes: JPEG.length, url: `/media/${mediaId}` };
    expect(confirmed.body).toEqual(completed);
    expect((await client.status(mediaId)).body).toEqual(completed);
    // Confirming again changes nothing and answers the same.
    const again = await client.confirm({ mediaId, etag, fileSizeBytes: JPEG.length });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(completed);

    const served = await fetch(`${api.url}${completed.url}`);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/jpeg');
    expect(Buffer.from(await served.arrayBuffer()).equals(JPEG)).toBe(true);
    const row = await api.deps.db.selectFrom('media').selectAll().where('id', '=', mediaId).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'COMPLETED', original_filename: 'salah ball.jpg', storage_key: `${mediaId}.jpg`, etag });
  });

  it('takes a video, with the video limit, and an upload whose size was announced', async () => {
    const presigned = await client.presign({ filename: 'walkaround.MP4', contentType: 'video/mp4', fileSizeBytes: MP4.length });
    expect(presigned.status).toBe(201);
    expect(presigned.body.maxSizeBytes).toBe(MP4.length);
    expect((await client.status(presigned.body.mediaId)).body.fileSizeBytes).toBe(MP4.length);
    const put = await client.put(presigned.body, MP4);
    expect(put.status).toBe(200);
    const confirmed = await client.confirm({ mediaId: presigned.body.mediaId, etag: put.headers.get('etag'), fileSizeBytes: MP4.length });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toMatchObject({ status: 'COMPLETED', contentType: 'video/mp4', fileSizeBytes: MP4.length });

    const unannounced = await client.presign({ filename: 'clip.mov', contentType: 'video/quicktime' });
    expect(unannounced.body.maxSizeBytes).toBe(VIDEO_LIMIT);
  });

  it('refuses an HTML page named .png at confirm: the file is deleted and the upload FAILED, for good', async () => {
    const { mediaId, etag } = await client.upload('photo.png', 'image/png', HTML);
    expect(await mediaFiles(api)).toContain(`${mediaId}.png`);

    const confirmed = await client.confirm({ mediaId, etag, fileSizeBytes: HTML.length });
    expect(confirmed.status).toBe(415);
    const message = "The file's content is not an accepted image or video; accepted: .jpeg, .jpg, .png, .webp, .mp4, .mov, .avi";
    expect(confirmed.body).toMatchObject({ statusCode: 415, code: 'CONTENT_NOT_MEDIA', message });
    expect(await mediaFiles(api)).not.toContain(`${mediaId}.png`);
    expect((await api.call('GET', `/media/${mediaId}`)).status).toBe(404);

    const status = await client.status(mediaId);
    expect(status.body).toEqual({ mediaId, status: 'FAILED', contentType: 'image/png', fileSizeBytes: null, error: { code: 'CONTENT_NOT_MEDIA', message } });
    const again = await client.confirm({ mediaId, etag, fileSizeBytes: HTML.length });
    expect(again.status).toBe(415);
    expect(again.body).toEqual(confirmed.body);
  });

  it('refuses bytes of another accepted type than the one declared', async () => {
    const { mediaId, etag } = await client.upload('front.jpg', 'image/jpeg', PNG);
    const confirmed = await client.confirm({ mediaId, etag, fileSizeBytes: PNG.length });
    expect(confirmed.status).toBe(415);
    expect(confirmed.body).toMatchObject({ code: 'CONTENT_TYPE_MISMATCH', message: "The file's content is image/png, not the declared image/jpeg" });
  });

  it('refuses a confirm whose size or ETag is not the stored file\'s', async () => {
    const wrongSize = await client.upload('a.png', 'image/png', PNG);
    const sized = await client.confirm({ mediaId: wrongSize.mediaId, etag: wrongSize.etag, fileSizeBytes: PNG.length + 1 });
    expect(sized.status).toBe(409);
    expect(sized.body).toMatchObject({ code: 'SIZE_MISMATCH', message: `The uploaded file has ${PNG.length} bytes, not ${PNG.length + 1}` });
    expect(await mediaFiles(api)).not.toContain(`${wrongSize.mediaId}.png`);

    const wrongEtag = await client.upload('b.png', 'image/png', PNG);
    const tagged = await client.confirm({ mediaId: wrongEtag.mediaId, etag: '"0123456789abcdef0123456789abcdef"', fileSizeBytes: PNG.length });
    expect(tagged.status).toBe(409);
    expect(tagged.body).toMatchObject({ code: 'ETAG_MISMATCH', message: `The uploaded file's ETag is ${md5Etag(PNG)}, not "0123456789abcdef0123456789abcdef"` });
    expect((await client.status(wrongEtag.mediaId)).body).toMatchObject({ status: 'FAILED', error: { code: 'ETAG_MISMATCH' } });

    // ETags compare without quotes and case.
    const bare = await client.upload('c.png', 'image/png', PNG);
    const ok = await client.confirm({ mediaId: bare.mediaId, etag: bare.etag.replace(/"/g, '').toUpperCase(), fileSizeBytes: PNG.length });
    expect(ok.status).toBe(200);
    const otherEtag = await client.confirm({ mediaId: bare.mediaId, etag: '"ffff"', fileSizeBytes: PNG.length });
    expect(otherEtag.status).toBe(409);
    expect(otherEtag.body).toMatchObject({ code: 'ALREADY_CONFIRMED', message: 'This media is already stored with another size or ETag' });
  });

  it('answers 409 to a confirm before the file arrives, and leaves the upload PENDING', async () => {
    const presigned = await client.presign({ filename: 'later.webp', contentType: 'image/webp' });
    const confirmed = await client.confirm({ mediaId: presigned.body.mediaId, etag: '"abc"', fileSizeBytes: 10 });
    expect(confirmed.status).toBe(409);
    expect(confirmed.body).toMatchObject({ code: 'UPLOAD_NOT_FOUND', message: 'No file has been uploaded for this media yet' });
    expect((await client.status(presigned.body.mediaId)).body.status).toBe('PENDING');
  });

  it('refuses a PUT to an altered URL with 403 and stores nothing', async () => {
    const presigned = (await client.presign({ filename: 'ball.jpg', contentType: 'image/jpeg' })).body;
    const url = new URL(presigned.uploadUrl);
    const altered = [
      (u: URL) => u.searchParams.set('signature', `${u.searchParams.get('signature')!.slice(0, -2)}AA`),
      (u: URL) => u.searchParams.set('maxBytes', String(VIDEO_LIMIT)),
      (u: URL) => u.searchParams.set('expires', String(Number(u.searchParams.get('expires')) + 3600)),
      (u: URL) => (u.pathname = `/media/uploads/${randomUUID()}.jpg`),
      (u: URL) => (u.pathname = u.pathname.replace('.jpg', '.png')),
    ];
    for (const alter of altered) {
      const tampered = new URL(url);
      alter(tampered);
      const response = await fetch(tampered, { method: 'PUT', headers: presigned.headers, body: JPEG });
      expect(response.status, tampered.href).toBe(403);
      expect(await response.json()).toMatchObject({ code: 'UPLOAD_URL_INVALID', message: 'This upload URL is not valid' });
    }
    const unsigned = new URL(url);
    unsigned.searchParams.delete('signature');
    expect((await fetch(unsigned, { method: 'PUT', body: JPEG })).status).toBe(400);
    expect(await mediaFiles(api)).not.toContain(`${presigned.mediaId}.jpg`);
  });

  it('refuses a body larger than the limit with 413, announced or not, and keeps nothing of it', async () => {
    const announced = (await client.presign({ filename: 'small.png', contentType: 'image/png', fileSizeBytes: 100 })).body;
    const tooBig = await client.put(announced, Buffer.alloc(101, 1));
    expect(tooBig.status).toBe(413);
    expect(await tooBig.json()).toMatchObject({ code: 'FILE_TOO_LARGE', message: 'File is larger than 100 bytes' });

    const unannounced = (await client.presign({ filename: 'huge.jpg', contentType: 'image/jpeg' })).body;
    const huge = await client.put(unannounced, Buffer.alloc(IMAGE_LIMIT + 1, 1));
    expect(huge.status).toBe(413);
    expect(await huge.json()).toMatchObject({ message: `File is larger than ${IMAGE_LIMIT} bytes` });
    expect(await mediaFiles(api)).not.toContain(`${unannounced.mediaId}.jpg`);
    expect((await mediaFiles(api)).filter((name) => name.endsWith('.partial'))).toEqual([]);

    const presignTooBig = await client.presign({ filename: 'huge.jpg', contentType: 'image/jpeg', fileSizeBytes: IMAGE_LIMIT + 1 });
    expect(presignTooBig.status).toBe(413);
    expect(presignTooBig.body.message).toBe(`File is larger than ${IMAGE_LIMIT} bytes`);
  });

  it('never lets a filename choose where the file goes', async () => {
    for (const filename of ['../../../etc/cron.d/evil.png', '..\\..\\windows\\evil.png', '/etc/passwd.png', '%2e%2e%2fescape.png']) {
      const { mediaId, presigned } = await client.upload(filename, 'image/png', PNG);
      expect(new URL(presigned.uploadUrl).pathname).toBe(`/media/uploads/${mediaId}.png`);
      const row = await api.deps.db.selectFrom('media').select(['storage_key', 'original_filename']).where('id', '=', mediaId).executeTakeFirstOrThrow();
      expect(row.storage_key).toBe(`${mediaId}.png`);
      expect(row.original_filename).not.toMatch(/[\\/]/);
    }
    expect((await mediaFiles(api)).every((name) => /^[0-9a-f-]{36}\.(jpg|png|webp|mp4|mov|avi)$/.test(name))).toBe(true);
  });

  it('answers every presign validation with a clear 4xx', async () => {
    const cases: Array<[Record<string, unknown>, number, string | RegExp]> = [
      [{ filename: 'ball.gif', contentType: 'image/gif' }, 415, EXTENSIONS_MESSAGE],
      [{ filename: 'ball', contentType: 'image/jpeg' }, 415, EXTENSIONS_MESSAGE],
      [{ filename: 'page.html', contentType: 'text/html' }, 415, EXTENSIONS_MESSAGE],
      [{ filename: 'photo.png', contentType: 'text/html' }, 415, TYPES_MESSAGE],
      [{ filename: 'photo.png', contentType: 'image/jpeg' }, 400, 'Content type image/jpeg does not match the file extension .png'],
      [{ filename: 'clip.avi', contentType: 'video/mp4' }, 400, 'Content type video/mp4 does not match the file extension .avi'],
      [{ filename: 'clip.mp4', contentType: 'video/mp4', fileSizeBytes: VIDEO_LIMIT + 1 }, 413, `File is larger than ${VIDEO_LIMIT} bytes`],
      [{ filename: 'ball.jpg', contentType: 'image/jpeg', fileSizeBytes: 0 }, 400, /^body\.fileSizeBytes: /],
      [{ filename: 'ball.jpg', contentType: 'image/jpeg', fileSizeBytes: 1.5 }, 400, /^body\.fileSizeBytes: /],
      [{ filename: '', contentType: 'image/jpeg' }, 400, /^body\.filename: /],
      [{ filename: 'ball.jpg' }, 400, /^body\.contentType: /],
      [{ contentType: 'image/jpeg' }, 400, /^body\.filename: /],
      [{ filename: 'ball.jpg', contentType: 'image/jpeg', path: '/etc' }, 400, /^body: .*path/],
    ];
    for (const [body, status, message] of cases) {
      const response = await client.presign(body);
      expect(response.status, JSON.stringify(body)).toBe(status);
      expect(response.body.message, JSON.stringify(body)).toMatch(message instanceof RegExp ? message : new RegExp(`^${message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`));
    }
    // Other names browsers give the accepted types are understood.
    const aliased = await client.presign({ filename: 'clip.AVI', contentType: 'video/avi' });
    expect(aliased.status).toBe(201);
    expect(aliased.body.headers).toEqual({ 'Content-Type': 'video/x-msvideo' });
    expect((await client.presign({ filename: 'ball.jpeg', contentType: 'image/jpg' })).status).toBe(201);
  });

  it('answers every confirm and status validation with a clear 4xx', async () => {
    const cases: Array<[Record<string, unknown>, number, string | RegExp]> = [
      [{ mediaId: randomUUID(), etag: '"abc"', fileSizeBytes: 1 }, 404, 'Media not found'],
      [{ mediaId: 'not-a-uuid', etag: '"abc"', fileSizeBytes: 1 }, 400, /^body\.mediaId: /],
      [{ mediaId: randomUUID(), etag: '', fileSizeBytes: 1 }, 400, /^body\.etag: /],
      [{ mediaId: randomUUID(), fileSizeBytes: 1 }, 400, /^body\.etag: /],
      [{ mediaId: randomUUID(), etag: '"abc"', fileSizeBytes: -1 }, 400, /^body\.fileSizeBytes: /],
      [{ mediaId: randomUUID(), etag: '"abc"', fileSizeBytes: '12' }, 400, /^body\.fileSizeBytes: /],
    ];
    for (const [body, status, message] of cases) {
      const response = await client.confirm(body);
      expect(response.status, JSON.stringify(body)).toBe(status);
      expect(response.body.message).toMatch(message);
    }
    const unknown = await client.status(randomUUID());
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe('Media not found');
    expect((await client.status('../../etc/passwd')).status).toBe(404);
    expect((await client.status('not-a-uuid')).status).toBe(400);
  });

  it('stores a multipart upload (field "file") through the same checks, and answers its mediaId', async () => {
    const response = await client.multipart(new Blob([JPEG], { type: 'image/jpeg' }), '../ball.jpg');
    expect(response.status).toBe(201);
    const body: any = await response.json();
    expect(body).toEqual({ mediaId: expect.stringMatching(/^[0-9a-f-]{36}$/), status: 'COMPLETED', contentType: 'image/jpeg', fileSizeBytes: JPEG.length, url: `/media/${body.mediaId}` });
    const served = await fetch(`${api.url}${body.url}`);
    expect(Buffer.from(await served.arrayBuffer()).equals(JPEG)).toBe(true);
    expect((await client.status(body.mediaId)).body).toEqual(body);
    const row = await api.deps.db.selectFrom('media').selectAll().where('id', '=', body.mediaId).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ storage_key: `${body.mediaId}.jpg`, original_filename: 'ball.jpg', etag: md5Etag(JPEG) });

    // A part that makes no claim of type is taken by its extension, then by its bytes.
    const untyped = await client.multipart(new Blob([PNG], { type: 'application/octet-stream' }), 'scan.png');
    expect(untyped.status).toBe(201);
    expect(((await untyped.json()) as { contentType: string }).contentType).toBe('image/png');
  });

  it('refuses a multipart upload whose bytes, type, size or field are wrong, and stores nothing', async () => {
    const before = (await api.deps.db.selectFrom('media').select('id').execute()).length;
    const filesBefore = await mediaFiles(api);
    const cases: Array<[Promise<Response>, number, string]> = [
      [client.multipart(new Blob([HTML], { type: 'image/png' }), 'photo.png'), 415, "The file's content is not an accepted image or video; accepted: .jpeg, .jpg, .png, .webp, .mp4, .mov, .avi"],
      [client.multipart(new Blob([PNG], { type: 'image/jpeg' }), 'photo.jpg'), 415, "The file's content is image/png, not the declared image/jpeg"],
      [client.multipart(new Blob([HTML], { type: 'text/html' }), 'page.html'), 415, EXTENSIONS_MESSAGE],
      [client.multipart(new Blob([JPEG], { type: 'text/html' }), 'ball.jpg'), 415, TYPES_MESSAGE],
      [client.multipart(new Blob([], { type: 'image/jpeg' }), 'empty.jpg'), 400, 'The file is empty'],
      [client.multipart(new Blob([JPEG], { type: 'image/jpeg' }), 'ball.jpg', 'photo'), 400, 'The multipart field "file" is required'],
      [client.multipart('just text', 'ball.jpg'), 400, 'The multipart field "file" is required'],
      [client.multipart(new Blob([Buffer.alloc(IMAGE_LIMIT + 1, 1)], { type: 'image/jpeg' }), 'huge.jpg'), 413, `File is larger than ${IMAGE_LIMIT} bytes`],
    ];
    for (const [pending, status, message] of cases) {
      const response = await pending;
      const body: any = await response.json();
      expect(response.status, message).toBe(status);
      expect(body.message).toBe(message);
    }
    const json = await api.call('POST', MULTIPART, { token: adminToken, body: { file: 'x' } });
    expect(json.status).toBe(415);
    expect(json.body.message).toBe('Send the file as multipart/form-data in the field "file"');

    expect((await api.deps.db.selectFrom('media').select('id').execute()).length).toBe(before);
    expect(await mediaFiles(api)).toEqual(filesBefore);
  }, 60_000);
});

describe.each(API_BACKENDS)('admin media uploads on the API clock on %s', (backend: ApiBackend) => {
  it('refuses a PUT once the URL has expired, and fails the upload at confirm', async () => {
    let now = new Date();
    const api = await startTestApi(backend, { clock: () => now });
    try {
      const client = uploads(api, (await api.signUp('ADMIN')).tokens.accessToken);
      const presigned = (await client.presign({ filename: 'late.jpg', contentType: 'image/jpeg' })).body;
      now = new Date(Date.parse(presigned.expiresAt) + 1000);

      const put = await client.put(presigned, JPEG);
      expect(put.status).toBe(403);
      expect(await put.json()).toMatchObject({ code: 'UPLOAD_URL_EXPIRED', message: 'This upload URL has expired' });
      expect(await mediaFiles(api)).toEqual([]);

      const confirmed = await client.confirm({ mediaId: presigned.mediaId, etag: md5Etag(JPEG), fileSizeBytes: JPEG.length });
      expect(confirmed.status).toBe(410);
      expect(confirmed.body).toMatchObject({ code: 'UPLOAD_EXPIRED', message: 'The upload URL expired before the file was uploaded' });
      expect((await client.status(presigned.mediaId)).body).toMatchObject({ status: 'FAILED', error: { code: 'UPLOAD_EXPIRED' } });
    } finally {
      await api.close();
    }
  });
});

describe.each(API_BACKENDS)('media public addresses on %s', (backend: ApiBackend) => {
  it('puts listing media URLs under MEDIA_PUBLIC_BASE_URL when one is configured', async () => {
    const api = await startTestApi(backend, { services: { media: { kind: 'local', publicBaseUrl: 'https://cdn.example.com/media/' } } });
    try {
      const client = uploads(api, (await api.signUp('ADMIN')).tokens.accessToken);
      const { mediaId, etag } = await client.upload('front.jpg', 'image/jpeg', JPEG);
      const confirmed = await client.confirm({ mediaId, etag, fileSizeBytes: JPEG.length });
      expect(confirmed.body.url).toBe(`https://cdn.example.com/media/${mediaId}`);

      const listing = await createMarketplaceListing(api, { mediaIds: [mediaId] });
      const shown = await api.call('GET', `/api/public/listings/${listing.slug}`);
      expect(shown.body.mediaUrls).toEqual([`https://cdn.example.com/media/${mediaId}`]);
    } finally {
      await api.close();
    }
  });
});

describe.each(API_BACKENDS)('admin media uploads to S3 (s3rver) on %s', (backend: ApiBackend) => {
  let s3: Awaited<ReturnType<typeof startS3rver>>;
  let api: TestApi;
  let client: ReturnType<typeof uploads>;
  let publicBase: string;
  beforeAll(async () => {
    s3 = await startS3rver();
    publicBase = `${s3.endpoint}/${s3.bucket}`;
    api = await startTestApi(backend, { services: { media: s3.settings(publicBase) } });
    client = uploads(api, (await api.signUp('ADMIN')).tokens.accessToken);
  });
  afterAll(async () => {
    await api?.close();
    await s3?.close();
  });

  it('takes a photo through a presigned PUT straight to the bucket, and serves it from the public address', async () => {
    const presigned = await client.presign({ filename: 'ball.jpg', contentType: 'image/jpeg', fileSizeBytes: JPEG.length });
    expect(presigned.status).toBe(201);
    const { mediaId, uploadUrl } = presigned.body;
    expect(uploadUrl.startsWith(`${publicBase}/${mediaId}?`)).toBe(true);
    expect(new URL(uploadUrl).searchParams.get('X-Amz-Algorithm')).toBe('AWS4-HMAC-SHA256');

    const put = await client.put(presigned.body, JPEG);
    expect(put.status).toBe(200);
    expect(put.headers.get('etag')).toBe(md5Etag(JPEG));

    const confirmed = await client.confirm({ mediaId, etag: put.headers.get('etag'), fileSizeBytes: JPEG.length });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toEqual({ mediaId, status: 'COMPLETED', contentType: 'image/jpeg', fileSizeBytes: JPEG.length, url: `${publicBase}/${mediaId}` });

    const fromBucket = await fetch(confirmed.body.url);
    expect(fromBucket.status).toBe(200);
    expect(fromBucket.headers.get('content-type')).toBe('image/jpeg');
    expect(Buffer.from(await fromBucket.arrayBuffer()).equals(JPEG)).toBe(true);
    // The API serves the same bytes too, streamed from the bucket.
    const fromApi = await fetch(`${api.url}/media/${mediaId}`);
    expect(Buffer.from(await fromApi.arrayBuffer()).equals(JPEG)).toBe(true);
  });

  it('refuses an HTML page named .png at confirm and deletes it from the bucket', async () => {
    const { mediaId, etag } = await client.upload('photo.png', 'image/png', HTML);
    expect((await fetch(`${publicBase}/${mediaId}`)).status).toBe(200);
    const confirmed = await client.confirm({ mediaId, etag, fileSizeBytes: HTML.length });
    expect(confirmed.status).toBe(415);
    expect(confirmed.body.code).toBe('CONTENT_NOT_MEDIA');
    expect((await fetch(`${publicBase}/${mediaId}`)).status).toBe(404);
    expect((await client.status(mediaId)).body.status).toBe('FAILED');
  });

  it('refuses at confirm a file larger than its limit, which a presigned PUT cannot stop', async () => {
    const big = Buffer.concat([PNG, Buffer.alloc(IMAGE_LIMIT + 1 - PNG.length, 0)]);
    const { mediaId, etag } = await client.upload('big.png', 'image/png', big);
    const confirmed = await client.confirm({ mediaId, etag, fileSizeBytes: big.length });
    expect(confirmed.status).toBe(413);
    expect(confirmed.body).toMatchObject({ code: 'FILE_TOO_LARGE', message: `File is larger than ${IMAGE_LIMIT} bytes` });
    expect((await fetch(`${publicBase}/${mediaId}`)).status).toBe(404);
  }, 60_000);

  it('stores a multipart upload in the bucket', async () => {
    const response = await client.multipart(new Blob([MP4], { type: 'video/mp4' }), 'clip.mp4');
    expect(response.status).toBe(201);
    const body: any = await response.json();
    expect(body.url).toBe(`${publicBase}/${body.mediaId}`);
    const fromBucket = await fetch(body.url);
    expect(fromBucket.headers.get('content-type')).toBe('video/mp4');
    expect(Buffer.from(await fromBucket.arrayBuffer()).equals(MP4)).toBe(true);
  });

  it('has s3rver refuse a presigned PUT whose lifetime has passed on the real clock', async () => {
    // s3rver checks X-Amz-Date + X-Amz-Expires against its own clock: sign an hour in the past.
    let now = new Date(Date.now() - 60 * 60_000);
    const past = await startTestApi(backend, { sharing: api, clock: () => now, services: { media: s3.settings(publicBase) } });
    try {
      const pastClient = uploads(past, (await past.signUp('ADMIN')).tokens.accessToken);
      const presigned = (await pastClient.presign({ filename: 'late.jpg', contentType: 'image/jpeg' })).body;
      const put = await pastClient.put(presigned, JPEG);
      expect(put.status).toBe(403);
      expect(await put.text()).toContain('Request has expired');
      now = new Date();
      const confirmed = await pastClient.confirm({ mediaId: presigned.mediaId, etag: md5Etag(JPEG), fileSizeBytes: JPEG.length });
      expect(confirmed.status).toBe(410);
    } finally {
      await past.close();
    }
  });
});

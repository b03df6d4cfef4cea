import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { S3MediaStorage } from '../../api/media/s3-storage';
import { createMediaStorage } from '../../api/media/storage';
import { JPEG } from './fixtures';
import { startS3rver } from './s3rver';
import { describeMediaStorageContract } from './storage-contract';

describeMediaStorageContract('S3 (s3rver)', async () => {
  const server = await startS3rver();
  const storage = await createMediaStorage(server.settings(`${server.endpoint}/${server.bucket}`), { dataDir: '/nonexistent', signingSecret: 'unused' });
  return { storage, resolve: (url: string) => url, close: () => server.close() };
});

describe('S3 (s3rver): presigned URLs and public addresses', () => {
  let server: Awaited<ReturnType<typeof startS3rver>>;
  let storage: S3MediaStorage;
  beforeAll(async () => {
    server = await startS3rver();
    const settings = server.settings(`${server.endpoint}/${server.bucket}/`);
    if (settings.kind !== 's3') throw new Error('expected S3 settings');
    storage = new S3MediaStorage(settings.s3, settings.publicBaseUrl);
  });
  afterAll(async () => server.close());

  it('signs a path-style PUT for the content type, with no checksum of an empty body and the lifetime asked for', async () => {
    const key = storage.keyFor(randomUUID(), 'image/jpeg');
    const now = new Date();
    const upload = await storage.createSignedUpload({ key, contentType: 'image/jpeg', now, expiresAt: new Date(now.getTime() + 15 * 60_000), maxBytes: 1, exactBytes: JPEG.length });
    const url = new URL(upload.url);
    expect(`${url.origin}${url.pathname}`).toBe(`${server.endpoint}/${server.bucket}/${key}`);
    expect(url.searchParams.get('X-Amz-Expires')).toBe('900');
    expect(url.searchParams.get('X-Amz-SignedHeaders')?.split(';')).toEqual(expect.arrayContaining(['content-length', 'content-type', 'host']));
    expect([...url.searchParams.keys()].filter((name) => /checksum/i.test(name))).toEqual([]);
  });

  it('signs URLs for the public endpoint when clients reach the store at another address', async () => {
    const settings = server.settings();
    if (settings.kind !== 's3') throw new Error('expected S3 settings');
    const behindProxy = new S3MediaStorage({ ...settings.s3, publicEndpoint: 'http://media.example.test:9000' });
    const now = new Date();
    const upload = await behindProxy.createSignedUpload({ key: randomUUID(), contentType: 'image/png', now, expiresAt: new Date(now.getTime() + 60_000), maxBytes: 1 });
    expect(upload.url.startsWith(`http://media.example.test:9000/${server.bucket}/`)).toBe(true);
  });

  it('serves a stored object at the public base address plus the media id, with its content type', async () => {
    const mediaId = randomUUID();
    await storage.put(storage.keyFor(mediaId, 'image/jpeg'), JPEG, JPEG.length, 'image/jpeg');
    const url = storage.publicUrl(mediaId);
    expect(url).toBe(`${server.endpoint}/${server.bucket}/${mediaId}`);
    const response = await fetch(url);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/jpeg');
    expect(Buffer.from(await response.arrayBuffer()).equals(JPEG)).toBe(true);
  });
});

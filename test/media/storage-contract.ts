import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MediaStorage } from '../../api/media/storage-port';
import { JPEG, md5Etag, PNG } from './fixtures';

export interface StorageUnderTest {
  readonly storage: MediaStorage;
  /** Makes a signed upload URL fetchable (the local storage's are paths of the API). */
  resolve(url: string): string;
  close(): Promise<void>;
}

const MINUTE_MS = 60_000;

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

/**
 * What every media storage does, whatever keeps the bytes: both adapters run this suite
 * (test/media/local-storage.test.ts, test/media/s3-storage.test.ts).
 */
export function describeMediaStorageContract(name: string, open: () => Promise<StorageUnderTest>): void {
  describe(`${name}: the media storage contract`, () => {
    let subject: StorageUnderTest;
    let storage: MediaStorage;
    beforeAll(async () => {
      subject = await open();
      storage = subject.storage;
    });
    afterAll(async () => subject.close());

    const signedUpload = (key: string, contentType: string, now = new Date()) =>
      storage.createSignedUpload({ key, contentType, now, expiresAt: new Date(now.getTime() + 15 * MINUTE_MS), maxBytes: 25 * 1024 * 1024 });
    const put = (url: string, headers: Readonly<Record<string, string>>, body: Uint8Array) =>
      fetch(subject.resolve(url), { method: 'PUT', headers: { ...headers }, body });

    it('takes a PUT to a signed upload URL and answers the ETag S3 would (the quoted MD5)', async () => {
      const key = storage.keyFor(randomUUID(), 'image/jpeg');
      const upload = await signedUpload(key, 'image/jpeg');
      expect(upload.headers).toEqual({ 'Content-Type': 'image/jpeg' });

      const response = await put(upload.url, upload.headers, JPEG);
      expect(response.status).toBe(200);
      expect(response.headers.get('etag')).toBe(md5Etag(JPEG));

      const stored = await storage.inspect(key, 16);
      expect(stored).toEqual({ sizeBytes: JPEG.length, etag: md5Etag(JPEG), head: expect.anything() });
      expect(Buffer.from(stored!.head).equals(JPEG.subarray(0, 16))).toBe(true);
    });

    it('inspects a small object whole and an empty one as empty', async () => {
      const key = storage.keyFor(randomUUID(), 'image/png');
      await storage.put(key, PNG, PNG.length, 'image/png');
      const whole = await storage.inspect(key, 64 * 1024);
      expect(whole?.sizeBytes).toBe(PNG.length);
      expect(Buffer.from(whole!.head).equals(PNG)).toBe(true);

      const emptyKey = storage.keyFor(randomUUID(), 'image/png');
      const upload = await signedUpload(emptyKey, 'image/png');
      expect((await put(upload.url, upload.headers, new Uint8Array(0))).status).toBe(200);
      const empty = await storage.inspect(emptyKey, 64 * 1024);
      expect(empty).toMatchObject({ sizeBytes: 0, etag: md5Etag(new Uint8Array(0)) });
      expect(empty!.head.byteLength).toBe(0);
    });

    it('stores bytes and streams them back whole, from a buffer or a stream', async () => {
      const fromBuffer = storage.keyFor(randomUUID(), 'image/jpeg');
      await storage.put(fromBuffer, JPEG, JPEG.length, 'image/jpeg');
      const opened = await storage.open(fromBuffer);
      expect(opened?.sizeBytes).toBe(JPEG.length);
      expect((await readAll(opened!.stream)).equals(JPEG)).toBe(true);

      const fromStream = storage.keyFor(randomUUID(), 'image/png');
      await storage.put(fromStream, Readable.from([PNG.subarray(0, 10), PNG.subarray(10)]), PNG.length, 'image/png');
      const streamed = await storage.open(fromStream);
      expect((await readAll(streamed!.stream)).equals(PNG)).toBe(true);
      expect((await storage.inspect(fromStream, 8))?.etag).toBe(md5Etag(PNG));
    });

    it('answers undefined for a key that holds nothing, and deletes without minding whether it did', async () => {
      const key = storage.keyFor(randomUUID(), 'image/jpeg');
      expect(await storage.inspect(key, 16)).toBeUndefined();
      expect(await storage.open(key)).toBeUndefined();
      await storage.delete(key);

      await storage.put(key, JPEG, JPEG.length, 'image/jpeg');
      await storage.delete(key);
      expect(await storage.inspect(key, 16)).toBeUndefined();
      expect(await storage.open(key)).toBeUndefined();
    });

    it('refuses a PUT to an upload URL whose time is up, and stores nothing', async () => {
      const key = storage.keyFor(randomUUID(), 'image/jpeg');
      const upload = await signedUpload(key, 'image/jpeg', new Date(Date.now() - 60 * MINUTE_MS));
      const response = await put(upload.url, upload.headers, JPEG);
      expect(response.status).toBe(403);
      expect(await response.text()).toMatch(/expired/i);
      expect(await storage.inspect(key, 16)).toBeUndefined();
    });

    it('makes keys from the media id alone, and refuses anything that is not a media id', async () => {
      const mediaId = randomUUID();
      expect(storage.keyFor(mediaId, 'video/mp4').startsWith(mediaId)).toBe(true);
      for (const id of ['../../etc/passwd', `${randomUUID()}/../x`, '']) expect(() => storage.keyFor(id, 'image/png'), id).toThrow();
      expect(await storage.inspect('../../etc/passwd', 16)).toBeUndefined();
      expect(await storage.open('../../etc/passwd')).toBeUndefined();
      await expect(storage.delete('../../etc/passwd')).rejects.toThrow();
    });

    it('gives public URLs under the configured base address, named by the media id', () => {
      const mediaId = randomUUID();
      expect(storage.publicUrl(mediaId).endsWith(`/${mediaId}`)).toBe(true);
    });
  });
}

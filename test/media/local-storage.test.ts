import { randomUUID } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { LocalMediaStorage } from '../../api/media/local-storage';
import { startTestApi } from '../support/api';
import { JPEG, md5Etag, PNG } from './fixtures';
import { describeMediaStorageContract } from './storage-contract';

/** The files of a folder; none when it was never made. */
async function filesIn(directory: string): Promise<string[]> {
  return readdir(directory).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw error;
  });
}

/** The local storage's upload URLs are served by the API: the suite runs against a real one. */
async function openLocalStorage() {
  const api = await startTestApi('PGlite');
  if (!(api.deps.mediaStorage instanceof LocalMediaStorage)) throw new Error('the test API should store media locally by default');
  return { api, storage: api.deps.mediaStorage, resolve: (url: string) => new URL(url, api.url).href, close: () => api.close() };
}

describeMediaStorageContract('local files', openLocalStorage);

describe('local files: what only the local storage enforces', () => {
  const inFifteenMinutes = () => new Date(Date.now() + 15 * 60_000);

  it('takes at most the bytes the URL was signed for, and keeps nothing of a larger body', async () => {
    const { storage, resolve, close } = await openLocalStorage();
    try {
      const key = storage.keyFor(randomUUID(), 'image/png');
      const upload = await storage.createSignedUpload({ key, contentType: 'image/png', now: new Date(), expiresAt: inFifteenMinutes(), maxBytes: 1000, exactBytes: PNG.length - 1 });
      const response = await fetch(resolve(upload.url), { method: 'PUT', headers: upload.headers, body: PNG });
      expect(response.status).toBe(413);
      expect(((await response.json()) as { message: string }).message).toBe(`File is larger than ${PNG.length - 1} bytes`);
      expect(await storage.inspect(key, 16)).toBeUndefined();
      expect(await filesIn(storage.directory)).toEqual([]);
    } finally {
      await close();
    }
  });

  it('takes one file per URL: a second PUT cannot replace the first', async () => {
    const { storage, resolve, close } = await openLocalStorage();
    try {
      const key = storage.keyFor(randomUUID(), 'image/jpeg');
      const upload = await storage.createSignedUpload({ key, contentType: 'image/jpeg', now: new Date(), expiresAt: inFifteenMinutes(), maxBytes: 25 * 1024 * 1024 });
      expect((await fetch(resolve(upload.url), { method: 'PUT', headers: upload.headers, body: JPEG })).status).toBe(200);

      const again = await fetch(resolve(upload.url), { method: 'PUT', headers: upload.headers, body: PNG });
      expect(again.status).toBe(409);
      expect(((await again.json()) as { message: string }).message).toBe('A file has already been uploaded to this URL');
      expect((await storage.inspect(key, 16))?.etag).toBe(md5Etag(JPEG));
      expect(await filesIn(storage.directory)).toEqual([key]);
    } finally {
      await close();
    }
  });
});

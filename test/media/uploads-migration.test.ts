import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { down, up } from '../../api/migrations/2026-11-22T1000-media-uploads';
import { storeMedia } from '../../api/media/storage';
import { API_BACKENDS, startTestApi } from '../support/api';
import { JPEG } from './fixtures';

describe.each(API_BACKENDS)('the media uploads migration on %s', (backend) => {
  it('goes down (forgetting uploads the older shape cannot hold) and up again', async () => {
    const api = await startTestApi(backend);
    try {
      const db = api.deps.db as unknown as Kysely<unknown>;
      const { mediaId: kept } = await storeMedia(api.deps, { bytes: JPEG, contentType: 'image/jpeg' });
      const failed = randomUUID();
      const pending = randomUUID();
      await api.deps.db
        .insertInto('media')
        .values([
          { id: failed, storage_key: `${failed}.png`, content_type: 'image/png', status: 'FAILED', created_at: new Date(), failure_code: 'CONTENT_NOT_MEDIA', failure_reason: 'not an image' },
          { id: pending, storage_key: `${pending}.png`, content_type: 'image/png', status: 'PENDING', created_at: new Date(), upload_expires_at: new Date() },
        ])
        .execute();

      await down(db);
      const remaining = await api.deps.db.selectFrom('media').select('id').execute();
      expect(remaining.map((row) => row.id)).toEqual([kept]);
      await expect(
        api.deps.db.insertInto('media').values({ id: failed, storage_key: `${failed}.png`, content_type: 'image/png', status: 'FAILED', size_bytes: 1, created_at: new Date() }).execute(),
      ).rejects.toThrow(/media_status_check/);

      await up(db);
      // A FAILED row must say why, and a COMPLETED one must have a size.
      await expect(
        api.deps.db.insertInto('media').values({ id: failed, storage_key: `${failed}.png`, content_type: 'image/png', status: 'FAILED', created_at: new Date() }).execute(),
      ).rejects.toThrow(/media_failure_check/);
      await expect(
        api.deps.db.insertInto('media').values({ id: failed, storage_key: `${failed}.png`, content_type: 'image/png', status: 'COMPLETED', created_at: new Date() }).execute(),
      ).rejects.toThrow(/media_completed_size_check/);
      expect((await api.call('GET', `/media/${kept}`)).status).toBe(200);
    } finally {
      await api.close();
    }
  }, 60_000);
});

import type { Kysely } from 'kysely';
import type { Database } from '../../database';
import { HttpError } from '../../http/errors';

/** A listing may only carry media whose upload finished (and whose bytes were checked). */
export async function requireCompletedMedia(db: Kysely<Database>, mediaIds: readonly string[]): Promise<void> {
  if (mediaIds.length === 0) return;
  const completed = await db.selectFrom('media').select('id').where('id', 'in', [...mediaIds]).where('status', '=', 'COMPLETED').execute();
  const found = new Set(completed.map((row) => row.id));
  const missing = mediaIds.filter((mediaId) => !found.has(mediaId));
  if (missing.length > 0) {
    throw new HttpError(400, `Media not found or not uploaded yet: ${missing.join(', ')}`, 'MEDIA_NOT_READY');
  }
}

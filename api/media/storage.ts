import { randomUUID } from 'node:crypto';
import { mkdir, open, rename, rm, writeFile } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { join } from 'node:path';
import type { AppDependencies } from '../dependencies';
import { HttpError } from '../http/errors';

/** The media a listing may carry (spec section 5), with the extension their stored files get. */
export const MEDIA_EXTENSIONS: Readonly<Record<string, string>> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'video/mp4': 'mp4',
  'video/quicktime': 'mov',
  'video/x-msvideo': 'avi',
};

/** Keys are always `<uuid>.<ext>`: anything else read back from the table is refused, never joined to a path. */
const STORAGE_KEY = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.[a-z0-9]{2,5}$/;

type MediaDependencies = Pick<AppDependencies, 'db' | 'dataDir' | 'clock'>;

export function localMediaDirectory(dataDir: string): string {
  return join(dataDir, 'media');
}

/** "image/JPEG; charset=binary" -> "image/jpeg"; null when it is not a type a listing may carry. */
export function acceptedMediaType(contentType: string): string | null {
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  return Object.hasOwn(MEDIA_EXTENSIONS, type) ? type : null;
}

export interface NewLocalMedia {
  readonly bytes: Uint8Array;
  readonly contentType: string;
  readonly originalFilename?: string | null;
}

/**
 * Keeps a file in the embedded default's local storage: written under a server-chosen name, then
 * recorded as COMPLETED. The seed and the upload flow both store media through here.
 */
export async function storeLocalMedia(deps: MediaDependencies, media: NewLocalMedia): Promise<{ mediaId: string }> {
  const contentType = acceptedMediaType(media.contentType);
  if (contentType === null) {
    throw new HttpError(415, `File type must be one of ${Object.keys(MEDIA_EXTENSIONS).join(', ')}`, 'UNSUPPORTED_MEDIA_TYPE');
  }
  if (media.bytes.byteLength === 0) throw new HttpError(400, 'The file is empty', 'EMPTY_MEDIA');

  const mediaId = randomUUID();
  const storageKey = `${mediaId}.${MEDIA_EXTENSIONS[contentType]}`;
  const directory = localMediaDirectory(deps.dataDir);
  await mkdir(directory, { recursive: true });
  const path = join(directory, storageKey);
  // Written aside and renamed, so a reader never meets half a file under the final name.
  const partial = join(directory, `.${storageKey}.partial`);
  await writeFile(partial, media.bytes, { flag: 'wx', mode: 0o644 });
  try {
    await rename(partial, path);
    await deps.db
      .insertInto('media')
      .values({
        id: mediaId,
        storage_key: storageKey,
        content_type: contentType,
        size_bytes: media.bytes.byteLength,
        original_filename: filenameLabel(media.originalFilename),
        status: 'COMPLETED',
        created_at: deps.clock(),
      })
      .execute();
  } catch (error) {
    await rm(partial, { force: true });
    await rm(path, { force: true });
    throw error;
  }
  return { mediaId };
}

export interface OpenedMedia {
  readonly contentType: string;
  readonly sizeBytes: number;
  readonly stream: Readable;
}

/**
 * A COMPLETED local file, opened for reading; undefined when there is no such media (unknown id,
 * upload not confirmed, or the file gone from disk). The path comes from the stored key alone.
 */
export async function openLocalMedia(deps: Pick<AppDependencies, 'db' | 'dataDir'>, mediaId: string): Promise<OpenedMedia | undefined> {
  const row = await deps.db
    .selectFrom('media')
    .select(['storage_key', 'content_type'])
    .where('id', '=', mediaId)
    .where('status', '=', 'COMPLETED')
    .executeTakeFirst();
  if (!row || !STORAGE_KEY.test(row.storage_key)) return undefined;
  let handle;
  try {
    handle = await open(join(localMediaDirectory(deps.dataDir), row.storage_key), 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) {
      await handle.close();
      return undefined;
    }
    // The size of the file actually sent, measured on the handle that sends it.
    return { contentType: row.content_type, sizeBytes: stats.size, stream: handle.createReadStream() };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/** The uploader's filename as a label: no folders, no control characters, bounded. */
function filenameLabel(filename: string | null | undefined): string | null {
  if (!filename) return null;
  const base = filename.split(/[\\/]/).pop() ?? '';
  // Control characters would garble a log line or a Content-Disposition header later.
  const clean = [...base].filter((char) => char >= ' ' && char !== '\u007f').join('').trim().slice(0, 255);
  return clean.length > 0 ? clean : null;
}

import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { AppDependencies } from '../dependencies';
import { HttpError } from '../http/errors';
import { LocalMediaStorage } from './local-storage';
import { acceptedMediaType, unsupportedTypeError } from './media-types';
import type { MediaStorage, MediaStorageSettings, OpenedObject } from './storage-port';

/**
 * The storage the settings name; the local one signs its upload URLs with a key derived from
 * `signingSecret`. The AWS SDK (some 30 MiB of memory) is loaded only when S3 is configured.
 */
export async function createMediaStorage(settings: MediaStorageSettings, local: { dataDir: string; signingSecret: string }): Promise<MediaStorage> {
  switch (settings.kind) {
    case 'local':
      return new LocalMediaStorage({ ...local, publicBaseUrl: settings.publicBaseUrl });
    case 's3': {
      const { S3MediaStorage } = await import('./s3-storage');
      return new S3MediaStorage(settings.s3, settings.publicBaseUrl);
    }
    default: {
      const unknown: never = settings;
      throw new Error(`unknown media storage ${JSON.stringify(unknown)}`);
    }
  }
}

type MediaDependencies = Pick<AppDependencies, 'db' | 'clock' | 'mediaStorage'>;

export interface NewMedia {
  readonly bytes: Uint8Array;
  readonly contentType: string;
  readonly originalFilename?: string | null;
}

/**
 * Keeps a file the server already holds (the seed's photos): stored under a server-chosen key, then
 * recorded as COMPLETED. Uploads from clients go through api/media/uploads.ts instead.
 */
export async function storeMedia(deps: MediaDependencies, media: NewMedia): Promise<{ mediaId: string }> {
  const contentType = acceptedMediaType(media.contentType);
  if (contentType === null) throw unsupportedTypeError();
  if (media.bytes.byteLength === 0) throw new HttpError(400, 'The file is empty', 'EMPTY_MEDIA');

  return storeCompletedMedia(deps, {
    body: media.bytes,
    sizeBytes: media.bytes.byteLength,
    contentType,
    originalFilename: media.originalFilename ?? null,
    etag: null,
  });
}

/** Bytes that passed every check, to be kept: what storeMedia and a multipart upload share. */
export interface CheckedMedia {
  readonly body: Uint8Array | Readable;
  readonly sizeBytes: number;
  /** One of the accepted types, normalised. */
  readonly contentType: string;
  readonly originalFilename: string | null;
  readonly etag: string | null;
}

/**
 * Puts checked bytes in the store under a server-chosen key and records them COMPLETED; if the
 * record cannot be written, the stored object is removed again.
 */
export async function storeCompletedMedia(deps: MediaDependencies, media: CheckedMedia): Promise<{ mediaId: string }> {
  const mediaId = randomUUID();
  const storageKey = deps.mediaStorage.keyFor(mediaId, media.contentType);
  await deps.mediaStorage.put(storageKey, media.body, media.sizeBytes, media.contentType);
  try {
    await deps.db
      .insertInto('media')
      .values({
        id: mediaId,
        storage_key: storageKey,
        content_type: media.contentType,
        size_bytes: media.sizeBytes,
        original_filename: filenameLabel(media.originalFilename),
        status: 'COMPLETED',
        created_at: deps.clock(),
        ...(media.etag === null ? {} : { etag: media.etag }),
      })
      .execute();
  } catch (error) {
    await deps.mediaStorage.delete(storageKey);
    throw error;
  }
  return { mediaId };
}

export interface OpenedMedia extends OpenedObject {
  readonly contentType: string;
}

/**
 * A COMPLETED media file, opened for reading; undefined when there is no such media (unknown id,
 * upload not confirmed, or the file gone from the store). The key comes from the table alone.
 */
export async function openMedia(deps: Pick<AppDependencies, 'db' | 'mediaStorage'>, mediaId: string): Promise<OpenedMedia | undefined> {
  const row = await deps.db
    .selectFrom('media')
    .select(['storage_key', 'content_type'])
    .where('id', '=', mediaId)
    .where('status', '=', 'COMPLETED')
    .executeTakeFirst();
  if (!row) return undefined;
  const opened = await deps.mediaStorage.open(row.storage_key);
  return opened && { ...opened, contentType: row.content_type };
}

/** The uploader's filename as a label: no folders, no control characters, bounded. */
export function filenameLabel(filename: string | null | undefined): string | null {
  if (!filename) return null;
  const base = filename.split(/[\\/]/).pop() ?? '';
  // Control characters would garble a log line or a Content-Disposition header later.
  const clean = [...base].filter((char) => char >= ' ' && char !== '\u007f').join('').trim().slice(0, 255);
  return clean.length > 0 ? clean : null;
}

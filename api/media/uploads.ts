import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import type { Selectable, UpdateObject } from 'kysely';
import type { ConfirmUploadRequest, MediaStatusAnswer, PresignedUploadAnswer, PresignUploadRequest } from '../contracts/admin/media';
import type { Database } from '../database';
import type { AppDependencies } from '../dependencies';
import { HttpError } from '../http/errors';
import { TooManyBytesError, writeAtMost } from './capped-write';
import { fileTooLargeError, maxBytesFor, refuseFileContent, requireUploadType, SNIFF_BYTES } from './media-types';
import type { MediaTable } from './schema';
import { filenameLabel, storeCompletedMedia } from './storage';

type UploadDependencies = Pick<AppDependencies, 'db' | 'clock' | 'mediaStorage'>;

/** Long enough for a large video on a slow connection; short enough that a leaked URL soon dies. */
export const UPLOAD_URL_LIFETIME_MS = 15 * 60 * 1000;

/**
 * Step 1 of an upload: a PENDING media row under a server-chosen key, and a URL the client PUTs
 * the bytes to. `apiOrigin` turns the local storage's URLs (paths of this API) into absolute ones.
 */
export async function startUpload(deps: UploadDependencies, request: PresignUploadRequest, apiOrigin: string): Promise<PresignedUploadAnswer> {
  const contentType = requireUploadType(request.filename, request.contentType);
  const maxBytes = maxBytesFor(contentType);
  if (request.fileSizeBytes !== undefined && request.fileSizeBytes > maxBytes) throw fileTooLargeError(maxBytes);

  const now = deps.clock();
  const expiresAt = new Date(now.getTime() + UPLOAD_URL_LIFETIME_MS);
  const mediaId = randomUUID();
  const storageKey = deps.mediaStorage.keyFor(mediaId, contentType);
  const signed = await deps.mediaStorage.createSignedUpload({ key: storageKey, contentType, now, expiresAt, maxBytes, exactBytes: request.fileSizeBytes });
  await deps.db
    .insertInto('media')
    .values({
      id: mediaId,
      storage_key: storageKey,
      content_type: contentType,
      size_bytes: null,
      original_filename: filenameLabel(request.filename),
      status: 'PENDING',
      created_at: now,
      upload_expires_at: expiresAt,
      declared_size_bytes: request.fileSizeBytes ?? null,
    })
    .execute();
  return {
    mediaId,
    uploadUrl: new URL(signed.url, apiOrigin).href,
    method: 'PUT',
    headers: { ...signed.headers },
    expiresAt: expiresAt.toISOString(),
    maxSizeBytes: request.fileSizeBytes ?? maxBytes,
  };
}

/** A refusal of an uploaded file: the answer the confirm call gives, now and on every later confirm. */
interface Refusal {
  readonly code: string;
  readonly message: string;
}

/** The HTTP status of each refusal code: a FAILED row keeps only the code, and answers as it first did. */
const REFUSAL_STATUS: Readonly<Record<string, number>> = {
  UPLOAD_EXPIRED: 410,
  EMPTY_MEDIA: 400,
  FILE_TOO_LARGE: 413,
  SIZE_MISMATCH: 409,
  ETAG_MISMATCH: 409,
  CONTENT_NOT_MEDIA: 415,
  CONTENT_TYPE_MISMATCH: 415,
};

/**
 * Step 3 (after the client's PUT): the stored object must exist, have the size and ETag the client
 * reports, fit the limit of its type, and its bytes must be the declared type. A refused file is
 * deleted and its row FAILED for good; confirming again gives the same answer either way.
 */
export async function confirmUpload(deps: UploadDependencies, confirmation: ConfirmUploadRequest): Promise<MediaStatusAnswer> {
  const row = await findMedia(deps, confirmation.mediaId);
  if (row.status === 'COMPLETED') {
    const sameFile = Number(row.size_bytes) === confirmation.fileSizeBytes && sameEtag(row.etag ?? '', confirmation.etag);
    if (!sameFile) throw new HttpError(409, 'This media is already stored with another size or ETag', 'ALREADY_CONFIRMED');
    return presentMediaStatus(deps, row);
  }
  if (row.status === 'FAILED') throw refusalError(storedRefusal(row));

  const stored = await deps.mediaStorage.inspect(row.storage_key, SNIFF_BYTES);
  if (!stored) {
    if (!row.upload_expires_at || deps.clock() < row.upload_expires_at) {
      throw new HttpError(409, 'No file has been uploaded for this media yet', 'UPLOAD_NOT_FOUND');
    }
    await settle(deps, row.id, { status: 'FAILED', failure_code: 'UPLOAD_EXPIRED', failure_reason: 'The upload URL expired before the file was uploaded' });
    return answerSettled(deps, row.id);
  }
  const refusal = await refusalOf(row, stored, confirmation);
  if (refusal) {
    await deps.mediaStorage.delete(row.storage_key);
    await settle(deps, row.id, { status: 'FAILED', failure_code: refusal.code, failure_reason: refusal.message });
  } else {
    await settle(deps, row.id, { status: 'COMPLETED', size_bytes: stored.sizeBytes, etag: stored.etag });
  }
  // A confirm running alongside may have settled it first: the answer is whatever the row now says.
  return answerSettled(deps, row.id);
}

export async function uploadStatus(deps: UploadDependencies, mediaId: string): Promise<MediaStatusAnswer> {
  return presentMediaStatus(deps, await findMedia(deps, mediaId));
}

export interface MultipartFile {
  readonly stream: Readable;
  readonly filename: string;
  /** The part's content type as the client sent it. */
  readonly mimetype: string;
  /** True when the multipart parser stopped reading at its own limit. */
  readonly truncated: () => boolean;
}

/**
 * The spec's one-request "media upload helper": the same type rules, limits and byte checks as the
 * signed-URL flow, stored through the same port. The part is spooled to a temporary file first:
 * object stores need the length before the bytes, and nothing is stored before it is checked.
 */
export async function storeUploadedFile(deps: UploadDependencies, file: MultipartFile): Promise<MediaStatusAnswer> {
  // A part sent as application/octet-stream makes no claim: its extension names the type.
  const claimed = file.mimetype.split(';')[0]!.trim().toLowerCase();
  const contentType = requireUploadType(file.filename, claimed === 'application/octet-stream' || claimed === '' ? undefined : file.mimetype);
  const maxBytes = maxBytesFor(contentType);

  const spool = await mkdtemp(join(tmpdir(), 'provenance-upload-'));
  try {
    const path = join(spool, 'file');
    let written;
    try {
      written = await writeAtMost(file.stream, path, maxBytes);
    } catch (error) {
      if (error instanceof TooManyBytesError) throw fileTooLargeError(maxBytes);
      throw error;
    }
    if (file.truncated()) throw fileTooLargeError(maxBytes);
    if (written.sizeBytes === 0) throw new HttpError(400, 'The file is empty', 'EMPTY_MEDIA');
    const refusal = await refuseFileContent(await readHead(path), contentType);
    if (refusal) throw refusalError(refusal);

    const { mediaId } = await storeCompletedMedia(deps, {
      body: createReadStream(path),
      sizeBytes: written.sizeBytes,
      contentType,
      originalFilename: file.filename,
      etag: `"${written.md5Hex}"`,
    });
    return answerSettled(deps, mediaId);
  } finally {
    await rm(spool, { recursive: true, force: true });
  }
}

type MediaRow = Pick<
  Selectable<MediaTable>,
  'id' | 'storage_key' | 'content_type' | 'status' | 'size_bytes' | 'declared_size_bytes' | 'etag' | 'upload_expires_at' | 'failure_code' | 'failure_reason'
>;

async function findMedia(deps: UploadDependencies, mediaId: string) {
  const row = await deps.db
    .selectFrom('media')
    .select(['id', 'storage_key', 'content_type', 'status', 'size_bytes', 'declared_size_bytes', 'etag', 'upload_expires_at', 'failure_code', 'failure_reason'])
    .where('id', '=', mediaId)
    .executeTakeFirst();
  if (!row) throw new HttpError(404, 'Media not found', 'MEDIA_NOT_FOUND');
  return row;
}

/** The answer for a row that has just been settled: 200 with the status when COMPLETED, the refusal when FAILED. */
async function answerSettled(deps: UploadDependencies, mediaId: string): Promise<MediaStatusAnswer> {
  const row = await findMedia(deps, mediaId);
  if (row.status === 'FAILED') throw refusalError(storedRefusal(row));
  return presentMediaStatus(deps, row);
}

/** PENDING to COMPLETED or FAILED, once: a row already settled keeps its verdict. */
async function settle(deps: UploadDependencies, mediaId: string, outcome: UpdateObject<Database, 'media'>): Promise<void> {
  await deps.db.updateTable('media').set(outcome).where('id', '=', mediaId).where('status', '=', 'PENDING').execute();
}

async function refusalOf(
  row: { content_type: string },
  stored: { sizeBytes: number; etag: string; head: Uint8Array },
  confirmation: ConfirmUploadRequest,
): Promise<Refusal | undefined> {
  const maxBytes = maxBytesFor(row.content_type);
  if (stored.sizeBytes > maxBytes) return { code: 'FILE_TOO_LARGE', message: fileTooLargeError(maxBytes).message };
  if (stored.sizeBytes === 0) return { code: 'EMPTY_MEDIA', message: 'The file is empty' };
  if (stored.sizeBytes !== confirmation.fileSizeBytes) {
    return { code: 'SIZE_MISMATCH', message: `The uploaded file has ${stored.sizeBytes} bytes, not ${confirmation.fileSizeBytes}` };
  }
  if (!sameEtag(stored.etag, confirmation.etag)) {
    return { code: 'ETAG_MISMATCH', message: `The uploaded file's ETag is ${stored.etag}, not ${confirmation.etag}` };
  }
  return refuseFileContent(stored.head, row.content_type);
}

function storedRefusal(row: MediaRow): Refusal {
  return { code: row.failure_code ?? 'UPLOAD_FAILED', message: row.failure_reason ?? 'The upload failed' };
}

function refusalError(refusal: Refusal): HttpError {
  return new HttpError(REFUSAL_STATUS[refusal.code] ?? 422, refusal.message, refusal.code);
}

/** ETags compare without their quotes or weak marker, and without regard to case (hex). */
function sameEtag(left: string, right: string): boolean {
  const bare = (etag: string) => etag.trim().replace(/^W\//, '').replace(/"/g, '').toLowerCase();
  return bare(left) !== '' && bare(left) === bare(right);
}

function presentMediaStatus(deps: Pick<AppDependencies, 'mediaStorage'>, row: MediaRow): MediaStatusAnswer {
  const size = row.size_bytes ?? row.declared_size_bytes;
  return {
    mediaId: row.id,
    status: row.status,
    contentType: row.content_type,
    fileSizeBytes: size === null ? null : Number(size),
    ...(row.status === 'COMPLETED' ? { url: deps.mediaStorage.publicUrl(row.id) } : {}),
    ...(row.status === 'FAILED' ? { error: storedRefusal(row) } : {}),
    ...(row.status === 'PENDING' && row.upload_expires_at ? { expiresAt: row.upload_expires_at.toISOString() } : {}),
  };
}

async function readHead(path: string): Promise<Uint8Array> {
  const handle = await open(path, 'r');
  try {
    const head = Buffer.alloc(SNIFF_BYTES);
    const { bytesRead } = await handle.read(head, 0, SNIFF_BYTES, 0);
    return head.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** How long after its URL expired an unconfirmed upload may still be confirmed (a slow client's last PUT). */
export const CONFIRM_GRACE_MS = 60 * 60_000;

/**
 * Uploads announced and never confirmed: their objects (if a PUT arrived) are deleted and their
 * rows FAILED, so abandoned bytes never pile up in the store. Returns how many were swept.
 */
export async function sweepAbandonedUploads(deps: UploadDependencies, now: Date, limit = 100): Promise<number> {
  const abandoned = await deps.db
    .selectFrom('media')
    .select(['id', 'storage_key'])
    .where('status', '=', 'PENDING')
    .where('upload_expires_at', '<', new Date(now.getTime() - CONFIRM_GRACE_MS))
    .orderBy('upload_expires_at')
    .limit(limit)
    .execute();
  for (const row of abandoned) {
    await deps.mediaStorage.delete(row.storage_key);
    await settle(deps, row.id, { status: 'FAILED', failure_code: 'UPLOAD_ABANDONED', failure_reason: 'The upload was never confirmed' });
  }
  return abandoned.length;
}

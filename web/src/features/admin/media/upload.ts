import type { ConfirmUploadRequest, MediaStatusAnswer, PresignedUploadAnswer, PresignUploadRequest } from '../../../../../api/contracts/admin/media';
import { apiRequest, errorMessage } from '../../../lib/api-client';
import { sendWithProgress } from '../../../lib/upload-with-progress';
import { contentTypeOf } from './accepted-media';

export interface UploadedMedia {
  readonly mediaId: string;
  /** Where the public fetches it. */
  readonly url: string;
}

/** Headers a page may not set (the browser does); a signed URL that names one still works without it. */
const BROWSER_SET_HEADERS = new Set(['content-length', 'host', 'connection']);

/**
 * One file through the API's three steps: a presigned URL, the PUT of the bytes to it (the only
 * long step, so the only one that reports progress, in whole percent), then the confirm that
 * makes the media usable. Fails with the message to show under "Upload failed".
 */
export async function uploadMedia(file: File, onProgress: (percent: number) => void, signal: AbortSignal): Promise<UploadedMedia> {
  let presigned: PresignedUploadAnswer;
  try {
    const request: PresignUploadRequest = { filename: file.name, contentType: contentTypeOf(file), ...(file.size > 0 ? { fileSizeBytes: file.size } : {}) };
    presigned = await apiRequest<PresignedUploadAnswer>('/api/admin/media/upload/presigned-url', { auth: true, body: request, signal });
  } catch (error) {
    throw new Error(errorMessage(error, 'Failed to get upload URL'), { cause: error });
  }

  const etag = await putBytes(presigned, file, onProgress, signal);

  let stored: MediaStatusAnswer;
  try {
    const confirmation: ConfirmUploadRequest = { mediaId: presigned.mediaId, etag, fileSizeBytes: file.size };
    stored = await apiRequest<MediaStatusAnswer>('/api/admin/media/upload/confirm', { auth: true, body: confirmation, signal });
  } catch (error) {
    throw new Error(errorMessage(error, 'Failed to confirm upload'), { cause: error });
  }
  if (stored.status !== 'COMPLETED' || stored.url === undefined) throw new Error(stored.error?.message ?? 'Failed to confirm upload');
  return { mediaId: stored.mediaId, url: stored.url };
}

/** The PUT of the bytes, reporting its progress. Answers the ETag to confirm with. */
async function putBytes(target: PresignedUploadAnswer, file: File, onProgress: (percent: number) => void, signal: AbortSignal): Promise<string> {
  const headers = Object.fromEntries(Object.entries(target.headers).filter(([name]) => !BROWSER_SET_HEADERS.has(name.toLowerCase())));
  const request = await sendWithProgress({
    method: target.method,
    url: target.uploadUrl,
    headers,
    body: file,
    onProgress: (loaded, total) => onProgress(Math.min(100, Math.floor((loaded / total) * 100))),
    signal,
    networkError: () => new Error('Upload failed: the connection to the storage was lost'),
  });
  if (request.status < 200 || request.status >= 300) throw new Error(`Upload failed: ${request.status} ${request.statusText}`.trim());
  // An S3 bucket must expose the ETag header to the page (CORS ExposeHeaders) for this to be readable.
  const etag = request.getResponseHeader('etag');
  if (!etag) throw new Error("Upload failed: the storage did not answer the file's ETag");
  onProgress(100);
  return etag;
}

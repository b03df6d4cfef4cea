import type { BulkImportResult } from '../../../../../api/contracts/admin/bulk-import';
import { ApiError, apiErrorOf, authorizationHeader } from '../../../lib/api-client';
import { fetchDownload } from '../../../lib/download';
import { sendWithProgress } from '../../../lib/upload-with-progress';

/** Processing 1,000 rows takes a while after the last byte is sent; a request stuck for longer than this has failed. */
const UPLOAD_TIMEOUT_MS = 5 * 60_000;

/**
 * POST /api/admin/bulk-import with the file in the multipart field "file". XMLHttpRequest, not
 * fetch: only it reports the upload's progress, through `onProgress(loaded, total)` in bytes.
 */
export async function sendSheet(file: File, onProgress: (loaded: number, total: number) => void, signal: AbortSignal): Promise<BulkImportResult> {
  const form = new FormData();
  form.append('file', file, file.name);
  const request = await sendWithProgress({
    method: 'POST',
    url: '/api/admin/bulk-import',
    headers: { accept: 'application/json', ...authorizationHeader() },
    body: form,
    onProgress,
    signal,
    timeoutMs: UPLOAD_TIMEOUT_MS,
    networkError: () => new ApiError('Network error', 0, 'NETWORK'),
    timeoutError: () => new ApiError('The server took too long to answer', 0, 'TIMEOUT'),
  });
  if (request.status < 200 || request.status >= 300) throw apiErrorOf(request.status, request.responseText);
  try {
    return JSON.parse(request.responseText) as BulkImportResult;
  } catch {
    throw new ApiError('The server answered with something other than an import result', request.status, 'BAD_ANSWER');
  }
}

/** GET /api/admin/bulk-import/template: the CSV to fill in, under the name the server gives it. */
export function fetchTemplate(): Promise<{ contents: Blob; filename: string }> {
  return fetchDownload('/api/admin/bulk-import/template', { accept: 'text/csv', fallbackFilename: 'jersey_import_template.csv' });
}

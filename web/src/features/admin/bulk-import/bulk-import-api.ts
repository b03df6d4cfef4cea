import type { BulkImportResult } from '../../../../../api/contracts/admin/bulk-import';
import { ApiError, apiErrorOf, authorizationHeader } from '../../../lib/api-client';
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
export async function fetchTemplate(): Promise<{ contents: Blob; filename: string }> {
  let response: Response;
  try {
    response = await fetch('/api/admin/bulk-import/template', { headers: { accept: 'text/csv', ...authorizationHeader() } });
  } catch {
    throw new ApiError('Network error', 0, 'NETWORK');
  }
  if (!response.ok) throw apiErrorOf(response.status, await response.text());
  const filename = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? 'jersey_import_template.csv';
  return { contents: await response.blob(), filename };
}

/** Hands a file to the browser to save, as a download link would. */
export function saveFile(contents: Blob, filename: string): void {
  const url = URL.createObjectURL(contents);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.click();
  // Some browsers read the URL a moment after the click: it is freed a while later, not at once.
  setTimeout(() => URL.revokeObjectURL(url), 30_000);
}

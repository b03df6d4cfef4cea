import type { BulkImportResult } from '../../../../../api/contracts/admin/bulk-import';
import { ApiError, apiErrorOf, authorizationHeader } from '../../../lib/api-client';

/** Processing 1,000 rows takes a while after the last byte is sent; a request stuck for longer than this has failed. */
const UPLOAD_TIMEOUT_MS = 5 * 60_000;

/**
 * POST /api/admin/bulk-import with the file in the multipart field "file". XMLHttpRequest, not
 * fetch: only it reports the upload's progress, through `onProgress(loaded, total)` in bytes.
 */
export function sendSheet(file: File, onProgress: (loaded: number, total: number) => void, signal: AbortSignal): Promise<BulkImportResult> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', '/api/admin/bulk-import');
    for (const [name, value] of Object.entries({ accept: 'application/json', ...authorizationHeader() })) request.setRequestHeader(name, value);
    request.timeout = UPLOAD_TIMEOUT_MS;
    request.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable) onProgress(event.loaded, event.total);
    });
    request.addEventListener('load', () => {
      if (request.status >= 200 && request.status < 300) {
        try {
          resolve(JSON.parse(request.responseText) as BulkImportResult);
        } catch {
          reject(new ApiError('The server answered with something other than an import result', request.status, 'BAD_ANSWER'));
        }
      } else {
        reject(apiErrorOf(request.status, request.responseText));
      }
    });
    request.addEventListener('error', () => reject(new ApiError('Network error', 0, 'NETWORK')));
    request.addEventListener('timeout', () => reject(new ApiError('The server took too long to answer', 0, 'TIMEOUT')));
    request.addEventListener('abort', () => reject(new DOMException('The upload was stopped', 'AbortError')));
    signal.addEventListener('abort', () => request.abort(), { once: true });

    const form = new FormData();
    form.append('file', file, file.name);
    request.send(form);
  });
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

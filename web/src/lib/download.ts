import { ApiError, apiErrorOf, authorizationHeader } from './api-client';

/**
 * Files the API sends (a template, an export): fetched with the signed-in user's token, which a
 * plain download link could not send, then handed to the browser to save.
 */

/** GET `path` as a file, under the name its Content-Disposition gives (else `fallbackFilename`); a refusal throws the server's message. */
export async function fetchDownload(path: string, { accept, fallbackFilename, signal }: { accept: string; fallbackFilename: string; signal?: AbortSignal }): Promise<{ contents: Blob; filename: string }> {
  let response: Response;
  try {
    response = await fetch(path, { headers: { accept, ...authorizationHeader() }, ...(signal ? { signal } : {}) });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new ApiError('Network error', 0, 'NETWORK');
  }
  if (!response.ok) throw apiErrorOf(response.status, await response.text());
  const filename = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? fallbackFilename;
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

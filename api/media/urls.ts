/**
 * Where a client fetches a media file: `/media/{mediaId}` on the API (local storage, the embedded
 * default), or under the configured public base address when media live in object storage.
 */
export function mediaUrl(mediaId: string, publicBaseUrl?: string): string {
  const base = publicBaseUrl ? publicBaseUrl.replace(/\/+$/, '') : '/media';
  return `${base}/${encodeURIComponent(mediaId)}`;
}

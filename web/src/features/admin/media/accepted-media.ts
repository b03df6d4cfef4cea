/**
 * The media a listing may carry, as the upload API accepts them (api/media/media-types.ts holds
 * the server's copy; test/web/media-tiles.test.ts holds both to the same list).
 */

/** react-dropzone's accept map: each MIME type with the extensions that mean it. */
export const ACCEPTED_MEDIA = {
  'image/jpeg': ['.jpeg', '.jpg'],
  'image/png': ['.png'],
  'image/webp': ['.webp'],
  'video/mp4': ['.mp4'],
  'video/quicktime': ['.mov'],
  'video/x-msvideo': ['.avi'],
} as const satisfies Record<string, readonly string[]>;

/** A listing's most media files (the contract's MAX_MEDIA_PER_LISTING). */
export const MAX_MEDIA_FILES = 8;

/**
 * The content type to announce for a file: the browser's own when it has one (the API knows its
 * aliases, such as video/avi), else the type its extension means (browsers leave .avi or .mov
 * blank on some systems). Anything else is announced as bytes, and the API says why it refuses it.
 */
export function contentTypeOf(file: Pick<File, 'name' | 'type'>): string {
  if (file.type !== '') return file.type;
  const extension = /\.[^./\\]+$/.exec(file.name)?.[0]?.toLowerCase();
  const match = Object.entries(ACCEPTED_MEDIA).find(([, extensions]) => (extensions as readonly string[]).includes(extension ?? ''));
  return match?.[0] ?? 'application/octet-stream';
}

export function isVideo(contentType: string | null): boolean {
  return contentType?.startsWith('video/') ?? false;
}

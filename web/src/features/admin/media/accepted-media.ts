import { ACCEPTED_MEDIA } from '../../../../../api/contracts/admin/media';

/** react-dropzone's accept map and the cap on files: the contract's own, as the upload API checks them. */
export { ACCEPTED_MEDIA, MAX_MEDIA_PER_LISTING } from '../../../../../api/contracts/admin/media';

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

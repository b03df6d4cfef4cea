import { fileTypeFromBuffer } from 'file-type';
import { ACCEPTED_MEDIA } from '../contracts/admin/media';
import { HttpError } from '../http/errors';

const ACCEPTED: ReadonlyArray<[string, readonly string[]]> = Object.entries(ACCEPTED_MEDIA);

/** The media a listing may carry (the contract's list), with the extension their stored files get. */
export const MEDIA_EXTENSIONS: Readonly<Record<string, string>> = Object.fromEntries(ACCEPTED.map(([type, extensions]) => [type, extensions.at(-1)!.slice(1)]));

/** The filename extensions accepted, and the type each one means. */
const TYPE_OF_EXTENSION: Readonly<Record<string, string>> = Object.fromEntries(
  ACCEPTED.flatMap(([type, extensions]) => extensions.map((extension) => [extension.slice(1), type])),
);

/** Other names browsers and tools give the same types. */
const TYPE_ALIASES: Readonly<Record<string, string>> = {
  'image/jpg': 'image/jpeg',
  'image/pjpeg': 'image/jpeg',
  'video/avi': 'video/x-msvideo',
  'video/msvideo': 'video/x-msvideo',
  'video/vnd.avi': 'video/x-msvideo',
};

/** What file-type reports for the bytes of each accepted type (an animated PNG is still a PNG, an M4V an MP4). */
const TYPE_OF_SNIFFED: Readonly<Record<string, string>> = {
  'image/jpeg': 'image/jpeg',
  'image/png': 'image/png',
  'image/apng': 'image/png',
  'image/webp': 'image/webp',
  'video/mp4': 'video/mp4',
  'video/x-m4v': 'video/mp4',
  'video/quicktime': 'video/quicktime',
  'video/vnd.avi': 'video/x-msvideo',
};

const MB = 1024 * 1024;
/** Photos of an item are a few MB; 25 MB leaves room for a full-resolution camera file. */
export const MAX_IMAGE_BYTES = 25 * MB;
/** A short walk-around clip of an item; longer films belong elsewhere. */
export const MAX_VIDEO_BYTES = 500 * MB;
/** The largest file any upload may bring. */
export const MAX_MEDIA_BYTES = Math.max(MAX_IMAGE_BYTES, MAX_VIDEO_BYTES);

/** How many leading bytes the type sniffing reads: file-type needs about 4 kB; the rest is headroom. */
export const SNIFF_BYTES = 64 * 1024;

export const ACCEPTED_EXTENSIONS_TEXT = Object.keys(TYPE_OF_EXTENSION).map((extension) => `.${extension}`).join(', ');
const ACCEPTED_TYPES_TEXT = Object.keys(MEDIA_EXTENSIONS).join(', ');

/** "image/JPEG; charset=binary" -> "image/jpeg", "video/avi" -> "video/x-msvideo"; null when a listing cannot carry it. */
export function acceptedMediaType(contentType: string): string | null {
  const named = contentType.split(';')[0]!.trim().toLowerCase();
  const type = TYPE_ALIASES[named] ?? named;
  return Object.hasOwn(MEDIA_EXTENSIONS, type) ? type : null;
}

/** The most bytes a file of this (accepted) type may have. */
export function maxBytesFor(contentType: string): number {
  return contentType.startsWith('video/') ? MAX_VIDEO_BYTES : MAX_IMAGE_BYTES;
}

export function unsupportedTypeError(): HttpError {
  return new HttpError(415, `File type must be one of ${ACCEPTED_TYPES_TEXT}`, 'UNSUPPORTED_MEDIA_TYPE');
}

export function fileTooLargeError(maxBytes: number): HttpError {
  return new HttpError(413, `File is larger than ${maxBytes} bytes`, 'FILE_TOO_LARGE');
}

/**
 * The type an upload will be stored as, from what the client says of it: the filename's extension
 * must be one the spec accepts and agree with the content type. `contentType` undefined: the
 * extension alone decides (a multipart part sent as application/octet-stream).
 */
export function requireUploadType(filename: string, contentType: string | undefined): string {
  const extension = /\.([^./\\]+)$/.exec(filename.trim())?.[1]?.toLowerCase();
  const typeOfExtension = extension === undefined ? undefined : TYPE_OF_EXTENSION[extension];
  if (typeOfExtension === undefined) throw new HttpError(415, `File type must be one of ${ACCEPTED_EXTENSIONS_TEXT}`, 'UNSUPPORTED_FILE_EXTENSION');
  if (contentType === undefined) return typeOfExtension;
  const type = acceptedMediaType(contentType);
  if (type === null) throw unsupportedTypeError();
  if (type !== typeOfExtension) {
    throw new HttpError(400, `Content type ${type} does not match the file extension .${extension}`, 'MEDIA_TYPE_MISMATCH');
  }
  return type;
}

/** Why a file's bytes are refused: a stable code and a message for the uploader. */
export interface ContentRefusal {
  readonly code: 'CONTENT_NOT_MEDIA' | 'CONTENT_TYPE_MISMATCH';
  readonly message: string;
}

/**
 * Whether a file's leading bytes are what its declared type says: the bytes decide, never the name
 * (an HTML page called photo.png is refused). Undefined when they are.
 */
export async function refuseFileContent(head: Uint8Array, declaredType: string): Promise<ContentRefusal | undefined> {
  const sniffed = await fileTypeFromBuffer(head);
  const type = sniffed ? TYPE_OF_SNIFFED[sniffed.mime] : undefined;
  if (type === undefined) {
    const found = sniffed ? ` (it looks like ${sniffed.mime})` : '';
    return { code: 'CONTENT_NOT_MEDIA', message: `The file's content is not an accepted image or video${found}; accepted: ${ACCEPTED_EXTENSIONS_TEXT}` };
  }
  if (type !== declaredType) return { code: 'CONTENT_TYPE_MISMATCH', message: `The file's content is ${type}, not the declared ${declaredType}` };
  return undefined;
}

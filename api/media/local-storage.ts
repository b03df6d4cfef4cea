import { createHash, createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { link, mkdir, open, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { HttpError } from '../http/errors';
import { TooManyBytesError, writeAtMost } from './capped-write';
import { fileTooLargeError, MEDIA_EXTENSIONS } from './media-types';
import type { MediaStorage, OpenedObject, SignedUpload, SignedUploadRequest, StoredObject } from './storage-port';
import { mediaUrl } from './urls';

/** Keys are always `<uuid>.<ext>`: anything else is refused, never joined to a path. */
const LOCAL_KEY = new RegExp(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\\.(${Object.values(MEDIA_EXTENSIONS).join('|')})$`);

/** Where the local storage's signed upload URLs point: a PUT route of the API (api/media/routes.ts). */
export const LOCAL_UPLOAD_PATH = '/media/uploads';

export function localMediaDirectory(dataDir: string): string {
  return join(dataDir, 'media');
}

/** The query a local signed upload URL carries. */
export interface LocalUploadSignature {
  /** Unix seconds. */
  readonly expires: number;
  readonly maxBytes: number;
  readonly signature: string;
}

/**
 * The embedded default: files under DATA_DIR/media, uploaded through URLs the API itself signs
 * (HMAC over key, expiry and size limit) and receives.
 */
export class LocalMediaStorage implements MediaStorage {
  readonly directory: string;
  readonly description: string;
  readonly #signingKey: Buffer;
  readonly #publicBaseUrl: string | undefined;

  constructor(options: { dataDir: string; signingSecret: string; publicBaseUrl?: string | undefined }) {
    this.directory = localMediaDirectory(options.dataDir);
    this.description = `local files in ${this.directory}`;
    // A key of its own, so an upload signature can never pass for anything else signed with the secret.
    this.#signingKey = createHmac('sha256', options.signingSecret).update('provenance/media-upload-urls').digest();
    this.#publicBaseUrl = options.publicBaseUrl;
  }

  keyFor(mediaId: string, contentType: string): string {
    const extension = MEDIA_EXTENSIONS[contentType];
    const key = `${mediaId}.${extension}`;
    if (!extension || !LOCAL_KEY.test(key)) throw new Error(`no local media key for ${mediaId} (${contentType})`);
    return key;
  }

  async createSignedUpload(request: SignedUploadRequest): Promise<SignedUpload> {
    this.#requireKey(request.key);
    const expires = Math.floor(request.expiresAt.getTime() / 1000);
    const maxBytes = request.exactBytes ?? request.maxBytes;
    const query = new URLSearchParams({ expires: String(expires), maxBytes: String(maxBytes), signature: this.#sign(request.key, expires, maxBytes) });
    return { url: `${LOCAL_UPLOAD_PATH}/${request.key}?${query}`, headers: { 'Content-Type': request.contentType } };
  }

  /**
   * The receiving end of a signed URL: checks the signature and expiry (against the API's clock),
   * streams the body to disk with a hard cap, and answers the ETag S3 would. A key takes one file
   * only: the upload confirmed later is the one checked.
   */
  async receiveSignedUpload(key: string, query: LocalUploadSignature, now: Date, body: Readable, contentLength: number | undefined): Promise<{ etag: string }> {
    if (!LOCAL_KEY.test(key) || !this.#hasValidSignature(key, query)) {
      throw new HttpError(403, 'This upload URL is not valid', 'UPLOAD_URL_INVALID');
    }
    if (now.getTime() >= query.expires * 1000) throw new HttpError(403, 'This upload URL has expired', 'UPLOAD_URL_EXPIRED');
    if (contentLength !== undefined && contentLength > query.maxBytes) throw fileTooLargeError(query.maxBytes);

    await mkdir(this.directory, { recursive: true });
    const partial = this.#partialPath(key);
    try {
      let written;
      try {
        written = await writeAtMost(body, partial, query.maxBytes);
      } catch (error) {
        if (error instanceof TooManyBytesError) throw fileTooLargeError(error.maxBytes);
        throw error;
      }
      try {
        // link, unlike rename, never replaces a file already there.
        await link(partial, join(this.directory, key));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw new HttpError(409, 'A file has already been uploaded to this URL', 'UPLOAD_EXISTS');
        throw error;
      }
      return { etag: `"${written.md5Hex}"` };
    } finally {
      await rm(partial, { force: true });
    }
  }

  async inspect(key: string, headBytes: number): Promise<StoredObject | undefined> {
    const handle = await this.#openFile(key);
    if (!handle) return undefined;
    try {
      const { size } = await handle.stat();
      const head = Buffer.alloc(Math.min(size, headBytes));
      await handle.read(head, 0, head.length, 0);
      const hash = createHash('md5');
      for await (const chunk of handle.createReadStream({ start: 0, autoClose: false })) hash.update(chunk as Buffer);
      return { sizeBytes: size, etag: `"${hash.digest('hex')}"`, head };
    } finally {
      await handle.close();
    }
  }

  async put(key: string, body: Uint8Array | Readable, sizeBytes: number, _contentType: string): Promise<void> {
    this.#requireKey(key);
    await mkdir(this.directory, { recursive: true });
    // Written aside and linked, so a reader never meets half a file under the final name.
    const partial = this.#partialPath(key);
    try {
      await writeAtMost(body, partial, sizeBytes);
      await link(partial, join(this.directory, key));
    } finally {
      await rm(partial, { force: true });
    }
  }

  async open(key: string): Promise<OpenedObject | undefined> {
    const handle = await this.#openFile(key);
    if (!handle) return undefined;
    try {
      // The size of the file actually sent, measured on the handle that sends it.
      const { size } = await handle.stat();
      return { sizeBytes: size, stream: handle.createReadStream() };
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    this.#requireKey(key);
    await rm(join(this.directory, key), { force: true });
  }

  publicUrl(mediaId: string): string {
    return mediaUrl(mediaId, this.#publicBaseUrl);
  }

  /** An open regular file under the key; undefined when there is none (or the key is not one of ours). */
  async #openFile(key: string) {
    if (!LOCAL_KEY.test(key)) return undefined;
    let handle;
    try {
      handle = await open(join(this.directory, key), 'r');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
    if ((await handle.stat()).isFile()) return handle;
    await handle.close();
    return undefined;
  }

  #partialPath(key: string): string {
    return join(this.directory, `.${key}.${randomUUID()}.partial`);
  }

  #requireKey(key: string): void {
    if (!LOCAL_KEY.test(key)) throw new Error(`not a local media key: ${JSON.stringify(key)}`);
  }

  #sign(key: string, expires: number, maxBytes: number): string {
    return createHmac('sha256', this.#signingKey).update(`PUT\n${key}\n${expires}\n${maxBytes}`).digest('base64url');
  }

  #hasValidSignature(key: string, query: LocalUploadSignature): boolean {
    const expected = Buffer.from(this.#sign(key, query.expires, query.maxBytes));
    const given = Buffer.from(query.signature);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
}

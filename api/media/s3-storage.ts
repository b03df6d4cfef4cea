import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, PutObjectCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { Readable } from 'node:stream';
import type { MediaStorage, OpenedObject, S3StorageSettings, SignedUpload, SignedUploadRequest, StoredObject } from './storage-port';
import { mediaUrl } from './urls';

/** Object keys are the media ids themselves, so the public base address plus the id is the object's address. */
const S3_KEY = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * Any S3-compatible store (AWS, MinIO): clients PUT straight to the bucket through presigned URLs.
 * S3 cannot cap the size of a presigned PUT (only of a POST policy), so the size limit is
 * enforced when the upload is confirmed; a size the client announces is signed into the URL.
 */
export class S3MediaStorage implements MediaStorage {
  readonly description: string;
  readonly #client: S3Client;
  /** Signs URLs for the address clients reach, which may not be the one the API uses. */
  readonly #presigningClient: S3Client;
  readonly #bucket: string;
  readonly #publicBaseUrl: string | undefined;

  constructor(settings: S3StorageSettings, publicBaseUrl?: string) {
    this.#bucket = settings.bucket;
    this.#publicBaseUrl = publicBaseUrl;
    this.description = `S3 bucket ${settings.bucket}${settings.endpoint ? ` at ${settings.endpoint}` : ` in ${settings.region}`}`;
    this.#client = s3Client(settings, settings.endpoint);
    this.#presigningClient = settings.publicEndpoint ? s3Client(settings, settings.publicEndpoint) : this.#client;
  }

  keyFor(mediaId: string, _contentType: string): string {
    if (!S3_KEY.test(mediaId)) throw new Error(`no S3 media key for ${mediaId}`);
    return mediaId;
  }

  async createSignedUpload(request: SignedUploadRequest): Promise<SignedUpload> {
    this.#requireKey(request.key);
    const command = new PutObjectCommand({
      Bucket: this.#bucket,
      Key: request.key,
      ContentType: request.contentType,
      ...(request.exactBytes === undefined ? {} : { ContentLength: request.exactBytes }),
    });
    const expiresIn = Math.max(1, Math.round((request.expiresAt.getTime() - request.now.getTime()) / 1000));
    // The presigner leaves Content-Type unsigned unless told: signed, the PUT must carry exactly this type.
    const url = await getSignedUrl(this.#presigningClient, command, { expiresIn, signingDate: request.now, signableHeaders: new Set(['content-type']) });
    return { url, headers: { 'Content-Type': request.contentType } };
  }

  async inspect(key: string, headBytes: number): Promise<StoredObject | undefined> {
    if (!S3_KEY.test(key)) return undefined;
    const head = await this.#ifFound(() => this.#client.send(new HeadObjectCommand({ Bucket: this.#bucket, Key: key })));
    if (!head) return undefined;
    const sizeBytes = head.ContentLength ?? 0;
    let firstBytes: Uint8Array = new Uint8Array(0);
    // A range on an empty object is unsatisfiable (416): there is nothing to read anyway.
    if (sizeBytes > 0 && headBytes > 0) {
      const part = await this.#ifFound(() => this.#client.send(new GetObjectCommand({ Bucket: this.#bucket, Key: key, Range: `bytes=0-${headBytes - 1}` })));
      if (!part?.Body) return undefined;
      firstBytes = await part.Body.transformToByteArray();
    }
    return { sizeBytes, etag: head.ETag ?? '', head: firstBytes };
  }

  async put(key: string, body: Uint8Array | Readable, sizeBytes: number, contentType: string): Promise<void> {
    this.#requireKey(key);
    await this.#client.send(new PutObjectCommand({ Bucket: this.#bucket, Key: key, Body: body, ContentLength: sizeBytes, ContentType: contentType }));
  }

  async open(key: string): Promise<OpenedObject | undefined> {
    if (!S3_KEY.test(key)) return undefined;
    const object = await this.#ifFound(() => this.#client.send(new GetObjectCommand({ Bucket: this.#bucket, Key: key })));
    if (!object?.Body) return undefined;
    if (!(object.Body instanceof Readable)) throw new Error('the S3 client returned a body that is not a Node stream');
    return { sizeBytes: object.ContentLength ?? 0, stream: object.Body };
  }

  async delete(key: string): Promise<void> {
    this.#requireKey(key);
    await this.#client.send(new DeleteObjectCommand({ Bucket: this.#bucket, Key: key }));
  }

  publicUrl(mediaId: string): string {
    return mediaUrl(mediaId, this.#publicBaseUrl);
  }

  /** The call's answer, or undefined when the store says there is no such object. */
  async #ifFound<T>(call: () => Promise<T>): Promise<T | undefined> {
    try {
      return await call();
    } catch (error) {
      if (error instanceof S3ServiceException && error.$metadata.httpStatusCode === 404) return undefined;
      throw error;
    }
  }

  #requireKey(key: string): void {
    if (!S3_KEY.test(key)) throw new Error(`not an S3 media key: ${JSON.stringify(key)}`);
  }
}

function s3Client(settings: S3StorageSettings, endpoint: string | undefined): S3Client {
  return new S3Client({
    region: settings.region,
    forcePathStyle: settings.forcePathStyle,
    ...(endpoint ? { endpoint } : {}),
    ...(settings.credentials ? { credentials: settings.credentials } : {}),
    // Checksums only where S3 demands them: newer SDKs otherwise sign a checksum of the empty body
    // into presigned PUT URLs and send aws-chunked bodies that not every S3-compatible store reads.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

import type { Readable } from 'node:stream';

/** A URL the client PUTs a file to, and the headers it must send with it. */
export interface SignedUpload {
  /** Absolute for object storage; relative to the API for the local storage. */
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
}

export interface SignedUploadRequest {
  readonly key: string;
  readonly contentType: string;
  /** The API's clock: the URL is signed at this instant... */
  readonly now: Date;
  /** ...and refused from this one on. */
  readonly expiresAt: Date;
  /** The most bytes the URL accepts where the store can enforce it (the local storage does; S3 presigned PUTs cannot). */
  readonly maxBytes: number;
  /** Announced by the client: the URL is then signed for exactly that many bytes. */
  readonly exactBytes?: number | undefined;
}

/** What the store holds under a key: enough to check an upload without reading it whole. */
export interface StoredObject {
  readonly sizeBytes: number;
  /** As S3 reports it: the quoted MD5 hex of a single PUT. */
  readonly etag: string;
  /** The first bytes (up to the requested count), for type sniffing. */
  readonly head: Uint8Array;
}

export interface OpenedObject {
  readonly sizeBytes: number;
  readonly stream: Readable;
}

/**
 * Where media bytes live: local files under DATA_DIR (the embedded default) or an S3-compatible
 * bucket. Keys are chosen by the server (`keyFor`); each adapter refuses any other shape of key.
 */
export interface MediaStorage {
  /** For the start-up log: "local files in /data/media", "S3 bucket media at http://minio:9000". */
  readonly description: string;
  /** The key a new media file gets, from its id and type alone. */
  keyFor(mediaId: string, contentType: string): string;
  createSignedUpload(request: SignedUploadRequest): Promise<SignedUpload>;
  /** Undefined when nothing is stored under the key. */
  inspect(key: string, headBytes: number): Promise<StoredObject | undefined>;
  /** Stores bytes under a new key (the server's own uploads: the seed, the multipart helper). */
  put(key: string, body: Uint8Array | Readable, sizeBytes: number, contentType: string): Promise<void>;
  /** Undefined when nothing is stored under the key. */
  open(key: string): Promise<OpenedObject | undefined>;
  /** Removing a key that holds nothing is not an error. */
  delete(key: string): Promise<void>;
  /** Where the public fetches a media file. */
  publicUrl(mediaId: string): string;
}

export interface S3StorageSettings {
  readonly bucket: string;
  readonly region: string;
  /** An S3-compatible server (MinIO); absent: AWS. */
  readonly endpoint?: string | undefined;
  /** The address clients PUT to when it differs from the one the API reaches (MinIO inside Docker). */
  readonly publicEndpoint?: string | undefined;
  readonly forcePathStyle: boolean;
  /** Absent: the AWS default credential chain. */
  readonly credentials?: { readonly accessKeyId: string; readonly secretAccessKey: string } | undefined;
}

/** Which storage a process uses (see Config.media). */
export type MediaStorageSettings =
  | { readonly kind: 'local'; readonly publicBaseUrl?: string | undefined }
  | { readonly kind: 's3'; readonly publicBaseUrl?: string | undefined; readonly s3: S3StorageSettings };

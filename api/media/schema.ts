import type { ColumnType } from 'kysely';
import type { MediaStatus } from '../contracts/admin/media';

type Timestamp = ColumnType<Date, Date | string, Date | string>;
/** bigint: a string from node-postgres, a number from PGlite; read with Number(). */
type ByteCount = ColumnType<string | number | null, number | null | undefined, number | null>;
type Optional<T> = ColumnType<T | null, T | null | undefined, T | null>;

export interface MediaTable {
  id: string;
  /** Chosen by the server from the media id, never from a filename: the file's name under the media folder, or its object key. */
  storage_key: string;
  content_type: string;
  /** The stored file's size; null while an upload is PENDING. */
  size_bytes: ByteCount;
  /** What the uploader called the file; a label only, never part of a path. */
  original_filename: string | null;
  status: MediaStatus;
  created_at: Timestamp;
  /** When the signed upload URL stops working; null for files stored directly. */
  upload_expires_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** The size the client announced when asking for the URL, when it did: the URL is signed for exactly that many bytes. */
  declared_size_bytes: ByteCount;
  /** The stored object's ETag (quoted MD5 hex), once confirmed. */
  etag: Optional<string>;
  /** Why a FAILED upload was refused: a stable code and the message the confirm call answered with. */
  failure_code: Optional<string>;
  failure_reason: Optional<string>;
}

/** The media table, part of the API's Database type (api/database.ts). */
export type MediaTables = {
  media: MediaTable;
};

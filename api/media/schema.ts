import type { ColumnType } from 'kysely';

type Timestamp = ColumnType<Date, Date | string, Date | string>;

export type MediaStatus = 'PENDING' | 'COMPLETED';

export interface MediaTable {
  id: string;
  /** Chosen by the server (`<uuid>.<ext>`): the file's name under the media folder, or its object key. */
  storage_key: string;
  content_type: string;
  /** bigint: a string from node-postgres, a number from PGlite; read with Number(). */
  size_bytes: ColumnType<string | number, number, number>;
  /** What the uploader called the file; a label only, never part of a path. */
  original_filename: string | null;
  status: MediaStatus;
  created_at: Timestamp;
}

/** The media table, part of the API's Database type (api/database.ts). */
export type MediaTables = {
  media: MediaTable;
};

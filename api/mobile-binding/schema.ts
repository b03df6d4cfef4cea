import type { ColumnType } from 'kysely';

type Timestamp = ColumnType<Date, Date | string, Date | string>;

export interface NfcBindingLinksTable {
  id: string;
  /** SHA-256 of the token, hex; the token itself is only ever in the link. */
  token_hash: string;
  listing_id: string;
  /** The admin who made the link; the phone binds as them. */
  created_by: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  /** Set once, by the bind that used the link. */
  used_at: Timestamp | null;
  bound_uid: string | null;
}

/** The binding links table, part of the API's Database type (api/database.ts). */
export type NfcBindingLinkTables = {
  nfc_binding_links: NfcBindingLinksTable;
};

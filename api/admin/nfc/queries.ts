import { sql, type Kysely, type Selectable } from 'kysely';
import type { NfcTagsTable } from '../../../projections/schema';
import type { NfcTagStatus } from '../../contracts/admin/nfc';
import type { Database } from '../../database';

export type NfcTagRow = Selectable<NfcTagsTable>;

export interface TagSearch {
  readonly status?: NfcTagStatus;
  /** Part of a UID (with or without separators) or of a claim code, any case. */
  readonly search?: string;
}

export async function findTag(db: Kysely<Database>, uid: string): Promise<NfcTagRow | undefined> {
  return db.selectFrom('nfc_tags').selectAll().where('uid', '=', uid).executeTakeFirst();
}

/** The pool, newest first, a page at a time. */
export async function searchTags(db: Kysely<Database>, criteria: TagSearch & { page: number; size: number }): Promise<{ rows: NfcTagRow[]; total: number }> {
  const matching = matchingTags(db, criteria);
  const [rows, count] = await Promise.all([
    matching.selectAll().orderBy('provisioned_at', 'desc').orderBy('uid').limit(criteria.size).offset(criteria.page * criteria.size).execute(),
    matching.select((eb) => eb.fn.countAll<string | number>().as('total')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.total) };
}

/** Tags free to bind, newest first: the binding panel's pool. */
export async function availableTags(db: Kysely<Database>, criteria: { search?: string; limit: number }): Promise<NfcTagRow[]> {
  return matchingTags(db, { ...criteria, status: 'AVAILABLE' }).selectAll().orderBy('provisioned_at', 'desc').orderBy('uid').limit(criteria.limit).execute();
}

function matchingTags(db: Kysely<Database>, { status, search }: TagSearch) {
  let query = db.selectFrom('nfc_tags');
  if (status) query = query.where('status', '=', status);
  const text = search?.trim().toUpperCase() ?? '';
  if (text !== '') {
    // strpos, not LIKE: the search is text, never a pattern.
    const uidDigits = text.replace(/[\s:-]/g, '');
    query = query.where((eb) =>
      eb.or([
        ...(uidDigits === '' ? [] : [eb(sql<number>`strpos(replace(uid, ':', ''), ${uidDigits})`, '>', 0)]),
        eb(sql<number>`strpos(coalesce(claim_code, ''), ${text})`, '>', 0),
      ]),
    );
  }
  return query;
}

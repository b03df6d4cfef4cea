import { randomBytes, randomUUID } from 'node:crypto';
import { digest } from '../accounts/digest';
import type { Kysely, Selectable } from 'kysely';
import { loadStream } from '../../engine/application/command-handler';
import { evolveListing, initialListingState, listingStreamId, type Actor, type ListingState } from '../../engine/domain';
import type { EventStore } from '../../engine/eventstore/port';
import type { Database } from '../database';
import { HttpError } from '../http/errors';
import type { NfcBindingLinksTable } from './schema';

/** Long enough to walk to the item with a phone, short enough that a photographed QR code goes stale. */
export const BINDING_LINK_LIFETIME_MS = 15 * 60_000;
/** 256 random bits: a link can be found only by being given it. */
const TOKEN_BYTES = 32;

export type BindingLinkRow = Selectable<NfcBindingLinksTable>;
type ExistingListing = Exclude<ListingState, { status: 'NONE' }>;

const listingFold = { initialState: initialListingState, evolve: evolveListing };

/** The listing as its own stream tells it: the record, never behind like a read model. */
export async function loadListing(store: EventStore, listingId: string): Promise<ListingState> {
  return (await loadStream(store, listingFold, listingStreamId(listingId))).state;
}

/**
 * A link is made only for a listing a tag can be bound to right now: saved, and without a tag.
 * The messages are the listing decider's, which says the same when the phone binds.
 */
export function requireBindableListing(listing: ListingState): ExistingListing {
  switch (listing.status) {
    case 'NONE':
      throw new HttpError(404, 'Listing not found', 'LISTING_NOT_FOUND');
    case 'DRAFT':
      throw new HttpError(409, 'Listing must be saved before binding NFC tag', 'LISTING_NOT_SAVED');
    case 'NFC_BOUND':
      throw new HttpError(409, 'This listing already has an NFC tag bound', 'LISTING_ALREADY_HAS_TAG');
    case 'SAVED':
      return listing;
    default:
      throw new HttpError(409, `This listing can no longer be changed: it is ${listing.status}`, 'LISTING_LOCKED');
  }
}

/** Stores a new link for the listing; the token is returned once and kept only as its hash. */
export async function createBindingLink(
  db: Kysely<Database>,
  link: { listingId: string; createdBy: string; now: Date },
): Promise<{ token: string; expiresAt: Date }> {
  const token = randomBytes(TOKEN_BYTES).toString('base64url');
  const expiresAt = new Date(link.now.getTime() + BINDING_LINK_LIFETIME_MS);
  await db
    .insertInto('nfc_binding_links')
    .values({
      id: randomUUID(),
      token_hash: digest(token),
      listing_id: link.listingId,
      created_by: link.createdBy,
      created_at: link.now,
      expires_at: expiresAt,
      used_at: null,
      bound_uid: null,
    })
    .execute();
  return { token, expiresAt };
}

/** The link the token opens, if it may still be used at `now`: 404 unknown, 410 used or expired. */
export async function requireUsableLink(db: Kysely<Database>, token: string, now: Date): Promise<BindingLinkRow> {
  const link = await db.selectFrom('nfc_binding_links').selectAll().where('token_hash', '=', digest(token)).executeTakeFirst();
  if (!link) throw new HttpError(404, 'Binding link not found', 'BINDING_LINK_NOT_FOUND');
  if (link.used_at !== null) throw linkUsed();
  if (link.expires_at.getTime() <= now.getTime()) throw new HttpError(410, 'This binding link has expired', 'BINDING_LINK_EXPIRED');
  return link;
}

/**
 * The admin who made the link, as they are now: a link made by an account since disabled or no
 * longer an admin carries no authority (the engine then refuses with "Access denied").
 */
export async function linkCreator(db: Kysely<Database>, link: BindingLinkRow): Promise<Actor> {
  const user = await db.selectFrom('users').select(['id', 'roles', 'status']).where('id', '=', link.created_by).executeTakeFirst();
  return { userId: link.created_by, roles: user?.status === 'ACTIVE' ? user.roles : [] };
}

/**
 * Marks the link used by the bind that just succeeded. Conditional, so of two phones using one
 * link at once only one consumes it; the other is told the link is used.
 */
export async function consumeBindingLink(db: Kysely<Database>, link: BindingLinkRow, uid: string, now: Date): Promise<void> {
  const consumed = await db
    .updateTable('nfc_binding_links')
    .set({ used_at: now, bound_uid: uid })
    .where('id', '=', link.id)
    .where('used_at', 'is', null)
    .returning('id')
    .executeTakeFirst();
  if (!consumed) throw linkUsed();
}

/** Ties the engine's events to the link that caused them. */
export function linkCorrelationId(link: BindingLinkRow): string {
  return `nfc-binding-link:${link.id}`;
}

function linkUsed(): HttpError {
  return new HttpError(410, 'This binding link has already been used', 'BINDING_LINK_USED');
}

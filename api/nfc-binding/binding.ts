import type { Kysely } from 'kysely';
import { handleTagBinding } from '../../engine/application/tag-binding';
import { nfcTagStreamId, requireClaimCode, requireNfcUid, type CommandMetadata } from '../../engine/domain';
import type { TagBindingAnswer, TagChoice } from '../contracts/admin/nfc';
import type { Database } from '../database';
import type { AppDependencies } from '../dependencies';
import { HttpError } from '../http/errors';
import { readModelsCaughtUpWith } from '../read-after-write';

/**
 * Binds the chosen tag to a listing through the engine (one atomic append over the listing's and
 * the tag's streams) and answers once the read models show it, so the pool the admin sees next
 * no longer offers the tag. Shared by the admin's bind and the phone's one-time link.
 */
export async function bindChosenTag(deps: AppDependencies, listingId: string, choice: TagChoice, metadata: CommandMetadata): Promise<TagBindingAnswer> {
  const uid = await uidOfChoice(deps, choice);
  await handleTagBinding(deps.commands, { type: 'BindTagToListing', data: { listingId, uid }, metadata });
  // The engine accepted the UID, so it normalises; a bind repeated for the same pair writes nothing and answers alike.
  const boundUid = requireNfcUid(uid);
  await readModelsCaughtUpWith(deps, nfcTagStreamId(boundUid));
  return { listingId, uid: boundUid, status: 'BOUND', at: metadata.now };
}

/** Unbinds whatever tag the listing holds; the engine refuses for a live or sold listing. */
export async function unbindListingTag(deps: AppDependencies, listingId: string, reason: string, metadata: CommandMetadata): Promise<TagBindingAnswer> {
  const outcome = await handleTagBinding(deps.commands, { type: 'UnbindTagFromListing', data: { listingId, reason }, metadata });
  const unbound = outcome.listingEvents.find((event) => event.type === 'ListingTagUnbound');
  // The listing decider either unbinds or refuses; an unbind always names the tag.
  const uid = unbound!.data.uid;
  await readModelsCaughtUpWith(deps, nfcTagStreamId(uid));
  return { listingId, uid, status: 'UNBOUND', at: metadata.now };
}

async function uidOfChoice(deps: AppDependencies, choice: TagChoice): Promise<string> {
  if (choice.uid !== undefined && choice.claimCode !== undefined) {
    throw new HttpError(400, 'Send either a uid or a claimCode, not both', 'TAG_CHOICE_AMBIGUOUS');
  }
  // The spec's pool message: nothing was chosen.
  if (choice.uid === undefined && choice.claimCode === undefined) {
    throw new HttpError(400, 'Please select a tag and ensure listing is saved', 'TAG_REQUIRED');
  }
  // A UID goes to the engine as typed: the listing decider speaks first ("Listing must be saved
  // before binding NFC tag"), then the UID is checked ("Please enter a valid NFC UID").
  if (choice.uid !== undefined) return choice.uid;
  const claimCode = requireClaimCode(choice.claimCode!);
  const uid = await findTagUidByClaimCode(deps.db, claimCode);
  if (uid === null) throw new HttpError(404, 'Selected tag not found', 'NFC_TAG_NOT_FOUND');
  return uid;
}

/** Claim codes are stored upper case and unique (reserved at provisioning). */
async function findTagUidByClaimCode(db: Kysely<Database>, claimCode: string): Promise<string | null> {
  const row = await db.selectFrom('nfc_tags').select('uid').where('claim_code', '=', claimCode).executeTakeFirst();
  return row?.uid ?? null;
}

import { describe, expect, test } from 'vitest';
import {
  decideTagBinding,
  evolveListing,
  evolveNfcTag,
  fold,
  listingDecider,
  nfcTagDecider,
  type Actor,
  type TagBindingCommand,
  type TagBindingDecision,
} from '../../engine/domain';
import { acrossTwo } from './given-when-then';
import {
  admin,
  boundListing,
  buyer,
  DURING,
  eventMetadata,
  LISTING_ID,
  listingDrafted,
  liveListing,
  metadata,
  nfcTagBound,
  nfcTagProvisioned,
  OTHER_TAG_UID,
  savedListing,
  TAG_UID,
} from './fixtures';

/** The binding decision runs two deciders: given(listing history, tag history).when(command).then... */
const { given } = acrossTwo(listingDecider, nfcTagDecider, decideTagBinding);
const NOTHING: TagBindingDecision = { listingEvents: [], tagEvents: [] };

function bind(uid: string, listingId = LISTING_ID, actor: Actor = admin): TagBindingCommand {
  return { type: 'BindTagToListing', data: { listingId, uid }, metadata: metadata(actor, DURING, 'cmd-bind') };
}
function unbind(reason: string, listingId = LISTING_ID, actor: Actor = admin): TagBindingCommand {
  return { type: 'UnbindTagFromListing', data: { listingId, reason }, metadata: metadata(actor, DURING, 'cmd-unbind') };
}

const availableTag = (uid: string = TAG_UID) => [nfcTagProvisioned(uid)];
const tagBoundTo = (listingId: string, uid: string = TAG_UID) => [nfcTagProvisioned(uid), nfcTagBound(listingId, uid)];
const bindMeta = eventMetadata(admin, DURING, 'cmd-bind');

// ---------------------------------------------------------------------------------------------

describe('BindTagToListing', () => {
  test('a saved listing and an available tag are bound on both sides, under the normalised UID', () => {
    given(savedListing(), availableTag())
      .when(bind('04a2b3c4d5e6f7'))
      .thenEvents({
        listingEvents: [{ type: 'ListingTagBound', data: { listingId: LISTING_ID, uid: TAG_UID }, metadata: bindMeta }],
        tagEvents: [{ type: 'NfcTagBound', data: { uid: TAG_UID, listingId: LISTING_ID }, metadata: bindMeta }],
      });
  });

  test('after binding, the listing holds the tag and the tag holds the listing', () => {
    const decision = decideTagBinding(bind(TAG_UID), fold(listingDecider, savedListing()), fold(nfcTagDecider, availableTag()));
    const listing = decision.listingEvents.reduce(evolveListing, fold(listingDecider, savedListing()));
    const tag = decision.tagEvents.reduce(evolveNfcTag, fold(nfcTagDecider, availableTag()));
    expect(listing).toMatchObject({ status: 'NFC_BOUND', nfcUid: TAG_UID });
    expect(tag).toMatchObject({ status: 'BOUND', listingId: LISTING_ID });
  });

  test('the listing must be saved first, before any tag check: "Listing must be saved before binding NFC tag"', () => {
    given([listingDrafted()], availableTag())
      .when(bind(TAG_UID))
      .thenError('LISTING_NOT_SAVED', 'Listing must be saved before binding NFC tag');
    // Even with an unknown tag, the listing speaks first.
    given([listingDrafted()], [])
      .when(bind(TAG_UID))
      .thenError('LISTING_NOT_SAVED', 'Listing must be saved before binding NFC tag');
    given([], [])
      .when(bind(TAG_UID))
      .thenError('LISTING_NOT_SAVED', 'Listing must be saved before binding NFC tag');
  });

  test('an unknown tag: NFC_TAG_NOT_FOUND "Selected tag not found"', () => {
    given(savedListing(), []).when(bind(TAG_UID)).thenError('NFC_TAG_NOT_FOUND', 'Selected tag not found');
  });

  test('a tag already bound to another listing: NFC_TAG_ALREADY_BOUND', () => {
    given(savedListing(), tagBoundTo('listing-2'))
      .when(bind(TAG_UID))
      .thenError('NFC_TAG_ALREADY_BOUND', 'This NFC tag is already bound to another listing');
  });

  test('a listing that already has another tag: LISTING_ALREADY_HAS_TAG', () => {
    given(boundListing(OTHER_TAG_UID), availableTag())
      .when(bind(TAG_UID))
      .thenError('LISTING_ALREADY_HAS_TAG', 'This listing already has an NFC tag bound');
  });

  test('rebinding the same pair is a no-op on both sides, whatever form the UID is written in', () => {
    given(boundListing(), tagBoundTo(LISTING_ID)).when(bind(TAG_UID)).thenEvents(NOTHING);
    given(boundListing(), tagBoundTo(LISTING_ID)).when(bind('04-a2-b3-c4-d5-e6-f7')).thenEvents(NOTHING);
  });

  test('an invalid UID: INVALID_NFC_UID', () => {
    given(savedListing(), availableTag()).when(bind('04:A2')).thenError('INVALID_NFC_UID', 'Please enter a valid NFC UID');
  });

  test('the tag of a live listing cannot be changed: LISTING_LOCKED', () => {
    given(liveListing(), availableTag(OTHER_TAG_UID))
      .when(bind(OTHER_TAG_UID))
      .thenError('LISTING_LOCKED', 'This listing can no longer be changed: it is LIVE');
  });

  test('only an admin may bind: FORBIDDEN', () => {
    given(savedListing(), availableTag()).when(bind(TAG_UID, LISTING_ID, buyer('alice'))).thenError('FORBIDDEN', 'Access denied');
  });
});

// ---------------------------------------------------------------------------------------------

describe('UnbindTagFromListing', () => {
  test('frees both sides, with the reason', () => {
    const unbindMeta = eventMetadata(admin, DURING, 'cmd-unbind');
    given(boundListing(), tagBoundTo(LISTING_ID))
      .when(unbind(' Tag damaged '))
      .thenEvents({
        listingEvents: [{ type: 'ListingTagUnbound', data: { listingId: LISTING_ID, uid: TAG_UID, reason: 'Tag damaged' }, metadata: unbindMeta }],
        tagEvents: [{ type: 'NfcTagUnbound', data: { uid: TAG_UID, listingId: LISTING_ID, reason: 'Tag damaged' }, metadata: unbindMeta }],
      });
  });

  test('after unbinding, the listing is SAVED without a tag and the tag can go to another listing', () => {
    const listingBefore = fold(listingDecider, boundListing());
    const tagBefore = fold(nfcTagDecider, tagBoundTo(LISTING_ID));
    const decision = decideTagBinding(unbind('Tag damaged'), listingBefore, tagBefore);
    const listing = decision.listingEvents.reduce(evolveListing, listingBefore);
    const tag = decision.tagEvents.reduce(evolveNfcTag, tagBefore);
    expect(listing).toMatchObject({ status: 'SAVED', nfcUid: null });
    expect(tag).toEqual({ status: 'AVAILABLE', uid: TAG_UID, claimCode: 'CLAIM-0001' });

    const rebound = decideTagBinding(bind(TAG_UID, 'listing-2'), fold(listingDecider, savedListing('listing-2')), tag);
    expect(rebound.tagEvents).toEqual([{ type: 'NfcTagBound', data: { uid: TAG_UID, listingId: 'listing-2' }, metadata: bindMeta }]);
  });

  test('a reason is required: REASON_REQUIRED', () => {
    given(boundListing(), tagBoundTo(LISTING_ID)).when(unbind('   ')).thenError('REASON_REQUIRED', 'A reason is required');
  });

  test('a listing without a tag: LISTING_HAS_NO_TAG', () => {
    given(savedListing(), availableTag()).when(unbind('Tag damaged')).thenError('LISTING_HAS_NO_TAG', 'This listing has no NFC tag bound');
  });

  test('the tag of a live listing cannot be unbound: LISTING_LOCKED', () => {
    given(liveListing(), tagBoundTo(LISTING_ID))
      .when(unbind('Tag damaged'))
      .thenError('LISTING_LOCKED', 'The NFC tag of a published listing cannot be unbound');
  });

  test('only an admin may unbind: FORBIDDEN', () => {
    given(boundListing(), tagBoundTo(LISTING_ID)).when(unbind('Tag damaged', LISTING_ID, buyer('alice'))).thenError('FORBIDDEN', 'Access denied');
  });
});

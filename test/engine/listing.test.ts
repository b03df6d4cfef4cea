import { describe, expect, test } from 'vitest';
import { fold, listingDecider, MAX_MEDIA_PER_LISTING, type Actor, type ListingCommand, type ListingEvent } from '../../engine/domain';
import { spec } from './given-when-then';
import {
  admin,
  AUCTION_ID,
  boundListing,
  buyer,
  DURING,
  eventMetadata,
  LISTING_ID,
  LISTING_SLUG,
  listingDetails,
  listingDrafted,
  liveListing,
  MEDIA_IDS,
  metadata,
  OTHER_TAG_UID,
  play,
  savedListing,
  scheduler,
  TAG_UID,
} from './fixtures';

const listing = spec(listingDecider);

type Data<T extends ListingCommand['type']> = Extract<ListingCommand, { type: T }>['data'];

/** A listing command issued by an admin at DURING (or by `actor`). */
function command<T extends ListingCommand['type']>(type: T, data: Data<T>, actor: Actor = admin): ListingCommand {
  return { type, data, metadata: metadata(actor, DURING, `cmd-${type}`) } as ListingCommand;
}

const meta = (type: ListingCommand['type'], actor: Actor = admin) => eventMetadata(actor, DURING, `cmd-${type}`);

const draft = (mediaIds: string[] = MEDIA_IDS) => command('DraftListing', { listingId: LISTING_ID, slug: LISTING_SLUG, details: listingDetails, mediaIds });
const revise = (title: string) => command('ReviseListingDetails', { listingId: LISTING_ID, details: { ...listingDetails, title } });
const arrange = (mediaIds: string[]) => command('ArrangeListingMedia', { listingId: LISTING_ID, mediaIds });
const save = () => command('SaveListing', { listingId: LISTING_ID });
const bindTag = (uid: string) => command('BindListingTag', { listingId: LISTING_ID, uid });
const unbindTag = (reason: string) => command('UnbindListingTag', { listingId: LISTING_ID, reason });
const publish = (actor: Actor = admin) => command('PublishListing', { listingId: LISTING_ID, auctionId: AUCTION_ID }, actor);
const recordOutcome = (
  result: Data<'RecordAuctionOutcome'>['result'],
  options: { buyerId?: string | null; finalPrice?: number | null; auctionId?: string; actor?: Actor } = {},
) =>
  command(
    'RecordAuctionOutcome',
    {
      listingId: LISTING_ID,
      auctionId: options.auctionId ?? AUCTION_ID,
      result,
      buyerId: options.buyerId ?? null,
      finalPrice: options.finalPrice ?? null,
    },
    options.actor ?? scheduler,
  );
const withdraw = (reason: string) => command('WithdrawListing', { listingId: LISTING_ID, reason });

const mediaIds = (count: number) => Array.from({ length: count }, (_, i) => `media-${i + 1}`);
const stateOf = (history: ListingEvent[]) => fold(listingDecider, history);
const after = (history: ListingEvent[], ...commands: ListingCommand[]) => play(listingDecider, history, ...commands);
const soldListing = () => after(liveListing(), recordOutcome('SOLD', { buyerId: 'alice', finalPrice: 81_000 }));

// ---------------------------------------------------------------------------------------------

describe('DraftListing', () => {
  test('an admin drafts a listing: ListingDrafted owned by that admin', () => {
    listing
      .given([])
      .when(draft())
      .thenEvents([
        {
          type: 'ListingDrafted',
          data: { listingId: LISTING_ID, ownerId: 'admin-1', slug: LISTING_SLUG, details: listingDetails, mediaIds: MEDIA_IDS },
          metadata: meta('DraftListing'),
        },
      ]);
  });

  test('a drafted listing is a DRAFT without tag or auction', () => {
    expect(stateOf([listingDrafted()])).toMatchObject({ status: 'DRAFT', mediaIds: MEDIA_IDS, nfcUid: null, auctionId: null });
  });

  test('a draft may start without media', () => {
    listing.given([]).when(draft([])).thenEventsMatch([{ type: 'ListingDrafted', data: { mediaIds: [] } }]);
  });

  test('only an admin may draft: FORBIDDEN', () => {
    listing.given([]).when(command('DraftListing', { listingId: LISTING_ID, slug: LISTING_SLUG, details: listingDetails, mediaIds: [] }, buyer('alice'))).thenError('FORBIDDEN', 'Access denied');
    listing.given([]).when(command('DraftListing', { listingId: LISTING_ID, slug: LISTING_SLUG, details: listingDetails, mediaIds: [] }, scheduler)).thenError('FORBIDDEN', 'Access denied');
  });

  test('drafting twice is refused: LISTING_ALREADY_EXISTS', () => {
    listing.given([listingDrafted()]).when(draft()).thenError('LISTING_ALREADY_EXISTS', 'This listing already exists');
  });

  test(`at most ${MAX_MEDIA_PER_LISTING} media files: TOO_MANY_MEDIA`, () => {
    expect(MAX_MEDIA_PER_LISTING).toBe(8);
    listing.given([]).when(draft(mediaIds(9))).thenError('TOO_MANY_MEDIA', 'A listing can have at most 8 media files');
    listing.given([]).when(draft(mediaIds(8))).thenEventsMatch([{ type: 'ListingDrafted', data: { mediaIds: mediaIds(8) } }]);
  });

  test('a media file attached twice: DUPLICATE_MEDIA', () => {
    listing
      .given([])
      .when(draft(['media-front', 'media-back', 'media-front']))
      .thenError('DUPLICATE_MEDIA', 'Each media file can be attached only once');
  });
});

// ---------------------------------------------------------------------------------------------

describe('ReviseListingDetails', () => {
  test.each([
    ['a draft', [listingDrafted()]],
    ['a saved listing', savedListing()],
    ['a listing with its tag bound', boundListing()],
  ])('%s can be revised', (_, history) => {
    listing
      .given(history)
      .when(revise('Tom Brady Signed Jersey'))
      .thenEvents([
        {
          type: 'ListingDetailsRevised',
          data: { listingId: LISTING_ID, details: { ...listingDetails, title: 'Tom Brady Signed Jersey' } },
          metadata: meta('ReviseListingDetails'),
        },
      ]);
  });

  test('a live listing is locked: LISTING_LOCKED', () => {
    const error = listing.given(liveListing()).when(revise('New title')).thenError('LISTING_LOCKED', 'This listing can no longer be changed: it is LIVE');
    expect(error.details).toEqual({ status: 'LIVE' });
  });

  test('a sold listing is locked: LISTING_LOCKED', () => {
    listing.given(soldListing()).when(revise('New title')).thenError('LISTING_LOCKED', 'This listing can no longer be changed: it is SOLD');
  });

  test('an unknown listing: LISTING_NOT_FOUND', () => {
    listing.given([]).when(revise('New title')).thenError('LISTING_NOT_FOUND', 'Listing not found');
  });
});

// ---------------------------------------------------------------------------------------------

describe('ArrangeListingMedia', () => {
  test('reorders the media of a saved listing', () => {
    listing
      .given(savedListing())
      .when(arrange(['media-back', 'media-front']))
      .thenEvents([
        { type: 'ListingMediaArranged', data: { listingId: LISTING_ID, mediaIds: ['media-back', 'media-front'] }, metadata: meta('ArrangeListingMedia') },
      ]);
  });

  test('a draft may be left without media', () => {
    listing.given([listingDrafted()]).when(arrange([])).thenEventsMatch([{ type: 'ListingMediaArranged', data: { mediaIds: [] } }]);
  });

  test('a saved listing cannot be emptied: MEDIA_REQUIRED', () => {
    listing.given(savedListing()).when(arrange([])).thenError('MEDIA_REQUIRED', 'At least one media file is required.');
  });

  test('a listing with its tag bound cannot be emptied either: MEDIA_REQUIRED', () => {
    listing.given(boundListing()).when(arrange([])).thenError('MEDIA_REQUIRED', 'At least one media file is required.');
  });

  test('the media limits apply: TOO_MANY_MEDIA, DUPLICATE_MEDIA', () => {
    listing.given(savedListing()).when(arrange(mediaIds(9))).thenError('TOO_MANY_MEDIA', 'A listing can have at most 8 media files');
    listing.given(savedListing()).when(arrange(['a', 'a'])).thenError('DUPLICATE_MEDIA', 'Each media file can be attached only once');
  });

  test('a live listing is locked: LISTING_LOCKED', () => {
    listing.given(liveListing()).when(arrange(['media-back'])).thenError('LISTING_LOCKED', 'This listing can no longer be changed: it is LIVE');
  });
});

// ---------------------------------------------------------------------------------------------

describe('SaveListing', () => {
  test('a draft with media is saved: ListingSaved', () => {
    listing
      .given([listingDrafted()])
      .when(save())
      .thenEvents([{ type: 'ListingSaved', data: { listingId: LISTING_ID }, metadata: meta('SaveListing') }]);
  });

  test('a saved listing is SAVED', () => {
    expect(stateOf(savedListing()).status).toBe('SAVED');
  });

  test('saving without media is refused with the spec message: MEDIA_REQUIRED', () => {
    listing.given([listingDrafted([])]).when(save()).thenError('MEDIA_REQUIRED', 'At least one media file is required.');
  });

  test('saving a draft whose media were all removed is refused: MEDIA_REQUIRED', () => {
    listing.given(after([listingDrafted()], arrange([]))).when(save()).thenError('MEDIA_REQUIRED', 'At least one media file is required.');
  });

  test('saving twice does nothing the second time', () => {
    listing.given(savedListing()).when(save()).thenNothing();
  });

  test('saving a listing with its tag bound does nothing (and keeps the tag)', () => {
    listing.given(boundListing()).when(save()).thenNothing();
  });

  test('a live listing is locked: LISTING_LOCKED', () => {
    listing.given(liveListing()).when(save()).thenError('LISTING_LOCKED', 'This listing can no longer be changed: it is LIVE');
  });

  test('an unknown listing: LISTING_NOT_FOUND', () => {
    listing.given([]).when(save()).thenError('LISTING_NOT_FOUND', 'Listing not found');
  });
});

// ---------------------------------------------------------------------------------------------

describe('BindListingTag', () => {
  test('a saved listing takes a tag, its UID normalised', () => {
    listing
      .given(savedListing())
      .when(bindTag('04a2b3c4d5e6f7'))
      .thenEvents([{ type: 'ListingTagBound', data: { listingId: LISTING_ID, uid: TAG_UID }, metadata: meta('BindListingTag') }]);
  });

  test('binding moves the listing to NFC_BOUND with the tag', () => {
    expect(stateOf(boundListing())).toMatchObject({ status: 'NFC_BOUND', nfcUid: TAG_UID });
  });

  test('a draft or unknown listing must be saved first: LISTING_NOT_SAVED', () => {
    listing.given([listingDrafted()]).when(bindTag(TAG_UID)).thenError('LISTING_NOT_SAVED', 'Listing must be saved before binding NFC tag');
    listing.given([]).when(bindTag(TAG_UID)).thenError('LISTING_NOT_SAVED', 'Listing must be saved before binding NFC tag');
  });

  test('an invalid UID: INVALID_NFC_UID', () => {
    listing.given(savedListing()).when(bindTag('not-a-uid')).thenError('INVALID_NFC_UID', 'Please enter a valid NFC UID');
  });

  test('binding the same tag again does nothing', () => {
    listing.given(boundListing()).when(bindTag('04-a2-b3-c4-d5-e6-f7')).thenNothing();
  });

  test('a listing with a tag refuses another: LISTING_ALREADY_HAS_TAG', () => {
    listing.given(boundListing()).when(bindTag(OTHER_TAG_UID)).thenError('LISTING_ALREADY_HAS_TAG', 'This listing already has an NFC tag bound');
  });

  test('a live listing is locked: LISTING_LOCKED', () => {
    listing.given(liveListing()).when(bindTag(OTHER_TAG_UID)).thenError('LISTING_LOCKED', 'This listing can no longer be changed: it is LIVE');
  });
});

// ---------------------------------------------------------------------------------------------

describe('UnbindListingTag', () => {
  test('frees the tag with a reason and returns the listing to SAVED', () => {
    listing
      .given(boundListing())
      .when(unbindTag('  Tag damaged  '))
      .thenEvents([
        { type: 'ListingTagUnbound', data: { listingId: LISTING_ID, uid: TAG_UID, reason: 'Tag damaged' }, metadata: meta('UnbindListingTag') },
      ]);
    expect(stateOf(after(boundListing(), unbindTag('Tag damaged')))).toMatchObject({ status: 'SAVED', nfcUid: null });
  });

  test('a reason is required: REASON_REQUIRED', () => {
    listing.given(boundListing()).when(unbindTag('   ')).thenError('REASON_REQUIRED', 'A reason is required');
  });

  test('a listing without a tag: LISTING_HAS_NO_TAG', () => {
    listing.given(savedListing()).when(unbindTag('Tag damaged')).thenError('LISTING_HAS_NO_TAG', 'This listing has no NFC tag bound');
  });

  test('the tag of a live listing cannot be unbound: LISTING_LOCKED', () => {
    listing.given(liveListing()).when(unbindTag('Tag damaged')).thenError('LISTING_LOCKED', 'The NFC tag of a published listing cannot be unbound');
  });
});

// ---------------------------------------------------------------------------------------------

describe('PublishListing', () => {
  test('an unknown listing must be created first: LISTING_NOT_SAVED', () => {
    listing.given([]).when(publish()).thenError('LISTING_NOT_SAVED', 'Listing must be created before publishing');
  });

  test('a draft must be saved first: LISTING_NOT_SAVED', () => {
    listing.given([listingDrafted()]).when(publish()).thenError('LISTING_NOT_SAVED', 'Listing must be created before publishing');
  });

  test('a saved listing needs its tag: NFC_TAG_REQUIRED', () => {
    listing.given(savedListing()).when(publish()).thenError('NFC_TAG_REQUIRED', 'NFC tag must be bound before publishing');
  });

  test('a listing whose tag was unbound needs a tag again: NFC_TAG_REQUIRED', () => {
    listing
      .given(after(boundListing(), unbindTag('Tag damaged')))
      .when(publish())
      .thenError('NFC_TAG_REQUIRED', 'NFC tag must be bound before publishing');
  });

  test('a listing with its tag bound is published: ListingPublished with the tag UID', () => {
    listing
      .given(boundListing())
      .when(publish())
      .thenEvents([
        { type: 'ListingPublished', data: { listingId: LISTING_ID, auctionId: AUCTION_ID, nfcUid: TAG_UID }, metadata: meta('PublishListing') },
      ]);
    expect(stateOf(liveListing())).toMatchObject({ status: 'LIVE', auctionId: AUCTION_ID, nfcUid: TAG_UID });
  });

  test('publishing twice: LISTING_ALREADY_PUBLISHED', () => {
    listing.given(liveListing()).when(publish()).thenError('LISTING_ALREADY_PUBLISHED', 'This listing cannot be published: it is LIVE');
  });

  test('only an admin may publish: FORBIDDEN', () => {
    listing.given(boundListing()).when(publish(buyer('alice'))).thenError('FORBIDDEN', 'Access denied');
    listing.given(boundListing()).when(publish(scheduler)).thenError('FORBIDDEN', 'Access denied');
  });
});

// ---------------------------------------------------------------------------------------------

describe('RecordAuctionOutcome', () => {
  test('the scheduler records a sale: ListingSold', () => {
    listing
      .given(liveListing())
      .when(recordOutcome('SOLD', { buyerId: 'alice', finalPrice: 81_000 }))
      .thenEvents([
        {
          type: 'ListingSold',
          data: { listingId: LISTING_ID, auctionId: AUCTION_ID, buyerId: 'alice', finalPrice: 81_000 },
          metadata: meta('RecordAuctionOutcome', scheduler),
        },
      ]);
    expect(stateOf(soldListing()).status).toBe('SOLD');
  });

  test('an admin may record it too', () => {
    listing
      .given(liveListing())
      .when(recordOutcome('SOLD', { buyerId: 'alice', finalPrice: 81_000, actor: admin }))
      .thenEventsMatch([{ type: 'ListingSold' }]);
  });

  test.each(['NO_BIDS', 'RESERVE_NOT_MET', 'CANCELLED'] as const)('an unsold outcome (%s): ListingUnsold with that result', (result) => {
    listing
      .given(liveListing())
      .when(recordOutcome(result))
      .thenEvents([
        { type: 'ListingUnsold', data: { listingId: LISTING_ID, auctionId: AUCTION_ID, result }, metadata: meta('RecordAuctionOutcome', scheduler) },
      ]);
    expect(stateOf(after(liveListing(), recordOutcome(result))).status).toBe('UNSOLD');
  });

  test('a sale needs a buyer and a final price: SALE_INCOMPLETE', () => {
    listing.given(liveListing()).when(recordOutcome('SOLD', { finalPrice: 81_000 })).thenError('SALE_INCOMPLETE', 'A sale needs a buyer and a final price');
    listing.given(liveListing()).when(recordOutcome('SOLD', { buyerId: 'alice' })).thenError('SALE_INCOMPLETE', 'A sale needs a buyer and a final price');
  });

  test('the listing must be live in that auction: LISTING_NOT_LIVE', () => {
    listing.given(boundListing()).when(recordOutcome('NO_BIDS')).thenError('LISTING_NOT_LIVE', 'This listing is not live in that auction');
    listing
      .given(liveListing())
      .when(recordOutcome('NO_BIDS', { auctionId: 'auction-other' }))
      .thenError('LISTING_NOT_LIVE', 'This listing is not live in that auction');
    listing.given(soldListing()).when(recordOutcome('NO_BIDS')).thenError('LISTING_NOT_LIVE', 'This listing is not live in that auction');
  });

  test('a buyer may not record an outcome: FORBIDDEN', () => {
    listing.given(liveListing()).when(recordOutcome('NO_BIDS', { actor: buyer('alice') })).thenError('FORBIDDEN', 'Access denied');
  });

  test('an unknown listing: LISTING_NOT_FOUND', () => {
    listing.given([]).when(recordOutcome('NO_BIDS')).thenError('LISTING_NOT_FOUND', 'Listing not found');
  });
});

// ---------------------------------------------------------------------------------------------

describe('WithdrawListing', () => {
  test.each([
    ['a draft', [listingDrafted()]],
    ['a saved listing', savedListing()],
    ['a listing with its tag bound', boundListing()],
    ['a live listing', liveListing()],
  ])('%s can be withdrawn with a reason: ListingWithdrawn', (_, history) => {
    listing
      .given(history)
      .when(withdraw(' Consignor changed their mind '))
      .thenEvents([
        { type: 'ListingWithdrawn', data: { listingId: LISTING_ID, reason: 'Consignor changed their mind' }, metadata: meta('WithdrawListing') },
      ]);
    expect(stateOf(after(history, withdraw('Consignor changed their mind'))).status).toBe('WITHDRAWN');
  });

  test('a reason is required: REASON_REQUIRED', () => {
    listing.given(liveListing()).when(withdraw('')).thenError('REASON_REQUIRED', 'A reason is required');
  });

  test('a sold listing cannot be withdrawn: LISTING_FINISHED', () => {
    listing.given(soldListing()).when(withdraw('Too late')).thenError('LISTING_FINISHED', 'This listing can no longer be withdrawn: it is SOLD');
  });

  test('an unsold listing cannot be withdrawn: LISTING_FINISHED', () => {
    listing
      .given(after(liveListing(), recordOutcome('NO_BIDS')))
      .when(withdraw('Too late'))
      .thenError('LISTING_FINISHED', 'This listing can no longer be withdrawn: it is UNSOLD');
  });

  test('withdrawing twice: LISTING_FINISHED', () => {
    listing
      .given(after(savedListing(), withdraw('Duplicate')))
      .when(withdraw('Again'))
      .thenError('LISTING_FINISHED', 'This listing can no longer be withdrawn: it is WITHDRAWN');
  });

  test('a withdrawn listing is locked against edits: LISTING_LOCKED', () => {
    listing
      .given(after(savedListing(), withdraw('Duplicate')))
      .when(revise('New title'))
      .thenError('LISTING_LOCKED', 'This listing can no longer be changed: it is WITHDRAWN');
  });

  test('an unknown listing: LISTING_NOT_FOUND', () => {
    listing.given([]).when(withdraw('Duplicate')).thenError('LISTING_NOT_FOUND', 'Listing not found');
  });

  test('only an admin may withdraw: FORBIDDEN', () => {
    listing
      .given(liveListing())
      .when(command('WithdrawListing', { listingId: LISTING_ID, reason: 'x' }, scheduler))
      .thenError('FORBIDDEN', 'Access denied');
  });
});

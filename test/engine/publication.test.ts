import { describe, expect, test } from 'vitest';
import {
  auctionDecider,
  decideListingPublication,
  decideSlugClaim,
  DomainError,
  listingDecider,
  slugify,
  type ListingPublicationCommand,
} from '../../engine/domain';
import { acrossTwo, spec } from './given-when-then';
import {
  admin,
  AUCTION_ID,
  auctionOpened,
  auctionRules,
  auctionScheduled,
  boundListing,
  buyer,
  DURING,
  ENDS_AT,
  eventMetadata,
  LISTING_ID,
  LISTING_SLUG,
  listingDetails,
  listingDrafted,
  liveListing,
  MEDIA_IDS,
  metadata,
  placeBid,
  play,
  SCHEDULED_AT,
  savedListing,
  STARTS_AT,
  TAG_UID,
} from './fixtures';

/** Two deciders, one decision: given(listing history, auction history).when(command).then... */
const { given } = acrossTwo(listingDecider, auctionDecider, decideListingPublication);

function publish(now = SCHEDULED_AT, options: { startsAt?: string; endsAt?: string } = {}): ListingPublicationCommand {
  return {
    type: 'PublishListingAtAuction',
    data: { listingId: LISTING_ID, auctionId: AUCTION_ID, startsAt: options.startsAt ?? STARTS_AT, endsAt: options.endsAt ?? ENDS_AT, rules: auctionRules() },
    metadata: metadata(admin, now, 'cmd-publish'),
  };
}

function withdraw(reason = 'Consignor withdrew the item', now = DURING): ListingPublicationCommand {
  return { type: 'WithdrawListingFromSale', data: { listingId: LISTING_ID, reason }, metadata: metadata(admin, now, 'cmd-withdraw') };
}

describe('publishing a listing at auction', () => {
  test('a bound listing is published and its auction scheduled, by the same command, with the listing owner as seller', () => {
    given(boundListing()).when(publish()).thenEvents({
      listingEvents: [{ type: 'ListingPublished', data: { listingId: LISTING_ID, auctionId: AUCTION_ID, nfcUid: TAG_UID }, metadata: eventMetadata(admin, SCHEDULED_AT, 'cmd-publish') }],
      auctionEvents: [
        {
          type: 'AuctionScheduled',
          data: { auctionId: AUCTION_ID, listingId: LISTING_ID, sellerId: admin.userId, startsAt: STARTS_AT, endsAt: ENDS_AT, rules: auctionRules() },
          metadata: eventMetadata(admin, SCHEDULED_AT, 'cmd-publish'),
        },
      ],
    });
  });

  test('an auction whose start has come opens in the same decision', () => {
    const decision = decideListingPublication(publish(STARTS_AT), spec(listingDecider).given(boundListing()).state, auctionDecider.initialState);
    expect(decision.auctionEvents.map((event) => event.type)).toEqual(['AuctionScheduled', 'AuctionOpened']);
  });

  test('the listing speaks first: a draft is "Listing must be created before publishing"', () => {
    given([listingDrafted()]).when(publish()).thenError('LISTING_NOT_SAVED', 'Listing must be created before publishing');
    given([]).when(publish()).thenError('LISTING_NOT_SAVED', 'Listing must be created before publishing');
  });

  test('a saved listing without its tag: "NFC tag must be bound before publishing"', () => {
    given(savedListing()).when(publish()).thenError('NFC_TAG_REQUIRED', 'NFC tag must be bound before publishing');
  });

  test('rules the auction refuses refuse the whole publication: nothing for the listing either', () => {
    given(boundListing()).when(publish(SCHEDULED_AT, { endsAt: STARTS_AT })).thenError('INVALID_SCHEDULE', 'The auction must end after it starts');
    given(boundListing()).when(publish(ENDS_AT, { startsAt: SCHEDULED_AT, endsAt: ENDS_AT })).thenError('INVALID_SCHEDULE', 'The auction must end in the future');
  });

  test('a live listing is not published twice', () => {
    given(liveListing(), [auctionScheduled()]).when(publish()).thenError('LISTING_ALREADY_PUBLISHED', 'This listing cannot be published: it is LIVE');
  });

  test('only an admin publishes', () => {
    const byBuyer = { ...publish(), metadata: metadata(buyer('buyer-1'), SCHEDULED_AT) };
    expect(() => decideListingPublication(byBuyer, spec(listingDecider).given(boundListing()).state, auctionDecider.initialState)).toThrow(DomainError);
  });
});

describe('withdrawing a listing from sale', () => {
  test('a live listing takes its auction with it; the reason is recorded on both', () => {
    given(liveListing(), play(auctionDecider, [auctionScheduled(), auctionOpened()], placeBid('buyer-1', 6_000))).when(withdraw()).thenEvents({
      listingEvents: [{ type: 'ListingWithdrawn', data: { listingId: LISTING_ID, reason: 'Consignor withdrew the item' }, metadata: eventMetadata(admin, DURING, 'cmd-withdraw') }],
      auctionEvents: [
        { type: 'AuctionCancelled', data: { auctionId: AUCTION_ID, reason: 'Consignor withdrew the item', cancelledAt: DURING }, metadata: eventMetadata(admin, DURING, 'cmd-withdraw') },
      ],
    });
  });

  test('a listing not yet published has no auction to cancel', () => {
    given(boundListing()).when(withdraw()).thenEvents({
      listingEvents: [{ type: 'ListingWithdrawn', data: { listingId: LISTING_ID, reason: 'Consignor withdrew the item' }, metadata: eventMetadata(admin, DURING, 'cmd-withdraw') }],
      auctionEvents: [],
    });
  });

  test('a reason is required', () => {
    given(liveListing(), [auctionScheduled()]).when(withdraw('  ')).thenError('REASON_REQUIRED', 'A reason is required');
  });

  test('an auction that has closed keeps its result: the live listing cannot be withdrawn any more', () => {
    const closed = spec(auctionDecider).given([auctionScheduled(), auctionOpened()]).state;
    const ended = auctionDecider.decide({ type: 'CloseAuction', data: { auctionId: AUCTION_ID }, metadata: metadata({ userId: 'scheduler', roles: ['SYSTEM'] }, ENDS_AT) }, closed);
    given(liveListing(), [auctionScheduled(), auctionOpened(), ...ended]).when(withdraw('late', ENDS_AT)).thenError('AUCTION_ALREADY_CLOSED', 'Auction has already closed');
  });
});

describe('drafting and saving in one decision', () => {
  const draft = (save: boolean, mediaIds = MEDIA_IDS) => ({
    type: 'DraftListing' as const,
    data: { listingId: LISTING_ID, slug: LISTING_SLUG, details: listingDetails, mediaIds, save },
    metadata: metadata(admin, SCHEDULED_AT, 'cmd-draft'),
  });

  test('save: true drafts and saves', () => {
    spec(listingDecider).given([]).when(draft(true)).thenEventsMatch([{ type: 'ListingDrafted' }, { type: 'ListingSaved', data: { listingId: LISTING_ID } }]);
  });

  test('save: true without media: "At least one media file is required." and no draft either', () => {
    spec(listingDecider).given([]).when(draft(true, [])).thenError('MEDIA_REQUIRED', 'At least one media file is required.');
  });
});

describe('slug claims', () => {
  test('a free slug is claimed; the same listing claiming again is nothing new; another listing is refused', () => {
    expect(decideSlugClaim('tom-brady', LISTING_ID, null, metadata(admin, SCHEDULED_AT))).toEqual([
      { type: 'ListingSlugClaimed', data: { slug: 'tom-brady', listingId: LISTING_ID }, metadata: eventMetadata(admin, SCHEDULED_AT) },
    ]);
    expect(decideSlugClaim('tom-brady', LISTING_ID, LISTING_ID, metadata(admin, SCHEDULED_AT))).toEqual([]);
    expect(() => decideSlugClaim('tom-brady', LISTING_ID, 'other-listing', metadata(admin, SCHEDULED_AT))).toThrow('The address "tom-brady" is already used by another listing');
  });

  test('slugify makes readable ASCII addresses', () => {
    expect(slugify('Kylian Mbappé', 10, 'Paris Saint-Germain', 'jersey')).toBe('kylian-mbappe-10-paris-saint-germain-jersey');
    expect(slugify('  ', null, undefined)).toBe('listing');
    expect(slugify('x'.repeat(300)).length).toBe(120);
  });
});

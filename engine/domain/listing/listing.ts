import { z } from 'zod';
import type { Decider } from '../shared/decider';
import { assertNever, invalid, notFound, rejected } from '../shared/errors';
import { commandMetadataSchema, eventMetadataFor, eventMetadataSchema, messageSchema, requireReason, requireRole } from '../shared/messages';
import { centsSchema } from '../shared/money';
import { requireNfcUid } from '../nfc-tag/identifiers';
import { MAX_SLUG_LENGTH, SLUG_PATTERN } from './slug-claim';

export const MAX_MEDIA_PER_LISTING = 8;

const id = z.string().min(1).max(200);
const text = (max: number) => z.string().trim().max(max);

export const listingCategorySchema = z.enum(['CLOTHING', 'EQUIPMENT', 'FOOTWEAR', 'ACCESSORIES']);
export const sportTypeSchema = z.enum(['FOOTBALL', 'BASKETBALL', 'BASEBALL', 'SOCCER']);
export const listingTagSchema = z.enum([
  'AUTOGRAPHED', 'SIGNED', 'WORN', 'LIMITED_EDITION', 'PLAYOFF_GAME', 'FINAL_MATCH', 'DEBUT_GAME',
  'MVP_GAME', 'HATTRICK', '2 GOALS', 'GOALS', 'ASSISTS', 'MVP',
]);

/** What a listing says about its item (title, category, condition, sport, player, team, tags...), as an admin enters it. */
export const listingDetailsSchema = z.strictObject({
  title: text(200).min(1),
  description: text(10_000),
  category: listingCategorySchema,
  /** Provenance of the item (GAME_WORN, PLAYER_ISSUED, ...) or its physical state (new, good, ...). */
  condition: text(50).min(1),
  sportType: sportTypeSchema,
  /** Asking price; the auction's starting price unless the publisher chooses another. */
  price: centsSchema,
  playerName: text(200).nullable(),
  teamOrClub: text(200).nullable(),
  leagueOrEvent: text(200).nullable(),
  dateOrSeason: text(100).nullable(),
  size: text(20).nullable(),
  tags: z.array(listingTagSchema).max(20),
  /** The jersey form's game details (number, game, date, opponent, venue, stats), when the item came in through it. */
  jersey: z
    .strictObject({
      jerseyNumber: z.number().int().min(0).max(999),
      gameTitle: text(200).nullable(),
      gameDate: z.iso.date().nullable(),
      opponent: text(200).nullable(),
      venue: text(200).nullable(),
      stats: z.strictObject({
        touchdowns: z.number().int().min(0).nullable(),
        passingYards: z.number().int().nullable(),
        completions: z.number().int().min(0).nullable(),
      }),
    })
    .nullable(),
});
export type ListingDetails = z.infer<typeof listingDetailsSchema>;

const mediaIds = z.array(id).max(MAX_MEDIA_PER_LISTING * 4);

export const listingCommandSchema = z.discriminatedUnion('type', [
  messageSchema(
    'DraftListing',
    z.strictObject({
      listingId: id,
      slug: z.string().regex(SLUG_PATTERN).max(MAX_SLUG_LENGTH),
      details: listingDetailsSchema,
      mediaIds,
      /** Save at once (the admin form's Save Listing): drafted and saved in one decision, or neither. */
      save: z.boolean().optional(),
    }),
    commandMetadataSchema,
  ),
  messageSchema('ReviseListingDetails', z.strictObject({ listingId: id, details: listingDetailsSchema }), commandMetadataSchema),
  messageSchema('ArrangeListingMedia', z.strictObject({ listingId: id, mediaIds }), commandMetadataSchema),
  messageSchema('SaveListing', z.strictObject({ listingId: id }), commandMetadataSchema),
  messageSchema('BindListingTag', z.strictObject({ listingId: id, uid: z.string().max(64) }), commandMetadataSchema),
  messageSchema('UnbindListingTag', z.strictObject({ listingId: id, reason: z.string().max(2000) }), commandMetadataSchema),
  messageSchema('PublishListing', z.strictObject({ listingId: id, auctionId: id }), commandMetadataSchema),
  messageSchema(
    'RecordAuctionOutcome',
    z.strictObject({
      listingId: id,
      auctionId: id,
      result: z.enum(['SOLD', 'NO_BIDS', 'RESERVE_NOT_MET', 'CANCELLED']),
      buyerId: id.nullable(),
      finalPrice: centsSchema.nullable(),
    }),
    commandMetadataSchema,
  ),
  messageSchema('WithdrawListing', z.strictObject({ listingId: id, reason: z.string().max(2000) }), commandMetadataSchema),
  /** A sold item whose sale fell through (the order cancelled, no runner-up took it) goes back on sale. */
  messageSchema('RelistListing', z.strictObject({ listingId: id, auctionId: id }), commandMetadataSchema),
]);
export type ListingCommand = z.infer<typeof listingCommandSchema>;

export const listingEventSchema = z.discriminatedUnion('type', [
  messageSchema(
    'ListingDrafted',
    z.strictObject({ listingId: id, ownerId: id, slug: z.string(), details: listingDetailsSchema, mediaIds: z.array(id) }),
    eventMetadataSchema,
  ),
  messageSchema('ListingDetailsRevised', z.strictObject({ listingId: id, details: listingDetailsSchema }), eventMetadataSchema),
  messageSchema('ListingMediaArranged', z.strictObject({ listingId: id, mediaIds: z.array(id) }), eventMetadataSchema),
  messageSchema('ListingSaved', z.strictObject({ listingId: id }), eventMetadataSchema),
  messageSchema('ListingTagBound', z.strictObject({ listingId: id, uid: z.string() }), eventMetadataSchema),
  messageSchema('ListingTagUnbound', z.strictObject({ listingId: id, uid: z.string(), reason: z.string() }), eventMetadataSchema),
  messageSchema('ListingPublished', z.strictObject({ listingId: id, auctionId: id, nfcUid: z.string() }), eventMetadataSchema),
  messageSchema(
    'ListingSold',
    z.strictObject({ listingId: id, auctionId: id, buyerId: id, finalPrice: centsSchema }),
    eventMetadataSchema,
  ),
  messageSchema(
    'ListingUnsold',
    z.strictObject({ listingId: id, auctionId: id, result: z.enum(['NO_BIDS', 'RESERVE_NOT_MET', 'CANCELLED']) }),
    eventMetadataSchema,
  ),
  messageSchema('ListingWithdrawn', z.strictObject({ listingId: id, reason: z.string() }), eventMetadataSchema),
  /** Back to NFC_BOUND, its tag still bound, ready to be published at a new auction. */
  messageSchema('ListingRelisted', z.strictObject({ listingId: id, previousAuctionId: id }), eventMetadataSchema),
]);
export type ListingEvent = z.infer<typeof listingEventSchema>;
type ListingCommandOf<T extends ListingCommand['type']> = Extract<ListingCommand, { type: T }>;

/** draft -> saved -> NFC bound -> live -> sold | unsold; withdrawn from any state before the end. */
export const listingStatusSchema = z.enum(['DRAFT', 'SAVED', 'NFC_BOUND', 'LIVE', 'SOLD', 'UNSOLD', 'WITHDRAWN']);
export type ListingStatus = z.infer<typeof listingStatusSchema>;

export type ListingState =
  | { readonly status: 'NONE' }
  | {
      readonly status: ListingStatus;
      readonly listingId: string;
      readonly ownerId: string;
      readonly slug: string;
      readonly details: ListingDetails;
      readonly mediaIds: readonly string[];
      readonly nfcUid: string | null;
      readonly auctionId: string | null;
    };
type ExistingListing = Exclude<ListingState, { status: 'NONE' }>;

export const initialListingState: ListingState = { status: 'NONE' };

export function listingStreamId(listingId: string): string {
  return `listing-${listingId}`;
}

export function evolveListing(state: ListingState, event: ListingEvent): ListingState {
  if (event.type === 'ListingDrafted') {
    const { listingId, ownerId, slug, details, mediaIds } = event.data;
    return { status: 'DRAFT', listingId, ownerId, slug, details, mediaIds, nfcUid: null, auctionId: null };
  }
  if (state.status === 'NONE') return state;
  switch (event.type) {
    case 'ListingDetailsRevised':
      return { ...state, details: event.data.details };
    case 'ListingMediaArranged':
      return { ...state, mediaIds: event.data.mediaIds };
    case 'ListingSaved':
      return { ...state, status: 'SAVED' };
    case 'ListingTagBound':
      return { ...state, status: 'NFC_BOUND', nfcUid: event.data.uid };
    case 'ListingTagUnbound':
      return { ...state, status: state.status === 'NFC_BOUND' ? 'SAVED' : state.status, nfcUid: null };
    case 'ListingPublished':
      return { ...state, status: 'LIVE', auctionId: event.data.auctionId };
    case 'ListingSold':
      return { ...state, status: 'SOLD' };
    case 'ListingUnsold':
      return { ...state, status: 'UNSOLD' };
    case 'ListingWithdrawn':
      return { ...state, status: 'WITHDRAWN' };
    case 'ListingRelisted':
      return { ...state, status: 'NFC_BOUND', auctionId: null };
    default:
      return assertNever(event);
  }
}

export function decideListing(command: ListingCommand, state: ListingState): ListingEvent[] {
  requireRole(command.metadata.actor, 'ADMIN', ...(command.type === 'RecordAuctionOutcome' ? (['SYSTEM'] as const) : []));
  const metadata = eventMetadataFor(command);
  const { listingId } = command.data;
  switch (command.type) {
    case 'DraftListing': {
      if (state.status !== 'NONE') throw rejected('LISTING_ALREADY_EXISTS', 'This listing already exists');
      const mediaIds = arrangedMedia(command.data.mediaIds);
      const { slug, details } = command.data;
      const drafted: ListingEvent = { type: 'ListingDrafted', data: { listingId, ownerId: command.metadata.actor.userId, slug, details, mediaIds }, metadata };
      if (!command.data.save) return [drafted];
      if (mediaIds.length === 0) throw mediaRequired();
      return [drafted, { type: 'ListingSaved', data: { listingId }, metadata }];
    }
    case 'ReviseListingDetails': {
      requireEditable(state);
      return [{ type: 'ListingDetailsRevised', data: { listingId, details: command.data.details }, metadata }];
    }
    case 'ArrangeListingMedia': {
      const listing = requireEditable(state);
      const mediaIds = arrangedMedia(command.data.mediaIds);
      if (listing.status !== 'DRAFT' && mediaIds.length === 0) throw mediaRequired();
      return [{ type: 'ListingMediaArranged', data: { listingId, mediaIds }, metadata }];
    }
    case 'SaveListing': {
      const listing = requireEditable(state);
      if (listing.mediaIds.length === 0) throw mediaRequired();
      return listing.status === 'DRAFT' ? [{ type: 'ListingSaved', data: { listingId }, metadata }] : [];
    }
    case 'BindListingTag':
      return bindTag(command, state);
    case 'UnbindListingTag': {
      const reason = requireReason(command.data.reason);
      const listing = requireExisting(state);
      if (listing.nfcUid === null) throw rejected('LISTING_HAS_NO_TAG', 'This listing has no NFC tag bound');
      // A live or sold item keeps its tag: the tag is how a buyer checks what they bid on or bought.
      // A withdrawn or unsold item gives it back, so the item can be listed again.
      if (listing.status === 'LIVE' || listing.status === 'SOLD') {
        throw rejected('LISTING_LOCKED', `The NFC tag of a ${listing.status === 'LIVE' ? 'published' : 'sold'} listing cannot be unbound`);
      }
      return [{ type: 'ListingTagUnbound', data: { listingId, uid: listing.nfcUid, reason }, metadata }];
    }
    case 'PublishListing': {
      if (state.status === 'NONE' || state.status === 'DRAFT') {
        throw rejected('LISTING_NOT_SAVED', 'Listing must be created before publishing');
      }
      if (state.status === 'SAVED') throw rejected('NFC_TAG_REQUIRED', 'NFC tag must be bound before publishing');
      if (state.status !== 'NFC_BOUND' || state.nfcUid === null) {
        throw rejected('LISTING_ALREADY_PUBLISHED', `This listing cannot be published: it is ${state.status}`);
      }
      return [{ type: 'ListingPublished', data: { listingId, auctionId: command.data.auctionId, nfcUid: state.nfcUid }, metadata }];
    }
    case 'RecordAuctionOutcome': {
      const listing = requireExisting(state);
      const { auctionId, result, buyerId, finalPrice } = command.data;
      if (listing.status !== 'LIVE' || listing.auctionId !== auctionId) {
        throw rejected('LISTING_NOT_LIVE', 'This listing is not live in that auction');
      }
      if (result === 'SOLD') {
        if (buyerId === null || finalPrice === null) throw invalid('SALE_INCOMPLETE', 'A sale needs a buyer and a final price');
        return [{ type: 'ListingSold', data: { listingId, auctionId, buyerId, finalPrice }, metadata }];
      }
      return [{ type: 'ListingUnsold', data: { listingId, auctionId, result }, metadata }];
    }
    case 'WithdrawListing': {
      const reason = requireReason(command.data.reason);
      const listing = requireExisting(state);
      if (listing.status === 'SOLD' || listing.status === 'UNSOLD' || listing.status === 'WITHDRAWN') {
        throw rejected('LISTING_FINISHED', `This listing can no longer be withdrawn: it is ${listing.status}`);
      }
      return [{ type: 'ListingWithdrawn', data: { listingId, reason }, metadata }];
    }
    case 'RelistListing': {
      const listing = requireExisting(state);
      if (listing.status !== 'SOLD' || listing.auctionId !== command.data.auctionId) {
        throw rejected('LISTING_NOT_SOLD', 'This listing was not sold in that auction');
      }
      return [{ type: 'ListingRelisted', data: { listingId, previousAuctionId: command.data.auctionId }, metadata }];
    }
    default:
      return assertNever(command);
  }
}

export const listingDecider: Decider<ListingCommand, ListingEvent, ListingState> = {
  initialState: initialListingState,
  evolve: evolveListing,
  decide: decideListing,
};

function bindTag(command: ListingCommandOf<'BindListingTag'>, state: ListingState): ListingEvent[] {
  if (state.status === 'NONE' || state.status === 'DRAFT') {
    throw rejected('LISTING_NOT_SAVED', 'Listing must be saved before binding NFC tag');
  }
  const uid = requireNfcUid(command.data.uid);
  if (state.status === 'NFC_BOUND') {
    if (state.nfcUid === uid) return [];
    throw rejected('LISTING_ALREADY_HAS_TAG', 'This listing already has an NFC tag bound');
  }
  if (state.status !== 'SAVED') throw locked(state.status);
  return [{ type: 'ListingTagBound', data: { listingId: command.data.listingId, uid }, metadata: eventMetadataFor(command) }];
}

function requireExisting(state: ListingState): ExistingListing {
  if (state.status === 'NONE') throw notFound('LISTING_NOT_FOUND', 'Listing not found');
  return state;
}

/** Details and media may change until the listing is published; after that they are the record. */
function requireEditable(state: ListingState): ExistingListing {
  const listing = requireExisting(state);
  if (listing.status !== 'DRAFT' && listing.status !== 'SAVED' && listing.status !== 'NFC_BOUND') throw locked(listing.status);
  return listing;
}

function locked(status: ListingStatus) {
  return rejected('LISTING_LOCKED', `This listing can no longer be changed: it is ${status}`, { status });
}

function mediaRequired() {
  return rejected('MEDIA_REQUIRED', 'At least one media file is required.');
}

function arrangedMedia(mediaIds: readonly string[]): string[] {
  if (new Set(mediaIds).size !== mediaIds.length) throw invalid('DUPLICATE_MEDIA', 'Each media file can be attached only once');
  if (mediaIds.length > MAX_MEDIA_PER_LISTING) {
    throw invalid('TOO_MANY_MEDIA', `A listing can have at most ${MAX_MEDIA_PER_LISTING} media files`);
  }
  return [...mediaIds];
}

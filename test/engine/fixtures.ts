import {
  FLAT_ONE_DOLLAR,
  fold,
  fromMillis,
  toMillis,
  type Actor,
  type AuctionCommand,
  type AuctionEvent,
  type AuctionRules,
  type AutoBid,
  type CommandMetadata,
  type Decider,
  type EventMetadata,
  type Instant,
  type ListingDetails,
  type ListingEvent,
  type NfcTagEvent,
  type Standing,
} from '../../engine/domain';

// ---- time -------------------------------------------------------------------------------------

export const STARTS_AT: Instant = '2026-12-01T12:00:00.000Z';
export const ENDS_AT: Instant = '2026-12-08T12:00:00.000Z';
/** When the admin schedules the auction: a day before it starts. */
export const SCHEDULED_AT: Instant = '2026-11-30T12:00:00.000Z';
/** Some moment while the auction is running. */
export const DURING: Instant = '2026-12-03T12:00:00.000Z';

/** `instant` moved by `seconds` (negative moves earlier). */
export function plusSeconds(instant: Instant, seconds: number): Instant {
  return fromMillis(toMillis(instant) + seconds * 1000);
}

// ---- actors and metadata ----------------------------------------------------------------------

export const admin: Actor = { userId: 'admin-1', roles: ['ADMIN'] };
export const scheduler: Actor = { userId: 'scheduler', roles: ['SYSTEM'] };
export function buyer(userId: string): Actor {
  return { userId, roles: ['BUYER'] };
}

export const CORRELATION_ID = 'corr-1';

export function metadata(actor: Actor, now: Instant, commandId = 'cmd-1', correlationId = CORRELATION_ID): CommandMetadata {
  return { actor, now, correlationId, commandId };
}

/** The metadata an event caused by `metadata(actor, now, commandId)` must carry. */
export function eventMetadata(actor: Actor, now: Instant, commandId = 'cmd-1', correlationId = CORRELATION_ID): EventMetadata {
  return { actorId: actor.userId, actorRoles: actor.roles, occurredAt: now, correlationId, commandId };
}

/** The metadata every event that `command` causes must carry. */
function causedBy(command: { readonly metadata: CommandMetadata }): EventMetadata {
  const { actor, now, commandId, correlationId } = command.metadata;
  return eventMetadata(actor, now, commandId, correlationId);
}

// ---- histories --------------------------------------------------------------------------------

/** The history after running `commands` one by one through the decider, starting from `history`. */
export function play<C, E, S>(decider: Decider<C, E, S>, history: readonly E[], ...commands: C[]): E[] {
  const events = [...history];
  for (const command of commands) events.push(...decider.decide(command, fold(decider, events)));
  return events;
}

// ---- auction ----------------------------------------------------------------------------------

export const AUCTION_ID = 'auction-1';
export const LISTING_ID = 'listing-1';
export const SELLER_ID = 'seller-1';

/** The spec's rule set by default: $50.00 start, flat $1 increments, no soft close, reserve or buy-now. */
export function auctionRules(overrides: Partial<AuctionRules> = {}): AuctionRules {
  return {
    currency: 'USD',
    startingPrice: 5_000,
    incrementTable: FLAT_ONE_DOLLAR,
    softClose: null,
    reservePrice: null,
    buyNowPrice: null,
    ...overrides,
  };
}

export interface ScheduleOptions {
  readonly rules?: Partial<AuctionRules>;
  readonly startsAt?: Instant;
  readonly endsAt?: Instant;
  readonly now?: Instant;
  readonly actor?: Actor;
}

export function scheduleAuction(options: ScheduleOptions = {}): Extract<AuctionCommand, { type: 'ScheduleAuction' }> {
  return {
    type: 'ScheduleAuction',
    data: {
      auctionId: AUCTION_ID,
      listingId: LISTING_ID,
      sellerId: SELLER_ID,
      startsAt: options.startsAt ?? STARTS_AT,
      endsAt: options.endsAt ?? ENDS_AT,
      rules: auctionRules(options.rules),
    },
    metadata: metadata(options.actor ?? admin, options.now ?? SCHEDULED_AT, 'cmd-schedule'),
  };
}

export function auctionScheduled(options: ScheduleOptions = {}): Extract<AuctionEvent, { type: 'AuctionScheduled' }> {
  const command = scheduleAuction(options);
  return { type: 'AuctionScheduled', data: command.data, metadata: causedBy(command) };
}

/** The auction opening at `at`: by the scheduler's OpenAuction, unless `cause` (a bid, a late schedule) opened it. */
export function auctionOpened(at: Instant = STARTS_AT, cause: AuctionCommand = openAuction(at)): Extract<AuctionEvent, { type: 'AuctionOpened' }> {
  return { type: 'AuctionOpened', data: { auctionId: AUCTION_ID, openedAt: at }, metadata: causedBy(cause) };
}

/** A scheduled auction that has opened: the usual starting point of a bidding test. */
export function liveAuction(rules: Partial<AuctionRules> = {}, options: Omit<ScheduleOptions, 'rules'> = {}): AuctionEvent[] {
  return [auctionScheduled({ ...options, rules }), auctionOpened(options.startsAt ?? STARTS_AT)];
}

export function openAuction(now: Instant, actor: Actor = scheduler): Extract<AuctionCommand, { type: 'OpenAuction' }> {
  return { type: 'OpenAuction', data: { auctionId: AUCTION_ID }, metadata: metadata(actor, now, 'cmd-open') };
}

export interface BidOptions {
  readonly maximum?: number | null;
  readonly at?: Instant;
  readonly bidId?: string;
  readonly actor?: Actor;
}

/** A bid by `bidderId` (a BUYER); its bid id and command id default to `${bidderId}-${amount}`. */
export function placeBid(bidderId: string, amount: number, options: BidOptions = {}): Extract<AuctionCommand, { type: 'PlaceBid' }> {
  const bidId = options.bidId ?? `${bidderId}-${amount}`;
  return {
    type: 'PlaceBid',
    data: { auctionId: AUCTION_ID, bidId, amount, maximum: options.maximum ?? null },
    metadata: metadata(options.actor ?? buyer(bidderId), options.at ?? DURING, `cmd-${bidId}`),
  };
}

export function buyNow(
  bidderId: string,
  options: { at?: Instant; bidId?: string; actor?: Actor } = {},
): Extract<AuctionCommand, { type: 'BuyNow' }> {
  const bidId = options.bidId ?? `${bidderId}-buy-now`;
  return {
    type: 'BuyNow',
    data: { auctionId: AUCTION_ID, bidId },
    metadata: metadata(options.actor ?? buyer(bidderId), options.at ?? DURING, `cmd-${bidId}`),
  };
}

export function closeAuction(now: Instant = ENDS_AT, actor: Actor = scheduler): Extract<AuctionCommand, { type: 'CloseAuction' }> {
  return { type: 'CloseAuction', data: { auctionId: AUCTION_ID }, metadata: metadata(actor, now, 'cmd-close') };
}

export function cancelAuction(
  reason: string,
  options: { at?: Instant; actor?: Actor } = {},
): Extract<AuctionCommand, { type: 'CancelAuction' }> {
  return {
    type: 'CancelAuction',
    data: { auctionId: AUCTION_ID, reason },
    metadata: metadata(options.actor ?? admin, options.at ?? DURING, 'cmd-cancel'),
  };
}

export function retractBid(
  bidId: string,
  reason = 'Bidder entered the wrong amount',
  options: { at?: Instant; actor?: Actor } = {},
): Extract<AuctionCommand, { type: 'RetractBid' }> {
  return {
    type: 'RetractBid',
    data: { auctionId: AUCTION_ID, bidId, reason },
    metadata: metadata(options.actor ?? admin, options.at ?? DURING, `cmd-retract-${bidId}`),
  };
}

// ---- auction events: what a decision records, so that a test states only the outcome ---------

type PlaceBidCommand = Extract<AuctionCommand, { type: 'PlaceBid' }>;

/** What an accepted bid led to: the proxies' answers (none unless given) and the standing after them. */
interface BidOutcome {
  readonly autoBids?: AutoBid[];
  readonly standing: Standing;
}

/** A bid `bidderId`'s proxy placed at `amount`, drawing on the maximum of their submission `forBidId`. */
export function autoBid(bidderId: string, amount: number, forBidId: string): AutoBid {
  return { bidderId, amount, forBidId };
}

/** The BidPlaced that accepting `bid` records. */
export function bidPlaced(bid: PlaceBidCommand, { autoBids = [], standing }: BidOutcome): Extract<AuctionEvent, { type: 'BidPlaced' }> {
  const { auctionId, bidId, amount, maximum } = bid.data;
  const data = { auctionId, bidId, bidderId: bid.metadata.actor.userId, amount, maximum, placedAt: bid.metadata.now, autoBids, standing };
  return { type: 'BidPlaced', data, metadata: causedBy(bid) };
}

/** The MaximumBidRaised that the leader's `bid` records; a plain re-bid raises the maximum to its amount. */
export function maximumBidRaised(bid: PlaceBidCommand, outcome: BidOutcome): Extract<AuctionEvent, { type: 'MaximumBidRaised' }> {
  const placed = bidPlaced(bid, outcome);
  return { ...placed, type: 'MaximumBidRaised', data: { ...placed.data, maximum: bid.data.maximum ?? bid.data.amount } };
}

/** The soft-close extension that `bid` triggered. */
export function auctionExtended(
  bid: PlaceBidCommand,
  ends: { previousEndsAt: Instant; endsAt: Instant },
): Extract<AuctionEvent, { type: 'AuctionExtended' }> {
  return { type: 'AuctionExtended', data: { auctionId: AUCTION_ID, ...ends, triggeredByBidId: bid.data.bidId }, metadata: causedBy(bid) };
}

type Closing = Pick<Extract<AuctionEvent, { type: 'AuctionClosed' }>['data'], 'result' | 'winnerId' | 'winningBidId' | 'finalPrice'>;

/** The AuctionClosed that `cause` records: a CloseAuction closes by TIME, a BuyNow by BUY_NOW. */
export function auctionClosed(
  cause: Extract<AuctionCommand, { type: 'CloseAuction' | 'BuyNow' }>,
  closing: Closing,
): Extract<AuctionEvent, { type: 'AuctionClosed' }> {
  const closedBy = cause.type === 'BuyNow' ? 'BUY_NOW' : 'TIME';
  return { type: 'AuctionClosed', data: { auctionId: AUCTION_ID, closedAt: cause.metadata.now, closedBy, ...closing }, metadata: causedBy(cause) };
}

/** The AuctionCancelled that `cancellation` records, with the reason as the auction keeps it. */
export function auctionCancelled(
  cancellation: Extract<AuctionCommand, { type: 'CancelAuction' }>,
  reason: string,
): Extract<AuctionEvent, { type: 'AuctionCancelled' }> {
  return {
    type: 'AuctionCancelled',
    data: { auctionId: AUCTION_ID, reason, cancelledAt: cancellation.metadata.now },
    metadata: causedBy(cancellation),
  };
}

/** The BidRetracted that `retraction` records, with the standing recomputed without the bid. */
export function bidRetracted(
  retraction: Extract<AuctionCommand, { type: 'RetractBid' }>,
  outcome: { bidderId: string; standing: Standing },
): Extract<AuctionEvent, { type: 'BidRetracted' }> {
  const { auctionId, bidId, reason } = retraction.data;
  return { type: 'BidRetracted', data: { auctionId, bidId, reason, ...outcome }, metadata: causedBy(retraction) };
}

// ---- listing ----------------------------------------------------------------------------------

export const LISTING_SLUG = 'tom-brady-super-bowl-lv-jersey';
export const MEDIA_IDS = ['media-front', 'media-back', 'media-tag'];

export const listingDetails: ListingDetails = {
  title: 'Tom Brady Game-Worn Super Bowl LV Jersey',
  description: 'Worn in the first half of Super Bowl LV; photo-matched.',
  category: 'CLOTHING',
  condition: 'GAME_WORN',
  sportType: 'FOOTBALL',
  price: 50_000,
  playerName: 'Tom Brady',
  teamOrClub: 'buccaneers',
  leagueOrEvent: 'NFL',
  dateOrSeason: '2020',
  size: 'l',
  tags: ['WORN', 'SIGNED'],
  jersey: {
    jerseyNumber: 12,
    gameTitle: 'Super Bowl LV',
    gameDate: '2021-02-07',
    opponent: 'chiefs',
    venue: 'Raymond James Stadium',
    stats: { touchdowns: 3, passingYards: 201, completions: 21 },
  },
};

export function listingDrafted(mediaIds: string[] = MEDIA_IDS, listingId = LISTING_ID): ListingEvent {
  return {
    type: 'ListingDrafted',
    data: { listingId, ownerId: admin.userId, slug: LISTING_SLUG, details: listingDetails, mediaIds },
    metadata: eventMetadata(admin, SCHEDULED_AT, 'cmd-draft'),
  };
}

export function listingSaved(listingId = LISTING_ID): ListingEvent {
  return { type: 'ListingSaved', data: { listingId }, metadata: eventMetadata(admin, SCHEDULED_AT, 'cmd-save') };
}

export function listingTagBound(uid: string = TAG_UID, listingId = LISTING_ID): ListingEvent {
  return { type: 'ListingTagBound', data: { listingId, uid }, metadata: eventMetadata(admin, SCHEDULED_AT, 'cmd-bind') };
}

export function listingPublished(auctionId = AUCTION_ID, uid: string = TAG_UID, listingId = LISTING_ID): ListingEvent {
  return { type: 'ListingPublished', data: { listingId, auctionId, nfcUid: uid }, metadata: eventMetadata(admin, SCHEDULED_AT, 'cmd-publish') };
}

/** A listing saved with media: ready for a tag. */
export const savedListing = (listingId = LISTING_ID): ListingEvent[] => [listingDrafted(MEDIA_IDS, listingId), listingSaved(listingId)];
/** A saved listing with the tag bound: ready to publish. */
export const boundListing = (uid: string = TAG_UID, listingId = LISTING_ID): ListingEvent[] => [
  ...savedListing(listingId),
  listingTagBound(uid, listingId),
];
/** A published listing, live in AUCTION_ID. */
export const liveListing = (): ListingEvent[] => [...boundListing(), listingPublished()];

// ---- NFC tag ----------------------------------------------------------------------------------

/** The normalised form of the tag used in these tests. */
export const TAG_UID = '04:A2:B3:C4:D5:E6:F7';
export const OTHER_TAG_UID = '04:11:22:33:44:55:66';

export function nfcTagProvisioned(uid: string = TAG_UID, claimCode: string | null = 'CLAIM-0001'): NfcTagEvent {
  return { type: 'NfcTagProvisioned', data: { uid, claimCode }, metadata: eventMetadata(admin, SCHEDULED_AT, 'cmd-provision') };
}

export function nfcTagBound(listingId = LISTING_ID, uid: string = TAG_UID): NfcTagEvent {
  return { type: 'NfcTagBound', data: { uid, listingId }, metadata: eventMetadata(admin, SCHEDULED_AT, 'cmd-bind') };
}

export function nfcTagUnbound(listingId = LISTING_ID, uid: string = TAG_UID, reason = 'Tag damaged'): NfcTagEvent {
  return { type: 'NfcTagUnbound', data: { uid, listingId, reason }, metadata: eventMetadata(admin, SCHEDULED_AT, 'cmd-unbind') };
}

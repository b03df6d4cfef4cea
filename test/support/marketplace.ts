import { randomBytes, randomUUID } from 'node:crypto';
import { handleListingDraft } from '../../engine/application/listing-drafts';
import { handleListingPublication } from '../../engine/application/listing-publication';
import { handleTagBinding } from '../../engine/application/tag-binding';
import {
  auctionStreamId,
  FLAT_ONE_DOLLAR,
  listingDecider,
  listingStreamId,
  nfcTagDecider,
  nfcTagStreamId,
  slugify,
  type Actor,
  type AuctionRules,
  type CommandMetadata,
  type ListingDetails,
} from '../../engine/domain';
import { readModelsCaughtUpWith } from '../../api/read-after-write';
import type { TestApi } from './api';

/** How far the fixture takes a listing: DRAFT, SAVED and NFC_BOUND stop before publishing. */
export type ListingStage = 'DRAFT' | 'SAVED' | 'NFC_BOUND' | 'LIVE';

export interface MarketplaceListingOptions {
  /** The seller: an ADMIN actor. Default: a new ADMIN account made with api.signUp('ADMIN'). */
  readonly seller?: Actor;
  /** Default LIVE: published, with a scheduled auction. */
  readonly stage?: ListingStage;
  /** false: publish without scheduling the auction, so the listing has no auction to show. */
  readonly scheduleAuction?: boolean;
  /** Every command is decided at this moment. Default: the API's clock. */
  readonly decidedAt?: Date;
  /** Default: decidedAt, so the auction opens at once. */
  readonly startsAt?: Date;
  /** Default: decidedAt + 7 days. Must be after decidedAt (the engine refuses past ends). */
  readonly endsAt?: Date;
  /** Cents, as in the engine; the asking price and, unless `rules` says otherwise, the starting price. Default 5000 ($50.00). */
  readonly price?: number;
  /** Cents, as in the engine. Default: the spec's rules (flat $1 increment, no soft close, no reserve, no buy-now). */
  readonly rules?: Partial<AuctionRules>;
  readonly title?: string;
  readonly description?: string;
  readonly playerName?: string | null;
  readonly teamOrClub?: string | null;
  readonly leagueOrEvent?: string | null;
  readonly dateOrSeason?: string | null;
  readonly size?: string | null;
  readonly category?: ListingDetails['category'];
  readonly condition?: string;
  readonly sportType?: ListingDetails['sportType'];
  readonly tags?: ListingDetails['tags'];
  readonly mediaIds?: string[];
  readonly slug?: string;
  /** Default: a random 7-byte UID. */
  readonly nfcUid?: string;
}

export interface MarketplaceListing {
  readonly listingId: string;
  /** Null when the stage stops before publishing. */
  readonly auctionId: string | null;
  readonly slug: string;
  readonly sellerId: string;
  readonly seller: Actor;
  /** As the engine normalised it ("04:A2:..."); null before binding. */
  readonly nfcUid: string | null;
  readonly mediaIds: readonly string[];
}

/**
 * A listing made the way an admin makes one, through the real engine: drafted with media, saved,
 * bound to a freshly provisioned NFC tag, its auction scheduled, published. Returns once the read
 * models hold it.
 */
export async function createMarketplaceListing(api: Pick<TestApi, 'deps' | 'signUp'>, options: MarketplaceListingOptions = {}): Promise<MarketplaceListing> {
  const { deps } = api;
  const seller = options.seller ?? (await sellerAccount(api));
  const stage = options.stage ?? 'LIVE';
  const decidedAt = options.decidedAt ?? deps.clock();
  const metadata = (): CommandMetadata => ({ actor: seller, now: decidedAt.toISOString(), correlationId: randomUUID(), commandId: randomUUID() });

  const listingId = randomUUID();
  const stream = listingStreamId(listingId);
  const slug = options.slug ?? `${slugify(options.title ?? 'game-worn-jersey')}-${listingId.slice(0, 8)}`;
  const mediaIds = options.mediaIds ?? [`media-${randomUUID()}`, `media-${randomUUID()}`];
  const price = options.price ?? 5_000;
  await handleListingDraft(deps.commands, {
    type: 'DraftListing',
    data: { listingId, slug, details: detailsFrom(options, price), mediaIds, save: stage !== 'DRAFT' },
    metadata: metadata(),
  });
  let nfcUid: string | null = null;
  let auctionId: string | null = null;

  if (stage === 'NFC_BOUND' || stage === 'LIVE') {
    const uid = options.nfcUid ?? randomBytes(7).toString('hex');
    const [provisioned] = await deps.commands
      .handle(nfcTagDecider, nfcTagStreamId(uid), { type: 'ProvisionNfcTag', data: { uid, claimCode: null }, metadata: metadata() })
      .then((handled) => handled.events);
    nfcUid = provisioned!.data.uid;
    await handleTagBinding(deps.commands, { type: 'BindTagToListing', data: { listingId, uid }, metadata: metadata() });
  }
  if (stage === 'LIVE') {
    auctionId = randomUUID();
    if (options.scheduleAuction === false) {
      // Only the listing's own event, as no admin route can: for the "no auction available" answers.
      await deps.commands.handle(listingDecider, stream, { type: 'PublishListing', data: { listingId, auctionId }, metadata: metadata() });
    } else {
      const startsAt = options.startsAt ?? decidedAt;
      const endsAt = options.endsAt ?? new Date(decidedAt.getTime() + 7 * 24 * 60 * 60 * 1000);
      const rules: AuctionRules = {
        currency: 'USD',
        startingPrice: price,
        incrementTable: FLAT_ONE_DOLLAR,
        softClose: null,
        reservePrice: null,
        buyNowPrice: null,
        ...options.rules,
      };
      await handleListingPublication(deps.commands, {
        type: 'PublishListingAtAuction',
        data: { listingId, auctionId, startsAt: startsAt.toISOString(), endsAt: endsAt.toISOString(), rules },
        metadata: metadata(),
      });
    }
  }

  await caughtUpWith(api, stream, ...(auctionId ? [auctionStreamId(auctionId)] : []), ...(nfcUid ? [nfcTagStreamId(nfcUid)] : []));
  return { listingId, auctionId, slug, sellerId: seller.userId, seller, nfcUid, mediaIds };
}

/** Resolves once the read models hold every event of these streams (say, an auction's stream after a bid). */
export function caughtUpWith(api: Pick<TestApi, 'deps'>, ...streamIds: string[]): Promise<void> {
  return readModelsCaughtUpWith(api.deps, ...streamIds);
}

async function sellerAccount(api: Pick<TestApi, 'signUp'>): Promise<Actor> {
  const { user } = await api.signUp('ADMIN');
  return { userId: user.id, roles: user.roles };
}

function detailsFrom(options: MarketplaceListingOptions, price: number): ListingDetails {
  return {
    title: options.title ?? 'Game-Worn Jersey',
    description: options.description ?? 'Worn in a regular-season game; photo-matched.',
    category: options.category ?? 'CLOTHING',
    condition: options.condition ?? 'GAME_WORN',
    sportType: options.sportType ?? 'FOOTBALL',
    price,
    playerName: options.playerName === undefined ? 'Tom Brady' : options.playerName,
    teamOrClub: options.teamOrClub === undefined ? 'buccaneers' : options.teamOrClub,
    leagueOrEvent: options.leagueOrEvent === undefined ? 'NFL' : options.leagueOrEvent,
    dateOrSeason: options.dateOrSeason === undefined ? '2020' : options.dateOrSeason,
    size: options.size === undefined ? 'L' : options.size,
    tags: options.tags ?? ['WORN'],
    jersey: null,
  };
}

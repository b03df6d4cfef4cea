import { randomBytes, randomInt, randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { handleAuctionCommand } from '../../engine/application/auction-commands';
import { handleListingDraft } from '../../engine/application/listing-drafts';
import { handleListingPublication } from '../../engine/application/listing-publication';
import { handleTagBinding } from '../../engine/application/tag-binding';
import { handleTagProvisioning } from '../../engine/application/tag-provisioning';
import {
  commandMetadata,
  EBAY_INCREMENTS,
  FLAT_ONE_DOLLAR,
  fromMillis,
  type Actor,
  type AuctionRules,
  type Instant,
} from '../../engine/domain';
import type { User } from '../accounts/users';
import type { AppDependencies } from '../dependencies';
import { storeMedia } from '../media/storage';
import { DEMO_CATALOGUE, type DemoItem } from './catalogue';
import { DEMO_BIDDERS, demoCredentialsFile, ensureBidder, ensureDemoAccounts, knownDemoAccounts, type DemoAccount } from './demo-accounts';

export interface SeedResult {
  /** False when the store already held listings: nothing was written. */
  readonly seeded: boolean;
  readonly admin: DemoAccount;
  readonly buyer: DemoAccount;
  /** Listings this run created and published (0 when it found the marketplace stocked). */
  readonly listings: number;
  /** Where the demo passwords are remembered. */
  readonly credentialsFile: string;
}

const IMAGES = new URL('./images/', import.meta.url);
const MINUTE_MS = 60_000;

/**
 * Stocks an empty marketplace with the spec's 10 sample listings, through the real engine: demo
 * admin and buyer, media, NFC tags, bindings, published listings, scheduled auctions and a few
 * opening bids. A store that holds any listing already is left alone.
 */
export async function seedDemoMarketplace(deps: AppDependencies, options: { now?: Date } = {}): Promise<SeedResult> {
  const now = options.now ?? deps.clock();
  const credentialsFile = demoCredentialsFile(deps.dataDir);
  await deps.projections.caughtUp();
  const stocked = await deps.db.selectFrom('listings').select('id').limit(1).executeTakeFirst();
  if (stocked) return { seeded: false, ...(await knownDemoAccounts(deps)), listings: 0, credentialsFile };

  const accounts = await ensureDemoAccounts(deps, now);
  const bidders: User[] = [];
  for (const spec of DEMO_BIDDERS) bidders.push(await ensureBidder(deps, spec, now));

  for (const item of DEMO_CATALOGUE) await listItem(deps, item, accounts.adminUser, bidders, now);
  await deps.projections.caughtUp();
  return { seeded: true, admin: accounts.admin, buyer: accounts.buyer, listings: DEMO_CATALOGUE.length, credentialsFile };
}

/** One item from photos to live auction, in the order an admin does it. */
async function listItem(deps: AppDependencies, item: DemoItem, admin: User, bidders: readonly User[], now: Date): Promise<void> {
  const correlationId = randomUUID();
  const seller: Actor = { userId: admin.id, roles: admin.roles };
  const by = (actor: Actor) => commandMetadata(actor, now, { correlationId, commandId: randomUUID() });

  const mediaIds: string[] = [];
  for (const image of item.images) {
    const bytes = await readFile(new URL(image, IMAGES));
    mediaIds.push((await storeMedia(deps, { bytes, contentType: 'image/jpeg', originalFilename: image })).mediaId);
  }

  const listingId = randomUUID();
  await handleListingDraft(deps.commands, {
    type: 'DraftListing',
    data: { listingId, slug: item.slug, details: item.details, mediaIds, save: true },
    metadata: by(seller),
  });

  const uid = demoNfcUid();
  await handleTagProvisioning(deps.commands, {
    type: 'ProvisionNfcTag',
    data: { uid, claimCode: demoClaimCode() },
    metadata: by(seller),
  });
  await handleTagBinding(deps.commands, { type: 'BindTagToListing', data: { listingId, uid }, metadata: by(seller) });

  const auctionId = randomUUID();
  await handleListingPublication(deps.commands, { type: 'PublishListingAtAuction', data: { listingId, auctionId, ...auctionFor(item, now) }, metadata: by(seller) });

  for (const bid of item.openingBids) {
    const bidder = bidders[bid.bidder]!;
    await handleAuctionCommand(deps.commands, {
      type: 'PlaceBid',
      data: { auctionId, bidId: randomUUID(), amount: bid.amount, maximum: bid.maximum ?? null },
      metadata: by({ userId: bidder.id, roles: bidder.roles }),
    });
  }
}

function auctionFor(item: DemoItem, now: Date): { startsAt: Instant; endsAt: Instant; rules: AuctionRules } {
  const plan = item.auction;
  const after = (minutes: number) => fromMillis(now.getTime() + minutes * MINUTE_MS);
  return {
    startsAt: after(plan.startsInMinutes),
    endsAt: after(plan.endsInMinutes),
    rules: {
      currency: 'USD',
      startingPrice: item.details.price,
      incrementTable: plan.increments === 'FLAT_ONE_DOLLAR' ? FLAT_ONE_DOLLAR : EBAY_INCREMENTS,
      softClose: plan.softClose && {
        windowSeconds: plan.softClose.windowSeconds,
        latestEndsAt: after(plan.endsInMinutes + plan.softClose.capMinutes),
      },
      reservePrice: plan.reservePrice,
      buyNowPrice: plan.buyNowPrice,
    },
  };
}

/** A 7-byte UID as NXP's NTAG chips carry them: the manufacturer byte 04, then six more. */
function demoNfcUid(): string {
  return ['04', ...[...randomBytes(6)].map((byte) => byte.toString(16).padStart(2, '0'))].join(':').toUpperCase();
}

/** A claim code as printed on a tag's card: "PRV-" and two groups of four unambiguous characters. */
function demoClaimCode(): string {
  const alphabet = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
  const group = () => Array.from({ length: 4 }, () => alphabet[randomInt(alphabet.length)]).join('');
  return `PRV-${group()}-${group()}`;
}

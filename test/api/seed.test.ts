import { readFile, rm, stat } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyPassword } from '../../api/accounts/passwords';
import { passwordProblem } from '../../api/contracts/account-rules';
import { findUserByEmail } from '../../api/accounts/users';
import { DEMO_CATALOGUE } from '../../api/seed/catalogue';
import { seedDemoMarketplace, type SeedResult } from '../../api/seed/seed';
import { EBAY_INCREMENTS, FLAT_ONE_DOLLAR } from '../../engine/domain';
import { API_BACKENDS, startTestApi, type TestApi } from '../support/api';

const MINUTE = 60_000;

describe.each(API_BACKENDS)('the demo seed on %s', (backend) => {
  let api: TestApi;
  let first: SeedResult;
  // Whole seconds, as instants travel in the log.
  const now = new Date(Math.floor(Date.now() / 1000) * 1000);

  beforeAll(async () => {
    api = await startTestApi(backend);
    first = await seedDemoMarketplace(api.deps, { now });
  }, 120_000);
  afterAll(async () => api.close());

  it('lists the 10 sample listings, published, across every category and sport', async () => {
    expect(first).toMatchObject({ seeded: true, listings: 10 });
    const listings = await api.deps.db.selectFrom('listings').selectAll().execute();
    expect(listings).toHaveLength(10);
    expect(listings.every((listing) => listing.status === 'LIVE')).toBe(true);
    expect(new Set(listings.map((listing) => listing.category))).toEqual(new Set(['CLOTHING', 'EQUIPMENT', 'FOOTWEAR', 'ACCESSORIES']));
    expect(new Set(listings.map((listing) => listing.sport_type))).toEqual(new Set(['FOOTBALL', 'BASKETBALL', 'BASEBALL', 'SOCCER']));
    expect(new Set(listings.map((listing) => listing.slug)).size).toBe(10);
    const admin = await findUserByEmail(api.deps.db, 'admin@provenance.local');
    expect(listings.every((listing) => listing.owner_id === admin!.id)).toBe(true);
    for (const listing of listings.filter((row) => row.category === 'CLOTHING')) {
      expect(listing.jersey).toMatchObject({ jerseyNumber: expect.any(Number), gameDate: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) });
    }
    const prices = listings.map((listing) => Number(listing.asking_price));
    expect(Math.min(...prices)).toBeLessThanOrEqual(20_000);
    expect(Math.max(...prices)).toBeGreaterThanOrEqual(1_500_000);
  });

  it('gives every listing 1 to 3 images that GET /media/{id} serves', async () => {
    const listings = await api.deps.db.selectFrom('listings').select(['slug', 'media_ids']).execute();
    const mediaIds = listings.flatMap((listing) => listing.media_ids);
    expect(listings.every((listing) => listing.media_ids.length >= 1 && listing.media_ids.length <= 3)).toBe(true);
    expect(mediaIds).toHaveLength(DEMO_CATALOGUE.reduce((sum, item) => sum + item.images.length, 0));
    for (const mediaId of mediaIds) {
      const response = await fetch(`${api.url}/media/${mediaId}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('image/jpeg');
      const bytes = Buffer.from(await response.arrayBuffer());
      expect([bytes[0], bytes[1]]).toEqual([0xff, 0xd8]);
      expect(bytes.length).toBeLessThan(80 * 1024);
    }
    // The first image of the first sample is the shipped file, byte for byte.
    const brady = listings.find((listing) => listing.slug === DEMO_CATALOGUE[0]!.slug)!;
    const served = Buffer.from(await (await fetch(`${api.url}/media/${brady.media_ids[0]}`)).arrayBuffer());
    expect(served.equals(await readFile(new URL(`../../api/seed/images/${DEMO_CATALOGUE[0]!.images[0]}`, import.meta.url)))).toBe(true);
  });

  it('binds a provisioned NFC tag to every listing', async () => {
    const listings = await api.deps.db.selectFrom('listings').select(['id', 'nfc_uid']).execute();
    const tags = await api.deps.db.selectFrom('nfc_tags').selectAll().execute();
    expect(tags).toHaveLength(10);
    for (const listing of listings) {
      expect(listing.nfc_uid).toMatch(/^04(:[0-9A-F]{2}){6}$/);
      const tag = tags.find((row) => row.uid === listing.nfc_uid);
      expect(tag).toMatchObject({ status: 'BOUND', listing_id: listing.id, claim_code: expect.stringMatching(/^PRV-[A-Z0-9]{4}-[A-Z0-9]{4}$/) });
    }
  });

  it('schedules an auction per listing: staggered ends, open or starting soon, both rule sets', async () => {
    const auctions = await api.deps.db.selectFrom('auctions').selectAll().execute();
    const listings = await api.deps.db.selectFrom('listings').select(['id', 'auction_id', 'auction_ends_at']).execute();
    expect(auctions).toHaveLength(10);
    for (const listing of listings) {
      const auction = auctions.find((row) => row.id === listing.auction_id);
      expect(auction?.listing_id).toBe(listing.id);
      expect(new Date(listing.auction_ends_at!).getTime()).toBe(new Date(auction!.ends_at).getTime());
    }

    const minutesToEnd = auctions.map((auction) => (new Date(auction.ends_at).getTime() - now.getTime()) / MINUTE).sort((a, b) => a - b);
    expect(minutesToEnd).toEqual([12, 45, 120, 360, 1_440, 2_880, 4_320, 5_760, 7_200, 10_080]);

    const pending = auctions.filter((auction) => auction.status === 'PENDING');
    expect(auctions.filter((auction) => auction.status === 'ACTIVE')).toHaveLength(8);
    expect(pending).toHaveLength(2);
    expect(pending.every((auction) => new Date(auction.starts_at).getTime() > now.getTime())).toBe(true);

    const spec = auctions.filter((auction) => JSON.stringify(auction.increment_table) === JSON.stringify(FLAT_ONE_DOLLAR));
    const ebay = auctions.filter((auction) => JSON.stringify(auction.increment_table) === JSON.stringify(EBAY_INCREMENTS));
    expect(spec.length + ebay.length).toBe(10);
    expect(spec.length).toBeGreaterThan(0);
    expect(spec.every((auction) => auction.soft_close === null && auction.reserve_price === null && auction.buy_now_price === null)).toBe(true);
    expect(ebay.every((auction) => auction.soft_close !== null)).toBe(true);
    for (const auction of ebay) {
      const { windowSeconds, latestEndsAt } = auction.soft_close!;
      expect([180, 900]).toContain(windowSeconds);
      expect(new Date(latestEndsAt).getTime()).toBeGreaterThan(new Date(auction.ends_at).getTime());
    }
    expect(auctions.filter((auction) => auction.reserve_price !== null).length).toBeGreaterThanOrEqual(1);
    expect(auctions.filter((auction) => auction.buy_now_available)).toHaveLength(1);
  });

  it('opens some auctions with bids from two seeded bidders, neither the demo buyer nor the seller', async () => {
    const bids = await api.deps.db.selectFrom('bids').selectAll().execute();
    const admin = await findUserByEmail(api.deps.db, 'admin@provenance.local');
    const buyer = await findUserByEmail(api.deps.db, 'buyer@provenance.local');
    const bidders = new Set(bids.map((bid) => bid.bidder_id));
    expect(bidders.size).toBe(2);
    expect(bidders.has(admin!.id)).toBe(false);
    expect(bidders.has(buyer!.id)).toBe(false);
    // The proxy bid on the match ball answered the later, lower bid by itself.
    expect(bids.some((bid) => bid.kind === 'AUTO')).toBe(true);

    const auctions = await api.deps.db.selectFrom('auctions').selectAll().execute();
    const withBids = auctions.filter((auction) => auction.bid_count > 0);
    expect(withBids.length).toBeGreaterThanOrEqual(5);
    expect(withBids.every((auction) => auction.status === 'ACTIVE' && Number(auction.current_price) > Number(auction.starting_price))).toBe(true);
  });

  it('creates the demo admin and buyer with strong random passwords that verify, remembered in a private file', async () => {
    expect(first.admin.email).toBe('admin@provenance.local');
    expect(first.buyer.email).toBe('buyer@provenance.local');
    expect(first.admin.password).not.toBe(first.buyer.password);
    for (const [account, roles] of [
      [first.admin, ['ADMIN', 'BUYER']],
      [first.buyer, ['BUYER']],
    ] as const) {
      expect(passwordProblem(account.password!)).toBeNull();
      const user = await findUserByEmail(api.deps.db, account.email);
      expect(user?.roles).toEqual(roles);
      expect(await verifyPassword(user!.password_hash, account.password!)).toBe(true);
    }
    const file = await stat(first.credentialsFile);
    expect(file.mode & 0o777).toBe(0o600);
    expect(JSON.parse(await readFile(first.credentialsFile, 'utf8'))).toEqual({
      admin: { email: first.admin.email, password: first.admin.password },
      buyer: { email: first.buyer.email, password: first.buyer.password },
    });
  });

  it('does nothing the second time and returns the same credentials', async () => {
    const mediaBefore = await api.deps.db.selectFrom('media').select('id').execute();
    const again = await seedDemoMarketplace(api.deps);
    expect(again).toEqual({ ...first, seeded: false, listings: 0 });
    expect(await api.deps.db.selectFrom('listings').select('id').execute()).toHaveLength(10);
    expect(await api.deps.db.selectFrom('auctions').select('id').execute()).toHaveLength(10);
    expect(await api.deps.db.selectFrom('media').select('id').execute()).toHaveLength(mediaBefore.length);
  });

  it('still names the demo accounts when the credentials file is gone, without a password', async () => {
    await rm(first.credentialsFile);
    const again = await seedDemoMarketplace(api.deps);
    expect(again).toMatchObject({
      seeded: false,
      admin: { email: 'admin@provenance.local', password: null },
      buyer: { email: 'buyer@provenance.local', password: null },
    });
  });
});

describe('the demo seed on a store that already has listings of its own', () => {
  it('leaves it alone', async () => {
    const api = await startTestApi('PGlite');
    try {
      await seedDemoMarketplace(api.deps);
      // A second API on the same database, with its own DATA_DIR: the store is what counts.
      const second = await startTestApi('PGlite', { sharing: api });
      try {
        const result = await seedDemoMarketplace(second.deps);
        expect(result).toMatchObject({ seeded: false, listings: 0, admin: { password: null }, buyer: { password: null } });
        expect(await second.deps.db.selectFrom('listings').select('id').execute()).toHaveLength(10);
      } finally {
        await second.close();
      }
    } finally {
      await api.close();
    }
  }, 120_000);
});

import { randomUUID } from 'node:crypto';
import { CompiledQuery, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../api/database';
import { listingSearchQueries, type ListingSearch } from '../../api/listings/queries';
import { auctionStreamId, EBAY_INCREMENTS, listingDecider, listingStreamId } from '../../engine/domain';
import { createKysely } from '../../engine/postgres/kysely-dialect';
import { fillListings } from '../../scripts/bench/listings-fixture';
import { CHIPS, SORTS, toListingsRequest } from '../../web/src/features/marketplace/marketplace-query';
import { API_BACKENDS, startTestApi, type TestApi } from '../support/api';
import { caughtUpWith, createMarketplaceListing, type MarketplaceListingOptions } from '../support/marketplace';
import { createTestSchema, TEST_DATABASE_URL } from '../support/postgres';

const HOUR = 60 * 60 * 1000;

/** A word no other test's listing contains: searching for it scopes a query to one test's listings. */
function uniqueWord(): string {
  return `w${randomUUID().replace(/-/g, '').slice(0, 12)}`;
}

describe.each(API_BACKENDS)('public listings on %s', (backend) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startTestApi(backend);
  });
  afterAll(async () => api.close());

  const listing = (options: MarketplaceListingOptions = {}) => createMarketplaceListing(api, options);
  const list = (query: string) => api.call('GET', `/api/public/listings?${query}`);

  it('documents its routes in the OpenAPI description, ending soonest included', async () => {
    const { body } = await api.call('GET', '/docs/json');
    for (const path of ['/api/public/listings', '/api/public/listings/{slugOrId}', '/api/public/listings/{slugOrId}/auction', '/api/public/listings/{slugOrId}/auction/status']) {
      expect(body.paths, path).toHaveProperty([path, 'get']);
    }
    const sort = body.paths['/api/public/listings'].get.parameters.find((parameter: { name: string }) => parameter.name === 'sort');
    expect(sort.description).toContain('endsAt,asc');
  });

  describe('GET /api/public/listings', () => {
    it('pages: content, totalElements, totalPages, number, size, first, last', async () => {
      const word = uniqueWord();
      for (let i = 0; i < 5; i++) await listing({ teamOrClub: `${word} FC` });

      const first = await list(`search=${word}&size=2`);
      expect(first.status).toBe(200);
      expect(first.body).toMatchObject({ totalElements: 5, totalPages: 3, number: 0, size: 2, first: true, last: false });
      expect(first.body.content).toHaveLength(2);

      const middle = await list(`search=${word}&size=2&page=1`);
      expect(middle.body).toMatchObject({ number: 1, first: false, last: false });

      const lastPage = await list(`search=${word}&size=2&page=2`);
      expect(lastPage.body).toMatchObject({ number: 2, first: false, last: true });
      expect(lastPage.body.content).toHaveLength(1);

      const ids = [...first.body.content, ...middle.body.content, ...lastPage.body.content].map((item: { id: string }) => item.id);
      expect(new Set(ids).size).toBe(5);

      const beyond = await list(`search=${word}&size=2&page=7`);
      expect(beyond.body).toMatchObject({ content: [], totalElements: 5, totalPages: 3, number: 7, last: true });

      const none = await list(`search=${uniqueWord()}`);
      expect(none.body).toEqual({ content: [], totalElements: 0, totalPages: 0, number: 0, size: 20, first: true, last: true });
    });

    it('defaults to page 0 of 20 and caps the page size at 100', async () => {
      const defaults = await list('');
      expect(defaults.status).toBe(200);
      expect(defaults.body).toMatchObject({ number: 0, size: 20 });

      expect((await list('size=100')).status).toBe(200);
      const tooBig = await list('size=101');
      expect(tooBig.status).toBe(400);
      expect(tooBig.body).toMatchObject({ statusCode: 400, error: 'Bad Request', code: 'VALIDATION_FAILED' });
      expect(tooBig.body.message).toContain('querystring.size');
    });

    it('refuses malformed paging with 400 naming the parameter', async () => {
      for (const [query, field] of [
        ['page=-1', 'querystring.page'],
        ['page=first', 'querystring.page'],
        ['size=0', 'querystring.size'],
        ['size=2.5', 'querystring.size'],
        ['status=DRAFT', 'querystring.status'],
        ['search=a%00b', 'querystring.search'],
        [`search=${'x'.repeat(201)}`, 'querystring.search'],
      ] as const) {
        const response = await list(query);
        expect(response.status, query).toBe(400);
        expect(response.body.message, query).toContain(field);
      }
    });

    it('searches player, team, title and description, case-insensitively, for text they contain', async () => {
      const word = uniqueWord();
      const byPlayer = await listing({ playerName: `Player${word}Smith` });
      const byTeam = await listing({ teamOrClub: `Team ${word}` });
      const byTitle = await listing({ title: `Signed ${word} Helmet` });
      const byDescription = await listing({ description: `Worn during the ${word} derby.` });
      await listing({ title: 'Unrelated Cleats' });

      const found = await list(`search=${word.toUpperCase()}&size=100`);
      expect(found.status).toBe(200);
      const ids = found.body.content.map((item: { id: string }) => item.id);
      expect(ids.sort()).toEqual([byPlayer.listingId, byTeam.listingId, byTitle.listingId, byDescription.listingId].sort());

      const mixedCase = await list(`search=${encodeURIComponent(`TEAM ${word.slice(0, 6)}`)}`);
      expect(mixedCase.body.content.map((item: { id: string }) => item.id)).toEqual([byTeam.listingId]);
    });

    it('takes %, _ and \\ in a search literally', async () => {
      const word = uniqueWord();
      const percent = await listing({ title: `${word} 100% authentic` });
      await listing({ title: `${word} 1000 authentic` });
      const underscore = await listing({ title: `${word} a_b` });
      await listing({ title: `${word} axb` });

      const byPercent = await list(`search=${encodeURIComponent('100%')}%20authentic&size=100`);
      expect(byPercent.body.content.map((item: { id: string }) => item.id)).toEqual([percent.listingId]);
      const byUnderscore = await list(`search=${encodeURIComponent(`${word} a_b`)}`);
      expect(byUnderscore.body.content.map((item: { id: string }) => item.id)).toEqual([underscore.listingId]);
      const byBackslash = await list(`search=${encodeURIComponent(`${word}\\`)}`);
      expect(byBackslash.body.totalElements).toBe(0);
    });

    it('filters by category, and refuses an unknown category with 400 naming it', async () => {
      const word = uniqueWord();
      const equipment = await listing({ title: `${word} bat`, category: 'EQUIPMENT' });
      const footwear = await listing({ title: `${word} cleats`, category: 'FOOTWEAR' });
      await listing({ title: `${word} jersey`, category: 'CLOTHING' });

      const onlyEquipment = await list(`search=${word}&category=EQUIPMENT`);
      expect(onlyEquipment.body.content.map((item: { id: string }) => item.id)).toEqual([equipment.listingId]);
      expect(onlyEquipment.body.content[0].category).toBe('EQUIPMENT');
      const onlyFootwear = await list(`search=${word}&category=FOOTWEAR`);
      expect(onlyFootwear.body.content.map((item: { id: string }) => item.id)).toEqual([footwear.listingId]);
      expect((await list(`search=${word}&category=ACCESSORIES`)).body.totalElements).toBe(0);

      const unknown = await list('category=SHOES');
      expect(unknown.status).toBe(400);
      expect(unknown.body.message).toContain('querystring.category');
    });

    describe('sorting', () => {
      const word = uniqueWord();
      let ids: { old: string; middle: string; recent: string; noAuction: string };

      beforeAll(async () => {
        const now = api.deps.clock().getTime();
        const old = await listing({ title: `B ${word}`, price: 3_000, decidedAt: new Date(now - 3 * HOUR), endsAt: new Date(now + 48 * HOUR) });
        const middle = await listing({ title: `C ${word}`, price: 1_000, decidedAt: new Date(now - 2 * HOUR), endsAt: new Date(now + 2 * HOUR) });
        const recent = await listing({ title: `A ${word}`, price: 2_000, decidedAt: new Date(now - 1 * HOUR), endsAt: new Date(now + 24 * HOUR) });
        const noAuction = await listing({ title: `D ${word}`, price: 4_000, decidedAt: new Date(now - 4 * HOUR), scheduleAuction: false });
        ids = { old: old.listingId, middle: middle.listingId, recent: recent.listingId, noAuction: noAuction.listingId };
      });

      const order = async (sort: string | null) => {
        const response = await list(`search=${word}${sort === null ? '' : `&sort=${sort}`}`);
        expect(response.status, String(sort)).toBe(200);
        return response.body.content.map((item: { id: string }) => item.id);
      };

      it('newest first by default (createdAt,desc)', async () => {
        expect(await order(null)).toEqual([ids.recent, ids.middle, ids.old, ids.noAuction]);
        expect(await order('createdAt,desc')).toEqual([ids.recent, ids.middle, ids.old, ids.noAuction]);
        expect(await order('createdAt,asc')).toEqual([ids.noAuction, ids.old, ids.middle, ids.recent]);
      });

      it('by price and by title, either way', async () => {
        expect(await order('price,asc')).toEqual([ids.middle, ids.recent, ids.old, ids.noAuction]);
        expect(await order('price,desc')).toEqual([ids.noAuction, ids.old, ids.recent, ids.middle]);
        expect(await order('title,asc')).toEqual([ids.recent, ids.old, ids.middle, ids.noAuction]);
        expect(await order('title,DESC')).toEqual([ids.noAuction, ids.middle, ids.old, ids.recent]);
        expect(await order('title')).toEqual([ids.recent, ids.old, ids.middle, ids.noAuction]);
      });

      it('ending soonest with endsAt,asc; listings without an auction last', async () => {
        expect(await order('endsAt,asc')).toEqual([ids.middle, ids.recent, ids.old, ids.noAuction]);
      });

      it('refuses an unknown field or direction with 400 naming sort', async () => {
        for (const sort of ['popularity,asc', 'price,up', 'price,asc,title', 'createdat,desc', '']) {
          const response = await list(`sort=${sort}`);
          expect(response.status, sort).toBe(400);
          expect(response.body.message, sort).toContain('querystring.sort');
        }
      });
    });

    it('never shows drafts, saved, NFC-bound or withdrawn listings', async () => {
      const word = uniqueWord();
      const hidden = await Promise.all(
        (['DRAFT', 'SAVED', 'NFC_BOUND'] as const).map((stage) => listing({ title: `${word} ${stage}`, stage })),
      );
      const withdrawn = await listing({ title: `${word} withdrawn` });
      const seller = withdrawn.seller;
      await api.deps.commands.handle(listingDecider, listingStreamId(withdrawn.listingId), {
        type: 'WithdrawListing',
        data: { listingId: withdrawn.listingId, reason: 'Consignor changed their mind' },
        metadata: { actor: seller, now: api.deps.clock().toISOString(), correlationId: randomUUID(), commandId: randomUUID() },
      });
      const live = await listing({ title: `${word} live` });
      await caughtUpWith(api, listingStreamId(withdrawn.listingId));

      const found = await list(`search=${word}&size=100`);
      expect(found.body.content.map((item: { id: string }) => item.id)).toEqual([live.listingId]);
      for (const item of [...hidden, withdrawn]) {
        expect((await api.call('GET', `/api/public/listings/${item.slug}`)).status).toBe(404);
        expect((await api.call('GET', `/api/public/listings/${item.listingId}`)).status).toBe(404);
      }
    });
  });

  describe('GET /api/public/listings?tag= (the Signed chip)', () => {
    const word = uniqueWord();
    let ids: { signed: string; autographed: string; worn: string; goals: string; plain: string; signedBat: string };

    beforeAll(async () => {
      const signed = await listing({ title: `${word} signed jersey`, tags: ['SIGNED', 'WORN'] });
      const autographed = await listing({ title: `${word} autographed ball`, tags: ['AUTOGRAPHED'], category: 'ACCESSORIES' });
      const worn = await listing({ title: `${word} worn jersey`, tags: ['WORN'] });
      const goals = await listing({ title: `${word} match shirt`, tags: ['2 GOALS'] });
      const plain = await listing({ title: `${word} plain cap`, tags: [] });
      const signedBat = await listing({ title: `${word} signed bat`, tags: ['SIGNED'], category: 'EQUIPMENT' });
      ids = { signed: signed.listingId, autographed: autographed.listingId, worn: worn.listingId, goals: goals.listingId, plain: plain.listingId, signedBat: signedBat.listingId };
    });

    const found = async (query: string) => {
      const response = await list(`search=${word}&size=100&${query}`);
      expect(response.status, query).toBe(200);
      return response.body.content.map((item: { id: string }) => item.id).sort();
    };

    it('tag=SIGNED finds listings tagged SIGNED or AUTOGRAPHED, and AUTOGRAPHED finds the same', async () => {
      const signedOrAutographed = [ids.signed, ids.autographed, ids.signedBat].sort();
      expect(await found('tag=SIGNED')).toEqual(signedOrAutographed);
      expect(await found('tag=AUTOGRAPHED')).toEqual(signedOrAutographed);
      const response = await list(`search=${word}&tag=SIGNED`);
      expect(response.body.totalElements).toBe(3);
    });

    it('a repeated tag matches any of them; a tag with a space is taken whole', async () => {
      expect(await found('tag=WORN')).toEqual([ids.signed, ids.worn].sort());
      expect(await found('tag=WORN&tag=2%20GOALS')).toEqual([ids.signed, ids.worn, ids.goals].sort());
      expect(await found('tag=2+GOALS')).toEqual([ids.goals]);
      expect(await found('tag=MVP')).toEqual([]);
      expect(await found('')).toHaveLength(6);
    });

    it('combines with category and paging', async () => {
      expect(await found('tag=SIGNED&category=EQUIPMENT')).toEqual([ids.signedBat]);
      const page = await list(`search=${word}&tag=SIGNED&size=2&page=1`);
      expect(page.body).toMatchObject({ totalElements: 3, totalPages: 2, number: 1, last: true });
      expect(page.body.content).toHaveLength(1);
    });

    it('refuses an unknown tag with 400 naming tag, and documents the parameter', async () => {
      for (const query of ['tag=SIGNATURE', 'tag=SIGNED&tag=signed', 'tag=']) {
        const response = await list(query);
        expect(response.status, query).toBe(400);
        expect(response.body.message, query).toContain('querystring.tag');
      }
      const { body } = await api.call('GET', '/docs/json');
      const tag = body.paths['/api/public/listings'].get.parameters.find((parameter: { name: string }) => parameter.name === 'tag');
      expect(tag.description).toContain('AUTOGRAPHED');
    });
  });

  describe('GET /api/public/listings/{slugOrId}', () => {
    it('finds a listing by slug or by id, with every field of the spec', async () => {
      const word = uniqueWord();
      const created = await listing({
        title: `Brady ${word} Jersey`,
        description: 'Photo-matched to the AFC Championship.',
        playerName: 'Tom Brady',
        teamOrClub: 'patriots',
        leagueOrEvent: 'NFL',
        dateOrSeason: '2017',
        size: 'XL',
        tags: ['WORN', 'PLAYOFF_GAME'],
        sportType: 'FOOTBALL',
        condition: 'GAME_WORN',
        price: 123_450,
        mediaIds: ['front.jpg', 'back view.png'],
      });

      const bySlug = await api.call('GET', `/api/public/listings/${created.slug}`);
      expect(bySlug.status).toBe(200);
      expect(bySlug.body).toEqual({
        id: created.listingId,
        ownerId: created.sellerId,
        title: `Brady ${word} Jersey`,
        description: 'Photo-matched to the AFC Championship.',
        price: '1234.50',
        category: 'CLOTHING',
        condition: 'GAME_WORN',
        sportType: 'FOOTBALL',
        mediaUrls: ['/media/front.jpg', '/media/back%20view.png'],
        status: 'LIVE',
        slug: created.slug,
        nfcUid: created.nfcUid,
        createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        updatedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        playerName: 'Tom Brady',
        teamOrClub: 'patriots',
        leagueOrEvent: 'NFL',
        dateOrSeason: '2017',
        size: 'XL',
        tags: ['WORN', 'PLAYOFF_GAME'],
        jersey: null,
        auctionId: created.auctionId,
        endsAt: expect.stringMatching(/Z$/),
      });
      expect(created.nfcUid).toMatch(/^([0-9A-F]{2}:){6}[0-9A-F]{2}$/);

      const byId = await api.call('GET', `/api/public/listings/${created.listingId}`);
      expect(byId.status).toBe(200);
      expect(byId.body).toEqual(bySlug.body);

      const inList = await list(`search=${word}`);
      expect(inList.body.content).toEqual([bySlug.body]);
    });

    it('answers 404 "Listing not found" for an unknown slug or id', async () => {
      for (const slugOrId of ['no-such-jersey', randomUUID(), 'Not A Slug!']) {
        const response = await api.call('GET', `/api/public/listings/${encodeURIComponent(slugOrId)}`);
        expect(response.status, slugOrId).toBe(404);
        expect(response.body).toEqual({ statusCode: 404, error: 'Not Found', message: 'Listing not found', code: 'LISTING_NOT_FOUND' });
      }
      for (const path of ['/api/public/listings/a%00b', '/api/public/listings/a%00b/auction']) {
        const response = await api.call('GET', path);
        expect(response.status, path).toBe(400);
        expect(response.body.message).toContain('params.slugOrId');
      }
    });
  });

  describe('GET /api/public/listings/{id}/auction', () => {
    it('shows the auction with its rules in dollars; minimumBid follows the increment table', async () => {
      const now = api.deps.clock();
      const endsAt = new Date(now.getTime() + 24 * HOUR);
      const latestEndsAt = new Date(now.getTime() + 25 * HOUR).toISOString();
      const created = await listing({
        decidedAt: now,
        price: 2_400,
        endsAt,
        rules: { incrementTable: EBAY_INCREMENTS, softClose: { windowSeconds: 180, latestEndsAt }, buyNowPrice: 50_000 },
      });

      const response = await api.call('GET', `/api/public/listings/${created.listingId}/auction`);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        auctionId: created.auctionId,
        listingId: created.listingId,
        status: 'ACTIVE',
        isActive: true,
        startsAt: now.toISOString(),
        endsAt: endsAt.toISOString(),
        currentPrice: 24,
        currentLeaderId: null,
        // $24.00 is in eBay's $5.00-$24.99 band: the next bid adds at least $0.50.
        minimumBid: 24.5,
        bidCount: 0,
        reserveMet: null,
        buyNowPrice: 500,
        buyNowAvailable: true,
        incrementTable: EBAY_INCREMENTS.map((band) => ({ from: band.from / 100, increment: band.increment / 100 })),
        softClose: { windowSeconds: 180, latestEndsAt },
        buyersPremiumPercent: 0, // scheduled without after-sale terms (as before they existed): no premium
        paymentWindowHours: 168,
        result: null,
        winnerId: null,
        finalPrice: null,
        // Scheduled and opened: the auction's stream holds two events.
        version: 2,
      });

      const bySlug = await api.call('GET', `/api/public/listings/${created.slug}/auction`);
      expect(bySlug.body).toEqual(response.body);
    });

    it('shows reserveMet false, then true once a bid reaches the reserve; never the leader\'s maximum', async () => {
      const created = await listing({ price: 5_000, rules: { reservePrice: 10_000 } });
      const before = await api.call('GET', `/api/public/listings/${created.listingId}/auction`);
      expect(before.body).toMatchObject({ reserveMet: false, currentPrice: 50, minimumBid: 51 });

      const buyer = await api.signUp('BUYER');
      const bid = await api.call('POST', '/api/bids', { token: buyer.tokens.accessToken, body: { auctionId: created.auctionId, amount: 60, maxAmount: 437 } });
      expect(bid.status).toBe(201);
      await caughtUpWith(api, auctionStreamId(created.auctionId!));

      const after = await api.call('GET', `/api/public/listings/${created.listingId}/auction`);
      // A maximum that meets the reserve lifts the price to the reserve at once.
      expect(after.body).toMatchObject({ reserveMet: true, currentPrice: 100, minimumBid: 101, currentLeaderId: buyer.user.id, bidCount: 1 });
      expect(JSON.stringify(after.body)).not.toMatch(/:437\b/);
      const listed = await api.call('GET', `/api/public/listings/${created.listingId}`);
      expect(listed.body.price).toBe('100.00');
    });

    it('shows a scheduled auction as PENDING and not active until it starts', async () => {
      const now = api.deps.clock().getTime();
      const created = await listing({ startsAt: new Date(now + HOUR), endsAt: new Date(now + 2 * HOUR) });
      const response = await api.call('GET', `/api/public/listings/${created.listingId}/auction`);
      expect(response.body).toMatchObject({ status: 'PENDING', isActive: false, buyNowAvailable: false });
    });

    it('answers the polling status with the live figures only', async () => {
      const created = await listing({ price: 7_500 });
      const response = await api.call('GET', `/api/public/listings/${created.listingId}/auction/status`);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        auctionId: created.auctionId,
        status: 'ACTIVE',
        isActive: true,
        endsAt: expect.stringMatching(/Z$/),
        currentPrice: 75,
        currentLeaderId: null,
        minimumBid: 76,
        version: 2,
      });
    });

    it('answers 404 "No auction available for this item" when the listing has no auction', async () => {
      const created = await listing({ scheduleAuction: false });
      for (const path of [`/api/public/listings/${created.listingId}/auction`, `/api/public/listings/${created.slug}/auction/status`]) {
        const response = await api.call('GET', path);
        expect(response.status, path).toBe(404);
        expect(response.body).toEqual({ statusCode: 404, error: 'Not Found', message: 'No auction available for this item', code: 'NO_AUCTION' });
      }
      const unknown = await api.call('GET', `/api/public/listings/${randomUUID()}/auction`);
      expect(unknown.status).toBe(404);
      expect(unknown.body.message).toBe('Listing not found');
      const draft = await listing({ stage: 'NFC_BOUND' });
      expect((await api.call('GET', `/api/public/listings/${draft.listingId}/auction`)).body.message).toBe('Listing not found');
    });
  });
});

describe.skipIf(!TEST_DATABASE_URL)('the marketplace at 20,000 listings on PostgreSQL', () => {
  let schema: Awaited<ReturnType<typeof createTestSchema>>;
  let db: Kysely<Database>;
  beforeAll(async () => {
    schema = await createTestSchema(TEST_DATABASE_URL!);
    await fillListings(TEST_DATABASE_URL!, schema.schema, 20_000);
    db = createKysely<Database>(schema.client());
  }, 60_000);
  afterAll(async () => schema.drop());

  /** What the marketplace asks for: each chip with each sort (Ending Soon decides its own), as the web app maps them. */
  const marketplaceSearches = CHIPS.flatMap((chip) =>
    ('sort' in chip ? [chip.sort] : SORTS.map((sort) => sort.id)).map((sort) => {
      const request = toListingsRequest({ search: '', chip: chip.id, sort });
      const [field, direction] = request.sort.split(',') as [ListingSearch['sort']['field'], 'asc' | 'desc'];
      const criteria: ListingSearch = {
        page: 0,
        size: 20,
        status: 'LIVE',
        search: undefined,
        category: request.category ?? undefined,
        tags: request.tag ? [request.tag] : undefined,
        sort: { field, direction },
      };
      return { name: `chip ${chip.id}, sort ${request.sort}`, criteria };
    }),
  );

  const planOf = async (query: { compile(): CompiledQuery }) => {
    const compiled = query.compile();
    const { rows } = await db.executeQuery<Record<string, string>>(CompiledQuery.raw(`EXPLAIN ${compiled.sql}`, [...compiled.parameters]));
    return rows.map((row) => Object.values(row)[0]).join('\n');
  };

  it('reads each chip and sort off an index in its order, never sorting, and counts from an index alone', async () => {
    for (const { name, criteria } of marketplaceSearches) {
      const { page, count } = listingSearchQueries(db, criteria);
      const pagePlan = await planOf(page);
      expect(pagePlan, name).toMatch(/Index Scan( Backward)? using listings_(status|category|signed)_/);
      expect(pagePlan, name).not.toMatch(/Sort|Seq Scan|Filter/);
      expect(await planOf(count), name).toMatch(/Index Only Scan using listings_(status|category|signed)_/);
    }
  });

  it('finds a search through the trigram index', async () => {
    const { count } = listingSearchQueries(db, { ...marketplaceSearches[0]!.criteria, search: 'jordan' });
    expect(await planOf(count)).toMatch(/Bitmap Index Scan on listings_search/);
  });
});

import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeMedia } from '../../api/media/storage';
import { auctionStreamId, listingStreamId, nfcTagDecider, nfcTagStreamId } from '../../engine/domain';
import { API_BACKENDS, startTestApi, type TestApi } from '../support/api';
import { createMarketplaceListing } from '../support/marketplace';

const JPEG = await readFile(new URL('../../api/seed/images/salah-ball.jpg', import.meta.url));

const JERSEY = {
  playerName: 'Tom Brady',
  jerseyNumber: 12,
  team: 'buccaneers',
  size: 'xl',
  condition: 'like-new',
  gameTitle: 'Super Bowl LV',
  gameDate: '2021-02-07',
  opponent: 'Kansas City Chiefs',
  venue: 'Raymond James Stadium',
  stats: { touchdowns: 3, passingYards: 201, completions: 21 },
  description: 'Worn for the whole game; photo-matched.',
  price: 250,
};

describe.each(API_BACKENDS)('admin listings on %s', (backend) => {
  let api: TestApi;
  let admin: string;
  let adminId: string;
  let buyer: string;

  beforeAll(async () => {
    api = await startTestApi(backend);
    const signedIn = await api.signUp('ADMIN');
    admin = signedIn.tokens.accessToken;
    adminId = signedIn.user.id;
    buyer = (await api.signUp('BUYER')).tokens.accessToken;
  });
  afterAll(async () => api.close());

  const uploadedMedia = async () => (await storeMedia(api.deps, { bytes: JPEG, contentType: 'image/jpeg' })).mediaId;
  async function provisionedTag(): Promise<string> {
    const uid = `04:${[...crypto.getRandomValues(new Uint8Array(6))].map((byte) => byte.toString(16).padStart(2, '0')).join(':')}`;
    const metadata = { actor: { userId: adminId, roles: ['ADMIN' as const] }, now: api.deps.clock().toISOString(), correlationId: crypto.randomUUID(), commandId: crypto.randomUUID() };
    await api.deps.commands.handle(nfcTagDecider, nfcTagStreamId(uid), { type: 'ProvisionNfcTag', data: { uid, claimCode: null }, metadata });
    return uid.toUpperCase();
  }

  describe('admin sign-in', () => {
    it('answers an admin a session of 3600 s; a buyer 403 "This account does not have admin access"; a wrong password 401', async () => {
      const { user, password } = await api.signUp('ADMIN');
      const signedIn = await api.call('POST', '/api/admin/auth/login', { body: { email: user.email, password } });
      expect(signedIn.status).toBe(200);
      expect(signedIn.body).toEqual({ accessToken: expect.any(String), refreshToken: expect.any(String), expiresIn: 3600 });
      expect((await api.call('GET', '/api/admin/listings', { token: signedIn.body.accessToken })).status).toBe(200);

      const buyerAccount = await api.signUp('BUYER');
      const refused = await api.call('POST', '/api/admin/auth/login', { body: { email: buyerAccount.user.email, password: buyerAccount.password } });
      expect(refused.status).toBe(403);
      expect(refused.body.message).toBe('This account does not have admin access');

      const wrong = await api.call('POST', '/api/admin/auth/login', { body: { email: user.email, password: 'Wrong!Passw0rd' } });
      expect(wrong.status).toBe(401);
      expect(wrong.body.message).toBe('Invalid email or password');
      expect((await api.call('POST', '/api/admin/auth/login', { body: { email: '', password: 'x' } })).body.message).toBe('Email is required');
    });

    it('signs out one session with its refresh token, or every session without one', async () => {
      const { user, password } = await api.signUp('ADMIN');
      const first = (await api.call('POST', '/api/admin/auth/login', { body: { email: user.email, password } })).body;
      const second = (await api.call('POST', '/api/admin/auth/login', { body: { email: user.email, password } })).body;

      expect((await api.call('POST', '/api/admin/auth/logout', { token: first.accessToken, body: { refreshToken: first.refreshToken } })).status).toBe(204);
      expect((await api.call('POST', '/api/auth/refresh', { body: { refreshToken: first.refreshToken } })).status).toBe(401);
      expect((await api.call('POST', '/api/auth/refresh', { body: { refreshToken: second.refreshToken } })).status).toBe(200);

      expect((await api.call('POST', '/api/admin/auth/logout', { token: second.accessToken })).status).toBe(204);
      expect((await api.call('GET', '/api/admin/listings', { token: second.accessToken })).status).toBe(401);
      expect((await api.call('POST', '/api/admin/auth/logout', {})).status).toBe(401);
      expect((await api.call('POST', '/api/admin/auth/logout', { token: buyer })).status).toBe(403);
    });

    it("cannot end another user's session with their refresh token", async () => {
      const victim = await api.signUp('BUYER');
      expect((await api.call('POST', '/api/admin/auth/logout', { token: admin, body: { refreshToken: victim.tokens.refreshToken } })).status).toBe(204);
      expect((await api.call('POST', '/api/auth/refresh', { body: { refreshToken: victim.tokens.refreshToken } })).status).toBe(200);
    });
  });

  describe('POST /api/admin/jerseys', () => {
    it('creates a saved listing from the jersey form, recorded as events, with a readable unique slug', async () => {
      const mediaId = await uploadedMedia();
      const created = await api.call('POST', '/api/admin/jerseys', { token: admin, body: { ...JERSEY, mediaIds: [mediaId] } });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({
        status: 'SAVED',
        title: 'Tom Brady #12 Buccaneers Jersey',
        slug: 'tom-brady-12-buccaneers-jersey',
        playerName: 'Tom Brady',
        teamOrClub: 'Tampa Bay Buccaneers',
        size: 'XL',
        condition: 'like-new',
        category: 'CLOTHING',
        sportType: 'FOOTBALL',
        price: '250.00',
        nfcUid: null,
        mediaIds: [mediaId],
        mediaUrls: [expect.stringContaining(mediaId)],
        jersey: { jerseyNumber: 12, gameTitle: 'Super Bowl LV', gameDate: '2021-02-07', opponent: 'Kansas City Chiefs', venue: 'Raymond James Stadium', stats: { touchdowns: 3, passingYards: 201, completions: 21 } },
      });
      const events = await api.deps.eventStore.readStream(listingStreamId(created.body.id));
      expect(events.map((event) => event.type)).toEqual(['ListingDrafted', 'ListingSaved']);
      expect(events[0]!.metadata).toMatchObject({ actorId: adminId });

      const again = await api.call('POST', '/api/admin/jerseys', { token: admin, body: { ...JERSEY, mediaIds: [mediaId] } });
      expect(again.status).toBe(201);
      expect(again.body.slug).toBe('tom-brady-12-buccaneers-jersey-2');
    });

    it('gives two listings created at the same moment with one name two different slugs', async () => {
      const body = { ...JERSEY, playerName: 'Patrick Mahomes', jerseyNumber: 15, team: 'chiefs', save: false };
      const created = await Promise.all([1, 2, 3].map(() => api.call('POST', '/api/admin/jerseys', { token: admin, body })));
      expect(created.map((answer) => answer.status)).toEqual([201, 201, 201]);
      expect(new Set(created.map((answer) => answer.body.slug)).size).toBe(3);
      expect(created.map((answer) => answer.body.slug).sort()).toEqual([
        'patrick-mahomes-15-chiefs-jersey',
        'patrick-mahomes-15-chiefs-jersey-2',
        'patrick-mahomes-15-chiefs-jersey-3',
      ]);
    });

    it('names every missing required field, and nothing is created', async () => {
      const before = await countListings();
      const refused = await api.call('POST', '/api/admin/jerseys', { token: admin, body: {} });
      expect(refused.status).toBe(400);
      expect(refused.body.errors).toEqual([
        { field: 'playerName', message: 'Player name is required' },
        { field: 'jerseyNumber', message: 'Jersey number is required' },
        { field: 'team', message: 'Team is required' },
        { field: 'size', message: 'Size is required' },
        { field: 'condition', message: 'Condition is required' },
      ]);
      expect(refused.body.message).toBe('Player name is required; Jersey number is required; Team is required; Size is required; Condition is required');
      expect(await countListings()).toBe(before);
    });

    it("refuses options outside the form's lists and malformed numbers and dates, each by field", async () => {
      const refused = await api.call('POST', '/api/admin/jerseys', {
        token: admin,
        body: { ...JERSEY, team: 'jets', size: 'huge', condition: 'torn', jerseyNumber: 'twelve', gameDate: '2021-02-30', stats: { touchdowns: -1 }, price: 1.234 },
      });
      expect(refused.status).toBe(400);
      expect(refused.body.errors).toEqual(
        expect.arrayContaining([
          { field: 'team', message: 'Team must be one of patriots, buccaneers, chiefs' },
          { field: 'size', message: 'Size must be one of xs, s, m, l, xl, xxl' },
          { field: 'condition', message: 'Condition must be one of new, like-new, good, fair' },
          { field: 'jerseyNumber', message: 'Jersey number must be a number' },
          { field: 'gameDate', message: 'Game date must be a date (YYYY-MM-DD)' },
          { field: 'stats.touchdowns', message: 'Touchdowns must be at least 0' },
          { field: 'price', message: 'Price must be in whole cents' },
        ]),
      );
    });

    it('saving needs a media file: "At least one media file is required." and nothing is created; save:false keeps a draft', async () => {
      const before = await countListings();
      const refused = await api.call('POST', '/api/admin/jerseys', { token: admin, body: JERSEY });
      expect(refused.status).toBe(409);
      expect(refused.body.message).toBe('At least one media file is required.');
      expect(await countListings()).toBe(before);

      const draft = await api.call('POST', '/api/admin/jerseys', { token: admin, body: { ...JERSEY, save: false } });
      expect(draft.status).toBe(201);
      expect(draft.body.status).toBe('DRAFT');
    });

    it('refuses media that was never uploaded', async () => {
      const refused = await api.call('POST', '/api/admin/jerseys', { token: admin, body: { ...JERSEY, mediaIds: ['0b7f3f0e-4a8e-4b0e-9a57-1c1b1d1e1f10'] } });
      expect(refused.status).toBe(400);
      expect(refused.body.message).toMatch(/^Media not found or not uploaded yet/);
    });

    it('binds the nfcUid in the same step; an unknown tag leaves no listing behind', async () => {
      const uid = await provisionedTag();
      const created = await api.call('POST', '/api/admin/jerseys', { token: admin, body: { ...JERSEY, mediaIds: [await uploadedMedia()], nfcUid: uid.toLowerCase() } });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ status: 'NFC_BOUND', nfcUid: uid });
      expect((await api.deps.eventStore.readStream(nfcTagStreamId(uid))).map((event) => event.type)).toEqual(['NfcTagProvisioned', 'NfcTagBound']);

      const before = await countListings();
      const unknown = await api.call('POST', '/api/admin/jerseys', { token: admin, body: { ...JERSEY, mediaIds: [await uploadedMedia()], nfcUid: '04:00:00:00:00:00:01' } });
      expect(unknown.status).toBe(404);
      expect(unknown.body.message).toBe('Selected tag not found');
      const taken = await api.call('POST', '/api/admin/jerseys', { token: admin, body: { ...JERSEY, mediaIds: [await uploadedMedia()], nfcUid: uid } });
      expect(taken.status).toBe(409);
      const malformed = await api.call('POST', '/api/admin/jerseys', { token: admin, body: { ...JERSEY, mediaIds: [await uploadedMedia()], nfcUid: 'not-a-uid' } });
      expect(malformed.status).toBe(400);
      expect(malformed.body.message).toBe('Please enter a valid NFC UID');
      expect(await countListings()).toBe(before);
    });
  });

  describe('PUT /api/admin/jerseys/{id}', () => {
    it('revises a saved jersey listing from the form, its media order included, in one step', async () => {
      const [first, second] = [await uploadedMedia(), await uploadedMedia()];
      const created = (await api.call('POST', '/api/admin/jerseys', { token: admin, body: { ...JERSEY, mediaIds: [first] } })).body;
      const revised = await api.call('PUT', `/api/admin/jerseys/${created.id}`, {
        token: admin,
        body: { ...JERSEY, jerseyNumber: 7, venue: 'Arrowhead Stadium', mediaIds: [second, first] },
      });
      expect(revised.status).toBe(200);
      expect(revised.body).toMatchObject({ id: created.id, status: 'SAVED', title: 'Tom Brady #7 Buccaneers Jersey', mediaIds: [second, first], jersey: { jerseyNumber: 7, venue: 'Arrowhead Stadium' } });
      const events = await api.deps.eventStore.readStream(listingStreamId(created.id));
      expect(events.map((event) => event.type)).toEqual(['ListingDrafted', 'ListingSaved', 'ListingDetailsRevised', 'ListingMediaArranged']);
    });

    it('saves a draft (a bulk-imported row, say) in the same step, its photos added', async () => {
      const draft = (await api.call('POST', '/api/admin/jerseys', { token: admin, body: { ...JERSEY, save: false } })).body;
      expect(draft.status).toBe('DRAFT');
      const mediaId = await uploadedMedia();
      const saved = await api.call('PUT', `/api/admin/jerseys/${draft.id}`, { token: admin, body: { ...JERSEY, mediaIds: [mediaId] } });
      expect(saved.status).toBe(200);
      expect(saved.body).toMatchObject({ status: 'SAVED', mediaIds: [mediaId] });
      const withoutMedia = (await api.call('POST', '/api/admin/jerseys', { token: admin, body: { ...JERSEY, save: false } })).body;
      const refused = await api.call('PUT', `/api/admin/jerseys/${withoutMedia.id}`, { token: admin, body: JERSEY });
      expect(refused.status).toBe(409);
      expect(refused.body.message).toBe('At least one media file is required.');
      expect((await api.call('GET', `/api/admin/listings/${withoutMedia.id}`, { token: admin })).body.status).toBe('DRAFT');
    });

    it('changes nothing when any part is refused: field errors by field; a saved listing left without media', async () => {
      const created = (await api.call('POST', '/api/admin/jerseys', { token: admin, body: { ...JERSEY, mediaIds: [await uploadedMedia()] } })).body;
      const before = await api.deps.eventStore.readStream(listingStreamId(created.id));

      const invalid = await api.call('PUT', `/api/admin/jerseys/${created.id}`, { token: admin, body: { ...JERSEY, playerName: '', size: 'huge' } });
      expect(invalid.status).toBe(400);
      expect(invalid.body.errors).toEqual([
        { field: 'playerName', message: 'Player name is required' },
        { field: 'size', message: 'Size must be one of xs, s, m, l, xl, xxl' },
      ]);
      const withoutMedia = await api.call('PUT', `/api/admin/jerseys/${created.id}`, { token: admin, body: { ...JERSEY, jerseyNumber: 99, mediaIds: [] } });
      expect(withoutMedia.status).toBe(409);
      expect(withoutMedia.body.message).toBe('At least one media file is required.');
      // The details were not revised on their own either.
      expect(await api.deps.eventStore.readStream(listingStreamId(created.id))).toHaveLength(before.length);
      expect((await api.call('GET', `/api/admin/listings/${created.id}`, { token: admin })).body.title).toBe('Tom Brady #12 Buccaneers Jersey');
    });

    it('refuses once published (409), an unknown listing (404), a malformed id (400), and buyers (403)', async () => {
      const mediaId = await uploadedMedia();
      const created = (await api.call('POST', '/api/admin/jerseys', { token: admin, body: { ...JERSEY, mediaIds: [mediaId], nfcUid: await provisionedTag() } })).body;
      expect((await api.call('POST', `/api/admin/listings/${created.id}/publish`, { token: admin })).status).toBe(200);
      const published = await api.call('PUT', `/api/admin/jerseys/${created.id}`, { token: admin, body: { ...JERSEY, mediaIds: [mediaId] } });
      expect(published.status).toBe(409);
      expect((await api.call('PUT', `/api/admin/jerseys/${crypto.randomUUID()}`, { token: admin, body: { ...JERSEY, mediaIds: [mediaId] } })).status).toBe(404);
      expect((await api.call('PUT', '/api/admin/jerseys/not-a-uuid', { token: admin, body: { ...JERSEY, mediaIds: [mediaId] } })).status).toBe(400);
      expect((await api.call('PUT', `/api/admin/jerseys/${created.id}`, { token: buyer, body: { ...JERSEY, mediaIds: [mediaId] } })).status).toBe(403);
    });
  });

  describe('listings', () => {
    it('creates a general listing, lists every status with paging and a status filter, and shows one with its auction', async () => {
      const mediaId = await uploadedMedia();
      const created = await api.call('POST', '/api/admin/listings', {
        token: admin,
        body: { title: 'Aaron Judge Game-Used Bat', category: 'EQUIPMENT', condition: 'GAME_USED', sportType: 'BASEBALL', price: 1200, mediaIds: [mediaId], tags: ['SIGNED'] },
      });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ status: 'SAVED', slug: 'aaron-judge-game-used-bat', price: '1200.00', tags: ['SIGNED'], jersey: null });

      const live = await createMarketplaceListing(api, {});
      const saved = await api.call('GET', '/api/admin/listings?status=SAVED&size=100', { token: admin });
      expect(saved.status).toBe(200);
      expect(saved.body.content.every((listing: { status: string }) => listing.status === 'SAVED')).toBe(true);
      expect(saved.body.content.map((listing: { id: string }) => listing.id)).toContain(created.body.id);

      const all = await api.call('GET', '/api/admin/listings?size=1', { token: admin });
      expect(all.body).toMatchObject({ size: 1, number: 0, first: true, last: false });
      expect(all.body.totalElements).toBeGreaterThan(2);

      const one = await api.call('GET', `/api/admin/listings/${live.listingId}`, { token: admin });
      expect(one.status).toBe(200);
      expect(one.body).toMatchObject({ id: live.listingId, status: 'LIVE', auction: { auctionId: live.auctionId, status: 'ACTIVE' } });
      const draftless = await api.call('GET', `/api/admin/listings/${created.body.id}`, { token: admin });
      expect(draftless.body.auction).toBeNull();

      expect((await api.call('GET', '/api/admin/listings/7d3f0c1e-0000-4000-8000-000000000000', { token: admin })).body.message).toBe('Listing not found');
      expect((await api.call('GET', '/api/admin/listings?status=ARCHIVED', { token: admin })).status).toBe(400);
    });

    it('revises details and arranges media until publication; at most 8 media; a saved listing keeps one', async () => {
      const media = await Promise.all([1, 2, 3].map(() => uploadedMedia()));
      const created = (await api.call('POST', '/api/admin/jerseys', { token: admin, body: { ...JERSEY, mediaIds: [media[0]] } })).body;

      const arranged = await api.call('POST', `/api/admin/listings/${created.id}/media`, { token: admin, body: { mediaIds: [media[2], media[0], media[1]] } });
      expect(arranged.status).toBe(200);
      expect(arranged.body.mediaIds).toEqual([media[2], media[0], media[1]]);
      const emptied = await api.call('POST', `/api/admin/listings/${created.id}/media`, { token: admin, body: { mediaIds: [] } });
      expect(emptied.status).toBe(409);
      expect(emptied.body.message).toBe('At least one media file is required.');
      const tooMany = await api.call('POST', `/api/admin/listings/${created.id}/media`, { token: admin, body: { mediaIds: Array.from({ length: 9 }, (_, n) => `m${n}`) } });
      expect(tooMany.status).toBe(400);
      expect(tooMany.body.message).toContain('A listing can have at most 8 media files');

      const revised = await api.call('PUT', `/api/admin/listings/${created.id}`, {
        token: admin,
        body: { title: 'Tom Brady Super Bowl LV Jersey', category: 'CLOTHING', condition: 'GAME_WORN', sportType: 'FOOTBALL', price: 300, tags: ['WORN', 'FINAL_MATCH'] },
      });
      expect(revised.status).toBe(200);
      expect(revised.body).toMatchObject({ title: 'Tom Brady Super Bowl LV Jersey', price: '300.00', tags: ['WORN', 'FINAL_MATCH'], jersey: { jerseyNumber: 12 } });

      const live = await createMarketplaceListing(api, {});
      const locked = await api.call('PUT', `/api/admin/listings/${live.listingId}`, {
        token: admin,
        body: { title: 'Changed', category: 'CLOTHING', condition: 'GAME_WORN', sportType: 'FOOTBALL', price: 1 },
      });
      expect(locked.status).toBe(409);
      expect(locked.body.message).toBe('This listing can no longer be changed: it is LIVE');
    });
  });

  describe('publishing', () => {
    it('refuses a draft ("Listing must be created before publishing") and a saved listing without a tag ("NFC tag must be bound before publishing")', async () => {
      const draft = (await api.call('POST', '/api/admin/jerseys', { token: admin, body: { ...JERSEY, save: false } })).body;
      const refusedDraft = await api.call('POST', `/api/admin/listings/${draft.id}/publish`, { token: admin });
      expect(refusedDraft.status).toBe(409);
      expect(refusedDraft.body.message).toBe('Listing must be created before publishing');

      const saved = (await api.call('POST', '/api/admin/jerseys', { token: admin, body: { ...JERSEY, mediaIds: [await uploadedMedia()] } })).body;
      const refusedSaved = await api.call('POST', `/api/admin/listings/${saved.id}/publish`, { token: admin, body: {} });
      expect(refusedSaved.status).toBe(409);
      expect(refusedSaved.body.message).toBe('NFC tag must be bound before publishing');
      // Nothing was scheduled for a refused publication.
      expect(await api.deps.db.selectFrom('auctions').select('id').where('listing_id', 'in', [draft.id, saved.id]).execute()).toEqual([]);
    });

    it('publishes with the default rules: the listing and its auction in one append, LIVE and public with its nfcUid', async () => {
      const uid = await provisionedTag();
      const listing = (await api.call('POST', '/api/admin/jerseys', { token: admin, body: { ...JERSEY, mediaIds: [await uploadedMedia()], nfcUid: uid } })).body;
      const now = api.deps.clock().getTime();
      const published = await api.call('POST', `/api/admin/listings/${listing.id}/publish`, { token: admin });
      expect(published.status).toBe(200);
      expect(published.body.message).toBe('Listing published successfully and is now LIVE!');
      expect(published.body.listing).toMatchObject({ id: listing.id, status: 'LIVE', nfcUid: uid });
      expect(published.body.auction).toMatchObject({
        status: 'ACTIVE',
        currentPrice: 250,
        minimumBid: 251,
        incrementTable: [{ from: 0, increment: 1 }],
        softClose: { windowSeconds: 180 },
        reserveMet: null,
        buyNowPrice: null,
      });
      const endsAt = Date.parse(published.body.auction.endsAt);
      expect(endsAt - now).toBeGreaterThanOrEqual(7 * 24 * 3600_000 - 60_000);
      expect(endsAt - now).toBeLessThanOrEqual(7 * 24 * 3600_000 + 60_000);
      expect(Date.parse(published.body.auction.softClose.latestEndsAt) - endsAt).toBe(24 * 3600_000);

      const auctionId = published.body.auction.auctionId;
      const listingEvents = await api.deps.eventStore.readStream(listingStreamId(listing.id));
      const auctionEvents = await api.deps.eventStore.readStream(auctionStreamId(auctionId));
      const publishedEvent = listingEvents.at(-1)!;
      expect(publishedEvent.type).toBe('ListingPublished');
      expect(auctionEvents.map((event) => event.type)).toEqual(['AuctionScheduled', 'AuctionOpened']);
      // One atomic append: the same command, consecutive positions in the log.
      expect(auctionEvents[0]!.metadata).toMatchObject({ commandId: (publishedEvent.metadata as { commandId: string }).commandId });

      const publicView = await api.call('GET', `/api/public/listings/${listing.slug}`);
      expect(publicView.status).toBe(200);
      expect(publicView.body).toMatchObject({ status: 'LIVE', nfcUid: uid, auctionId });

      const again = await api.call('POST', `/api/admin/listings/${listing.id}/publish`, { token: admin });
      expect(again.status).toBe(409);
      expect(again.body.message).toBe('This listing cannot be published: it is LIVE');
    });

    it('publishes with a chosen rule set: start, end, eBay increments, reserve, buy-now, hard close', async () => {
      const uid = await provisionedTag();
      const listing = (await api.call('POST', '/api/admin/jerseys', { token: admin, body: { ...JERSEY, mediaIds: [await uploadedMedia()], nfcUid: uid } })).body;
      const startsAt = new Date(api.deps.clock().getTime() + 3600_000).toISOString();
      const endsAt = new Date(api.deps.clock().getTime() + 3 * 24 * 3600_000).toISOString();
      const published = await api.call('POST', `/api/admin/listings/${listing.id}/publish`, {
        token: admin,
        body: { startingPrice: 100, startsAt, endsAt, incrementTable: 'EBAY', softClose: null, reservePrice: 500, buyNowPrice: 2000 },
      });
      expect(published.status).toBe(200);
      expect(published.body.auction).toMatchObject({
        status: 'PENDING',
        isActive: false,
        startsAt,
        endsAt,
        currentPrice: 100,
        minimumBid: 102.5,
        softClose: null,
        reserveMet: false,
        buyNowPrice: 2000,
      });
    });

    it("refuses rules that do not hold together, and publishes nothing", async () => {
      const uid = await provisionedTag();
      const listing = (await api.call('POST', '/api/admin/jerseys', { token: admin, body: { ...JERSEY, mediaIds: [await uploadedMedia()], nfcUid: uid } })).body;
      const cases: Array<[object, number, string]> = [
        [{ reservePrice: 100 }, 400, 'The reserve price cannot be below the starting price'],
        [{ buyNowPrice: 200 }, 400, 'The buy-now price must be above the starting price'],
        [{ endsAt: new Date(api.deps.clock().getTime() - 1000).toISOString() }, 400, 'The auction must end after it starts'],
        [{ endsAt: new Date(api.deps.clock().getTime() + 3600_000).toISOString(), durationHours: 5 }, 400, 'Give either endsAt or durationHours, not both'],
        [{ startingPrice: 10.005 }, 400, 'startingPrice must be in whole cents'],
      ];
      for (const [body, status, message] of cases) {
        const refused = await api.call('POST', `/api/admin/listings/${listing.id}/publish`, { token: admin, body });
        expect([refused.status, refused.body.message]).toEqual([status, message]);
      }
      const unknownField = await api.call('POST', `/api/admin/listings/${listing.id}/publish`, { token: admin, body: { reserve: 5 } });
      expect(unknownField.status).toBe(400);
      expect((await api.call('GET', `/api/admin/listings/${listing.id}`, { token: admin })).body).toMatchObject({ status: 'NFC_BOUND', auction: null });
    });
  });

  describe('PUT /api/admin/listings/{id}/status', () => {
    it('saves a draft, publishes with defaults on LIVE, and refuses the changes only events make, saying why', async () => {
      const draft = (await api.call('POST', '/api/admin/jerseys', { token: admin, body: { ...JERSEY, save: false } })).body;
      const noMedia = await api.call('PUT', `/api/admin/listings/${draft.id}/status`, { token: admin, body: { status: 'SAVED' } });
      expect(noMedia.status).toBe(409);
      expect(noMedia.body.message).toBe('At least one media file is required.');
      await api.call('POST', `/api/admin/listings/${draft.id}/media`, { token: admin, body: { mediaIds: [await uploadedMedia()] } });
      const saved = await api.call('PUT', `/api/admin/listings/${draft.id}/status`, { token: admin, body: { status: 'SAVED' } });
      expect(saved.status).toBe(200);
      expect(saved.body.status).toBe('SAVED');

      const liveWithoutTag = await api.call('PUT', `/api/admin/listings/${draft.id}/status`, { token: admin, body: { status: 'LIVE' } });
      expect(liveWithoutTag.status).toBe(409);
      expect(liveWithoutTag.body.message).toBe('NFC tag must be bound before publishing');

      for (const [status, why] of [
        ['NFC_BOUND', 'a listing becomes NFC_BOUND by binding a tag (POST /api/admin/listings/{id}/bind)'],
        ['SOLD', "only the close of the listing's auction decides SOLD or UNSOLD"],
        ['DRAFT', 'a listing never goes back to draft'],
      ]) {
        const refused = await api.call('PUT', `/api/admin/listings/${draft.id}/status`, { token: admin, body: { status } });
        expect([refused.status, refused.body.message]).toEqual([409, `A SAVED listing cannot be set to ${status}: ${why}`]);
      }
      expect((await api.call('PUT', `/api/admin/listings/${draft.id}/status`, { token: admin, body: { status: 'GONE' } })).status).toBe(400);

      const bound = await createMarketplaceListing(api, { stage: 'NFC_BOUND' });
      const live = await api.call('PUT', `/api/admin/listings/${bound.listingId}/status`, { token: admin, body: { status: 'LIVE' } });
      expect(live.status).toBe(200);
      expect(live.body).toMatchObject({ status: 'LIVE', auctionId: expect.any(String) });
    });

    it('withdraws with a reason; a live listing takes its auction with it, bids kept on record', async () => {
      const live = await createMarketplaceListing(api, {});
      const bid = await api.call('POST', '/api/bids', { token: buyer, body: { auctionId: live.auctionId, amount: 60 } });
      expect(bid.status).toBe(201);

      const noReason = await api.call('PUT', `/api/admin/listings/${live.listingId}/status`, { token: admin, body: { status: 'WITHDRAWN' } });
      expect(noReason.status).toBe(400);
      expect(noReason.body.message).toBe('A reason is required');

      const withdrawn = await api.call('PUT', `/api/admin/listings/${live.listingId}/status`, {
        token: admin,
        body: { status: 'WITHDRAWN', reason: 'Consignor withdrew the item' },
      });
      expect(withdrawn.status).toBe(200);
      expect(withdrawn.body.status).toBe('WITHDRAWN');
      const auction = await api.call('GET', `/api/admin/listings/${live.listingId}`, { token: admin });
      expect(auction.body.auction).toMatchObject({ status: 'CANCELLED', bidCount: 1 });
      expect((await api.call('GET', `/api/public/listings/${live.listingId}`)).status).toBe(404);
      const late = await api.call('POST', '/api/bids', { token: buyer, body: { auctionId: live.auctionId, amount: 70 } });
      expect(late.status).toBe(409);

      const twice = await api.call('PUT', `/api/admin/listings/${live.listingId}/status`, { token: admin, body: { status: 'WITHDRAWN', reason: 'again' } });
      expect(twice.status).toBe(409);
      expect(twice.body.message).toBe('This listing can no longer be withdrawn: it is WITHDRAWN');
    });
  });

  async function countListings(): Promise<number> {
    await api.deps.projections.caughtUp();
    const { count } = await api.deps.db.selectFrom('listings').select((eb) => eb.fn.countAll<string | number>().as('count')).executeTakeFirstOrThrow();
    return Number(count);
  }
});

import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handleListingPublication } from '../../engine/application/listing-publication';
import { handleTagBinding } from '../../engine/application/tag-binding';
import { comparePositions, type RecordedEvent } from '../../engine/eventstore/port';
import { FLAT_ONE_DOLLAR, nfcTagDecider, nfcTagStreamId, type Actor, type CommandMetadata } from '../../engine/domain';
import { API_BACKENDS, startTestApi, type TestApi } from '../support/api';
import { createMarketplaceListing } from '../support/marketplace';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
let now = new Date('2031-07-01T12:00:00.000Z');
const clock = () => now;

describe.each(API_BACKENDS)('the public chain of custody on %s', (backend) => {
  let api: TestApi;
  let seller: Actor;
  let adminToken: string;
  beforeAll(async () => {
    api = await startTestApi(backend, { clock });
    const admin = await api.signUp('ADMIN');
    seller = { userId: admin.user.id, roles: admin.user.roles };
    adminToken = admin.tokens.accessToken;
  });
  afterAll(async () => api.close());

  const metadata = (): CommandMetadata => ({ actor: seller, now: now.toISOString(), correlationId: randomUUID(), commandId: randomUUID() });
  const custody = (uid: string) => api.call('GET', `/api/public/nfc/${encodeURIComponent(uid)}`);
  /** A lifecycle round that sees everything so far: closes what has ended, then settles the listings. */
  const round = async () => {
    await api.deps.projections.caughtUp();
    await api.deps.lifecycle!.runOnce();
    await api.deps.projections.caughtUp();
  };

  it('documents the route for /docs', async () => {
    const { body } = await api.call('GET', '/docs/json');
    const route = body.paths['/api/public/nfc/{uid}'].get;
    expect(route.summary).toMatch(/chain of custody/i);
    expect(route.description).toContain('NFC tag not found');
    expect(route.security).toBeUndefined();
  });

  it('tells a sold item\'s story in log order, with its price and bid count but no bidder', async () => {
    const endsAt = new Date(now.getTime() + HOUR);
    const listing = await createMarketplaceListing(api, {
      seller,
      decidedAt: now,
      endsAt,
      title: 'Playoff Game-Worn Jersey',
      price: 5_000,
      rules: { softClose: { windowSeconds: 600, latestEndsAt: new Date(now.getTime() + 2 * HOUR).toISOString() }, reservePrice: 6_000 },
    });
    const uid = listing.nfcUid!;
    const auctionId = listing.auctionId!;

    const ann = await api.signUp('BUYER', { firstName: 'Ann', lastName: 'Bidder' });
    const bob = await api.signUp('BUYER', { firstName: 'Bob', lastName: 'Bidder' });
    expect((await api.call('POST', '/api/bids', { token: ann.tokens.accessToken, body: { auctionId, amount: 60 } })).status).toBe(201);
    now = new Date(endsAt.getTime() - 5 * MINUTE);
    expect((await api.call('POST', '/api/bids', { token: bob.tokens.accessToken, body: { auctionId, amount: 75 } })).status).toBe(201);
    now = new Date(now.getTime() + 10 * MINUTE + 1_000); // past the extended end
    await round();
    await round();

    const response = await custody(uid.replace(/:/g, '').toLowerCase());
    expect(response.status).toBe(200);
    const { body } = response;
    expect(body).toMatchObject({
      uid,
      status: 'BOUND',
      listing: { id: listing.listingId, slug: listing.slug, title: 'Playoff Game-Worn Jersey', status: 'SOLD' },
    });
    expect(body.history.map((entry: { event: string }) => entry.event)).toEqual([
      'TAG_PROVISIONED',
      'TAG_BOUND',
      'LISTING_PUBLISHED',
      'AUCTION_SCHEDULED',
      'AUCTION_OPENED',
      'AUCTION_EXTENDED',
      'AUCTION_CLOSED',
      'LISTING_SOLD',
    ]);
    const entry = (event: string) => body.history.find((item: { event: string }) => item.event === event);
    expect(entry('TAG_BOUND').summary).toBe('Tag attached to "Playoff Game-Worn Jersey"');
    expect(entry('AUCTION_SCHEDULED').details).toMatchObject({ auctionId, startingPrice: 50, hasReserve: true, buyNowPrice: null });
    expect(entry('AUCTION_SCHEDULED').details).not.toHaveProperty('reservePrice');
    expect(entry('AUCTION_CLOSED')).toMatchObject({
      summary: 'Auction closed: sold for $75.00 after 2 bids',
      details: { auctionId, result: 'SOLD', closedBy: 'TIME', finalPrice: 75, bidCount: 2 },
    });
    expect(entry('LISTING_SOLD')).toMatchObject({ summary: 'Sold for $75.00', details: { listingId: listing.listingId, auctionId, finalPrice: 75 } });

    // Every entry is an event of the log, named by its id, stream and revision, in log order; the
    // publication and its auction were one append (one command), told publication first.
    const recorded = [];
    for (const item of body.history) {
      const [event] = await api.deps.eventStore.readStream(item.stream, { fromRevision: item.revision, maxCount: 1 });
      expect(event, `${item.stream}@${item.revision}`).toMatchObject({ id: item.eventId });
      expect(item.at).toBe((event!.metadata as { occurredAt: string }).occurredAt);
      recorded.push(event!);
    }
    const commandOf = (event: RecordedEvent) => (event.metadata as { commandId: string }).commandId;
    expect(commandOf(recorded[2]!)).toBe(commandOf(recorded[3]!));
    const positions = recorded.filter((event) => event.type !== 'ListingPublished').map((event) => event.position);
    expect([...positions].sort(comparePositions)).toEqual(positions);

    // Nothing that names a buyer or bidder.
    const text = JSON.stringify(body);
    for (const buyer of [ann, bob]) {
      expect(text).not.toContain(buyer.user.id);
      expect(text).not.toContain(buyer.user.email);
    }
    expect(text).not.toMatch(/bidder|winner|buyerId/i);
  });

  it('shows a tag moved between listings only with what happened while it was on each', async () => {
    const first = await createMarketplaceListing(api, { stage: 'SAVED', seller, decidedAt: now, title: 'Wrong Item' });
    const second = await createMarketplaceListing(api, { stage: 'SAVED', seller, decidedAt: now, title: 'Right Item' });
    const provisioned = await api.call('POST', '/api/admin/nfc/tags/provision', {
      token: adminToken,
      body: { uid: randomBytes(7).toString('hex'), claimCode: `PRV-${randomBytes(4).toString('hex')}` },
    });
    const uid: string = provisioned.body.uid;
    const bindTo = (listingId: string) => api.call('POST', `/api/admin/listings/${listingId}/bind`, { token: adminToken, body: { uid } });
    expect((await bindTo(first.listingId)).status).toBe(200);
    expect((await api.call('POST', `/api/admin/listings/${first.listingId}/unbind`, { token: adminToken, body: { reason: 'Tag put on the wrong item' } })).status).toBe(200);
    expect((await bindTo(second.listingId)).status).toBe(200);
    // The first listing goes on with another tag; its publication is not this tag's story.
    const otherTag = randomBytes(7).toString('hex');
    await api.deps.commands.handle(nfcTagDecider, nfcTagStreamId(otherTag), {
      type: 'ProvisionNfcTag',
      data: { uid: otherTag, claimCode: null },
      metadata: metadata(),
    });
    await handleTagBinding(api.deps.commands, { type: 'BindTagToListing', data: { listingId: first.listingId, uid: otherTag }, metadata: metadata() });
    await handleListingPublication(api.deps.commands, {
      type: 'PublishListingAtAuction',
      data: {
        listingId: first.listingId,
        auctionId: randomUUID(),
        startsAt: now.toISOString(),
        endsAt: new Date(now.getTime() + HOUR).toISOString(),
        rules: { currency: 'USD', startingPrice: 5_000, incrementTable: FLAT_ONE_DOLLAR, softClose: null, reservePrice: null, buyNowPrice: null },
      },
      metadata: metadata(),
    });

    const { status, body } = await custody(uid);
    expect(status).toBe(200);
    expect(body.history.map((entry: { event: string; summary: string }) => [entry.event, entry.summary])).toEqual([
      ['TAG_PROVISIONED', `NFC tag ${uid} registered`],
      ['TAG_BOUND', 'Tag attached to "Wrong Item"'],
      ['TAG_UNBOUND', 'Tag detached from "Wrong Item": Tag put on the wrong item'],
      ['TAG_BOUND', 'Tag attached to "Right Item"'],
    ]);
    expect(body.listing).toEqual({ id: second.listingId, slug: second.slug, title: 'Right Item', status: 'NFC_BOUND' });
    // The claim code on the card binds the tag: it is never shown publicly.
    expect(JSON.stringify(body)).not.toContain(provisioned.body.claimCode);
  });

  it('shows a tag never bound as provisioned and on no listing', async () => {
    const provisioned = await api.call('POST', '/api/admin/nfc/tags/provision', { token: adminToken, body: { uid: randomBytes(4).toString('hex') } });
    const response = await custody(provisioned.body.uid);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      uid: provisioned.body.uid,
      status: 'AVAILABLE',
      listing: null,
      history: [
        {
          event: 'TAG_PROVISIONED',
          at: now.toISOString(),
          eventId: expect.any(String),
          stream: nfcTagStreamId(provisioned.body.uid),
          revision: 0,
          summary: `NFC tag ${provisioned.body.uid} registered`,
          details: {},
        },
      ],
    });
  });

  it('answers 400 "Please enter a valid NFC UID" and 404 "NFC tag not found"', async () => {
    for (const uid of ['hello', '04:A2', '04A2B3C4D5E6F']) {
      const response = await custody(uid);
      expect(response.status, uid).toBe(400);
      expect(response.body).toMatchObject({ statusCode: 400, message: 'Please enter a valid NFC UID' });
    }
    const unknown = await custody(randomBytes(7).toString('hex'));
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ statusCode: 404, message: 'NFC tag not found' });
  });
});


import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_BACKENDS, startTestApi, type TestApi } from '../support/api';

const JPEG = await readFile(new URL('../../api/seed/images/brady-front.jpg', import.meta.url));
const HOUR = 3_600_000;
let now = new Date('2032-02-07T18:00:00.000Z');
const clock = () => now;

/**
 * The whole admin flow, every step through real HTTP as the dashboard takes it: sign in, upload a
 * photo, create the jersey, provision its tag, bind it, publish; then a buyer bids, the auction
 * closes on time, and the tag's public chain of custody tells every step.
 */
describe.each(API_BACKENDS)('the admin flow on %s', (backend) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startTestApi(backend, { clock });
  });
  afterAll(async () => api.close());

  it('takes a jersey from photo to sold, with its custody on record', async () => {
    const { user, password } = await api.signUp('ADMIN');
    const session = await api.call('POST', '/api/admin/auth/login', { body: { email: user.email, password } });
    expect(session.status).toBe(200);
    const token: string = session.body.accessToken;

    // 1. The photo: presigned URL, PUT straight to it, confirm.
    const presigned = await api.call('POST', '/api/admin/media/upload/presigned-url', { token, body: { filename: 'brady-front.jpg', contentType: 'image/jpeg' } });
    expect(presigned.status).toBe(201);
    const put = await fetch(presigned.body.uploadUrl, { method: 'PUT', headers: presigned.body.headers, body: JPEG });
    expect(put.status).toBe(200);
    const { mediaId } = presigned.body;
    const confirmed = await api.call('POST', '/api/admin/media/upload/confirm', {
      token,
      body: { mediaId, etag: put.headers.get('etag'), fileSizeBytes: JPEG.length },
    });
    expect(confirmed.body).toMatchObject({ status: 'COMPLETED' });

    // 2. The jersey form: saved with its photo.
    const jersey = await api.call('POST', '/api/admin/jerseys', {
      token,
      body: { playerName: 'Tom Brady', jerseyNumber: 12, team: 'buccaneers', size: 'l', condition: 'good', gameTitle: 'Super Bowl LV', gameDate: '2021-02-07', price: 500, mediaIds: [mediaId] },
    });
    expect(jersey.status).toBe(201);
    expect(jersey.body).toMatchObject({ status: 'SAVED', slug: 'tom-brady-12-buccaneers-jersey' });
    const listingId: string = jersey.body.id;

    // 3. The tag: provisioned with its claim code, then bound by that code.
    const provisioned = await api.call('POST', '/api/admin/nfc/tags/provision', { token, body: { uid: '04a1b2c3d4e5f6', claimCode: 'prv-flow-0001' } });
    expect(provisioned.status).toBe(201);
    const uid: string = provisioned.body.uid;
    expect(uid).toBe('04:A1:B2:C3:D4:E5:F6');
    const bound = await api.call('POST', `/api/admin/listings/${listingId}/bind`, { token, body: { claimCode: 'prv-flow-0001' } });
    expect(bound.status).toBe(200);
    expect((await api.call('GET', `/api/admin/nfc/tags/${uid}`, { token })).body).toMatchObject({ status: 'BOUND', listingId });

    // 4. Publish: a one-hour auction from $500.
    const published = await api.call('POST', `/api/admin/listings/${listingId}/publish`, { token, body: { durationHours: 1 } });
    expect(published.status).toBe(200);
    const { auctionId } = published.body.auction;

    // 5. The public sees it with its tag and its live auction.
    const publicListing = await api.call('GET', '/api/public/listings/tom-brady-12-buccaneers-jersey');
    expect(publicListing.body).toMatchObject({ id: listingId, status: 'LIVE', nfcUid: uid, auctionId, mediaUrls: [expect.stringContaining(mediaId)] });
    const photo = await fetch(new URL(publicListing.body.mediaUrls[0], api.url));
    expect(Buffer.from(await photo.arrayBuffer()).equals(JPEG)).toBe(true);
    expect((await api.call('GET', `/api/public/listings/${listingId}/auction`)).body).toMatchObject({ status: 'ACTIVE', currentPrice: 500, minimumBid: 501 });

    // 6. A buyer bids.
    const buyer = await api.signUp('BUYER');
    const bid = await api.call('POST', '/api/bids', { token: buyer.tokens.accessToken, body: { auctionId, amount: 525 } });
    expect(bid.status).toBe(201);

    // 7. The hour passes: the lifecycle worker closes the auction and the listing is sold.
    now = new Date(now.getTime() + HOUR + 1_000);
    for (let round = 0; round < 2; round++) {
      await api.deps.projections.caughtUp();
      await api.deps.lifecycle!.runOnce();
    }
    await api.deps.projections.caughtUp();
    expect((await api.call('GET', `/api/admin/listings/${listingId}`, { token })).body).toMatchObject({
      status: 'SOLD',
      auction: { status: 'ENDED', result: 'SOLD', finalPrice: 525, winnerId: buyer.user.id },
    });

    // 8. Scanning the tag tells the item's story, every step on record.
    const custody = await api.call('GET', `/api/public/nfc/${uid}`);
    expect(custody.status).toBe(200);
    expect(custody.body.listing).toMatchObject({ id: listingId, status: 'SOLD' });
    expect(custody.body.history.map((entry: { event: string }) => entry.event)).toEqual([
      'TAG_PROVISIONED',
      'TAG_BOUND',
      'LISTING_PUBLISHED',
      'AUCTION_SCHEDULED',
      'AUCTION_OPENED',
      'AUCTION_CLOSED',
      'LISTING_SOLD',
    ]);
    expect(JSON.stringify(custody.body)).not.toContain(buyer.user.id);

    // 9. The winner's order follows the sale ($525 + the 20% premium + $25 shipping); the dashboard's
    // figures count it once it is paid.
    let order: { id: string; total: number } | undefined;
    for (let round = 0; round < 3 && !order; round++) {
      await api.deps.lifecycle!.runOnce();
      await api.deps.projections.caughtUp();
      order = (await api.call('GET', '/api/v1/users/me/orders', { token: buyer.tokens.accessToken })).body.content[0];
    }
    expect(order).toMatchObject({ total: 655 });
    expect((await api.call('GET', '/api/admin/analytics', { token })).body.sales).toMatchObject({ revenue: 0, itemsSold: 0 });
    const paid = await api.call('POST', `/api/admin/orders/${order!.id}/payments`, { token, body: { amount: 655, reference: 'FEDWIRE-0001' } });
    expect(paid.body).toMatchObject({ status: 'PAID' });
    const analytics = await api.call('GET', '/api/admin/analytics', { token });
    expect(analytics.body.sales).toMatchObject({ revenue: 655, itemsSold: 1, averageSalePrice: 655 });
  });
});

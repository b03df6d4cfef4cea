import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handleAuctionCommand } from '../../engine/application/auction-commands';
import { handleListingPublication } from '../../engine/application/listing-publication';
import { auctionStreamId, listingStreamId, nfcTagDecider, nfcTagStreamId, type Actor, type CommandMetadata } from '../../engine/domain';
import { API_BACKENDS, startTestApi, type TestApi } from '../support/api';
import { caughtUpWith, createMarketplaceListing, type MarketplaceListing, type MarketplaceListingOptions } from '../support/marketplace';

const DAY_1 = '2031-05-01';
const DAY_2 = '2031-05-02';
const DAY_3 = '2031-05-03';
const at = (day: string, time: string) => new Date(`${day}T${time}.000Z`);

type Account = Awaited<ReturnType<TestApi['signUp']>>;
type Lot = MarketplaceListing & { auctionId: string };

describe.each(API_BACKENDS)('GET /api/admin/analytics on %s', (backend) => {
  // A clock the tests move (each backend its own), so that bids and closes land on chosen UTC days.
  let now = at(DAY_1, '10:00:00');
  const clock = () => now;
  const moveClockTo = (instant: Date) => {
    if (instant.getTime() > now.getTime()) now = instant;
  };

  let api: TestApi;
  let admin: Account;
  let seller: Actor;

  beforeAll(async () => {
    api = await startTestApi(backend, { clock });
    admin = await api.signUp('ADMIN');
    seller = { userId: admin.user.id, roles: admin.user.roles };
  });
  afterAll(async () => api.close());

  /** As the admin, unless another token (or null: none) is given. */
  const analytics = (query = '', token: string | null = admin.tokens.accessToken) =>
    api.call('GET', `/api/admin/analytics${query}`, token === null ? {} : { token });

  it('answers 401 without a sign-in and 403 to a buyer', async () => {
    const anonymous = await analytics('', null);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toMatchObject({ statusCode: 401, message: 'Authentication required' });

    const buyer = await api.signUp('BUYER');
    const refused = await analytics('', buyer.tokens.accessToken);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ statusCode: 403, message: 'Access denied' });
  });

  it('documents the route, its query and every figure in the OpenAPI description', async () => {
    const { body } = await api.call('GET', '/docs/json');
    const route = body.paths['/api/admin/analytics'].get;
    expect(route.parameters.map((parameter: { name: string }) => parameter.name).sort()).toEqual(['days', 'topLots']);
    const answer = route.responses['200'].content['application/json'].schema;
    expect(answer.properties.nfc.properties.boundShare.description).toContain('ought to carry a tag');
    expect(answer.properties.totals.properties.totalItems.description).toContain('except withdrawn');
  });

  it('answers an empty marketplace with zeros and a zero-filled series of `days` entries', async () => {
    const response = await analytics();
    expect(response.status).toBe(200);
    const { series, ...figures } = response.body;
    expect(figures).toEqual({
      generatedAt: now.toISOString(),
      totals: { totalItems: 0, liveItems: 0, pendingItems: 0, soldItems: 0, unsoldItems: 0, withdrawnItems: 0 },
      nfc: { provisionedTags: 0, boundTags: 0, availableTags: 0, boundShare: null },
      sales: { revenue: 0, itemsSold: 0, averageSalePrice: null },
      topLots: [],
    });
    // 30 days by default, ending today (UTC).
    expect(series.bidsPerDay).toHaveLength(30);
    expect(series.bidsPerDay[0]).toEqual({ date: '2031-04-02', bids: 0 });
    expect(series.bidsPerDay.at(-1)).toEqual({ date: DAY_1, bids: 0 });
    expect(series.bidsPerDay.every((entry: { bids: number }) => entry.bids === 0)).toBe(true);
    expect(series.revenuePerDay).toHaveLength(30);
    expect(series.revenuePerDay.map((entry: { date: string }) => entry.date)).toEqual(series.bidsPerDay.map((entry: { date: string }) => entry.date));
    expect(series.revenuePerDay.every((entry: { revenue: number }) => entry.revenue === 0)).toBe(true);

    const week = await analytics('?days=7');
    expect(week.body.series.bidsPerDay.map((entry: { date: string }) => entry.date)).toEqual([
      '2031-04-25', '2031-04-26', '2031-04-27', '2031-04-28', '2031-04-29', '2031-04-30', DAY_1,
    ]);
  });

  it.each([
    ['?days=0', 'querystring.days'],
    ['?days=400', 'querystring.days'],
    ['?days=2.5', 'querystring.days'],
    ['?days=', 'querystring.days'],
    ['?topLots=abc', 'querystring.topLots'],
    ['?topLots=51', 'querystring.topLots'],
    ['?topLots=0', 'querystring.topLots'],
  ])('refuses %s with a 400 naming the field', async (query, field) => {
    const response = await analytics(query);
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ statusCode: 400, code: 'VALIDATION_FAILED', message: expect.stringContaining(field) });
  });

  /**
   * Day 1: seven listings at every stage; bids on lots A, B (a proxy answering, then the leader
   * privately raising their maximum) and C. Day 2: bids on D (one retracted) and A; E withdrawn;
   * C sells at $25 and F closes without bids at noon. Day 3: A sells at $60 and B at $121 at noon;
   * a bid on D. Lot D stays live. Orders (these lots were scheduled without a premium: $25 shipping
   * on top): C's $50 is paid on day 2; on day 3 A's $85 is paid and B's $146 only in part: revenue
   * counts orders paid in full.
   */
  describe('after three days of trading', () => {
    let buyerAnn: Account;
    let buyerBob: Account;
    const lots: Record<'A' | 'B' | 'C' | 'D' | 'E' | 'F', Lot> = {} as never;

    const metadata = (): CommandMetadata => ({ actor: seller, now: now.toISOString(), correlationId: randomUUID(), commandId: randomUUID() });
    const listing = (options: MarketplaceListingOptions) => createMarketplaceListing(api, { seller, ...options });
    const lot = async (title: string, price: number, endsAt: Date): Promise<Lot> => {
      const created = await listing({ title, price, endsAt });
      return { ...created, auctionId: created.auctionId! };
    };
    const bid = async (account: Account, target: Lot, amount: number, maxAmount?: number) => {
      const response = await api.call('POST', '/api/bids', {
        token: account.tokens.accessToken,
        body: { auctionId: target.auctionId, amount, ...(maxAmount === undefined ? {} : { maxAmount }) },
      });
      expect(response.status, JSON.stringify(response.body)).toBe(201);
      return response.body as { id: string; kind: string };
    };
    /** The worker closes what is due, then (next round) the listings follow their auctions. */
    const settle = async () => {
      for (let round = 0; round < 2; round++) {
        await api.deps.projections.caughtUp();
        await api.deps.lifecycle!.runOnce();
      }
      await api.deps.projections.caughtUp();
    };

    /** An admin records a bank transfer for the order of a lot's sale (placed by the lifecycle worker). */
    const payFor = async (target: Lot, amount: number) => {
      const order = await api.deps.db.selectFrom('orders').select('id').where('auction_id', '=', target.auctionId).executeTakeFirstOrThrow();
      const paid = await api.call('POST', `/api/admin/orders/${order.id}/payments`, { token: admin.tokens.accessToken, body: { amount, reference: `WIRE-${target.auctionId}` } });
      expect(paid.status, JSON.stringify(paid.body)).toBe(200);
      await api.deps.projections.caughtUp();
    };

    beforeAll(async () => {
      buyerAnn = await api.signUp('BUYER');
      buyerBob = await api.signUp('BUYER');

      // ---- day 1 ----
      await listing({ stage: 'DRAFT', title: 'Draft' });
      await listing({ stage: 'SAVED', title: 'Saved' });
      await listing({ stage: 'NFC_BOUND', title: 'Bound' });
      lots.A = await lot('Lot A', 5_000, at(DAY_3, '12:00:00'));
      lots.B = await lot('Lot B', 10_000, at(DAY_3, '12:00:00'));
      lots.C = await lot('Lot C', 2_000, at(DAY_2, '12:00:00'));
      lots.D = await lot('Lot D', 3_000, at('2031-05-06', '12:00:00'));
      lots.E = await lot('Lot E', 8_000, at('2031-05-06', '12:00:00'));
      lots.F = await lot('Lot F', 4_000, at(DAY_2, '12:00:00'));
      const spareUid = randomBytes(7).toString('hex');
      await api.deps.commands.handle(nfcTagDecider, nfcTagStreamId(spareUid), { type: 'ProvisionNfcTag', data: { uid: spareUid, claimCode: null }, metadata: metadata() });
      await caughtUpWith(api, nfcTagStreamId(spareUid));

      await bid(buyerAnn, lots.A, 51);
      await bid(buyerBob, lots.A, 55);
      await bid(buyerAnn, lots.B, 110, 150);
      await bid(buyerBob, lots.B, 120); // Ann's maximum answers at $121: an AUTO bid
      expect((await bid(buyerAnn, lots.B, 122, 200)).kind).toBe('MAXIMUM'); // private: not a bid in the figures
      await bid(buyerBob, lots.C, 25);

      // ---- day 2 ----
      moveClockTo(at(DAY_2, '09:00:00'));
      await bid(buyerBob, lots.D, 31);
      const mistaken = await bid(buyerAnn, lots.D, 35);
      await handleAuctionCommand(api.deps.commands, {
        type: 'RetractBid',
        data: { auctionId: lots.D.auctionId, bidId: mistaken.id, reason: 'Bidder entered the wrong amount' },
        metadata: metadata(),
      });
      await bid(buyerAnn, lots.A, 60);
      await handleListingPublication(api.deps.commands, {
        type: 'WithdrawListingFromSale',
        data: { listingId: lots.E.listingId, reason: 'Item failed authentication' },
        metadata: metadata(),
      });
      await caughtUpWith(api, listingStreamId(lots.E.listingId), auctionStreamId(lots.E.auctionId));
      moveClockTo(at(DAY_2, '12:00:01'));
      await settle();
      await settle();
      await payFor(lots.C, 50);

      // ---- day 3 ----
      moveClockTo(at(DAY_3, '12:00:01'));
      await settle();
      await bid(buyerAnn, lots.D, 40);
      await settle();
      await settle();
      await payFor(lots.A, 85);
      await payFor(lots.B, 100); // of $146: not paid in full, not yet a sale
    });

    it('counts listings by where they stand; withdrawn ones apart', async () => {
      const { status, body } = await analytics();
      expect(status).toBe(200);
      expect(body.generatedAt).toBe(at(DAY_3, '12:00:01').toISOString());
      expect(body.totals).toEqual({ totalItems: 8, liveItems: 1, pendingItems: 3, soldItems: 3, unsoldItems: 1, withdrawnItems: 1 });
    });

    it('reports the tag pool and the share of listings that carry the tag they need', async () => {
      const { body } = await analytics();
      // Tags: the NFC-bound listing's, one per lot (A-F; withdrawn E keeps its tag), and one spare.
      // Needing one: saved, bound, live D, sold A B C = 6; of them all but the saved listing have one.
      expect(body.nfc).toEqual({ provisionedTags: 8, boundTags: 7, availableTags: 1, boundShare: 5 / 6 });
    });

    it('sums the sales from orders paid in full: revenue, items sold and the average to the cent', async () => {
      const { body } = await analytics();
      // C's $50 and A's $85; B's order is paid in part only.
      expect(body.sales).toEqual({ revenue: 135, itemsSold: 2, averageSalePrice: 67.5 });
    });

    it('buckets bids and revenue on their UTC days, without private maximum raises or retracted bids', async () => {
      const { body } = await analytics('?days=7');
      expect(body.series.bidsPerDay).toEqual([
        { date: '2031-04-27', bids: 0 },
        { date: '2031-04-28', bids: 0 },
        { date: '2031-04-29', bids: 0 },
        { date: '2031-04-30', bids: 0 },
        // A: 51, 55; B: 110, 120 and Ann's automatic 121 (not her $200 maximum raise); C: 25.
        { date: DAY_1, bids: 6 },
        // D: 31 (Ann's 35 was retracted); A: 60.
        { date: DAY_2, bids: 2 },
        { date: DAY_3, bids: 1 },
      ]);
      expect(body.series.revenuePerDay).toEqual([
        { date: '2031-04-27', revenue: 0 },
        { date: '2031-04-28', revenue: 0 },
        { date: '2031-04-29', revenue: 0 },
        { date: '2031-04-30', revenue: 0 },
        { date: DAY_1, revenue: 0 },
        { date: DAY_2, revenue: 50 },
        { date: DAY_3, revenue: 85 },
      ]);
    });

    it('keeps the series to the window: days=2 starts yesterday', async () => {
      const { body } = await analytics('?days=2');
      expect(body.series).toEqual({
        bidsPerDay: [{ date: DAY_2, bids: 2 }, { date: DAY_3, bids: 1 }],
        revenuePerDay: [{ date: DAY_2, revenue: 50 }, { date: DAY_3, revenue: 85 }],
      });
      // The totals stay all-time whatever the window.
      expect(body.sales.revenue).toBe(135);
    });

    it('ranks live and sold lots by price, with their bid counts', async () => {
      const { body } = await analytics();
      const expected = [
        { lot: lots.B, title: 'Lot B', status: 'SOLD', price: 121, bidCount: 3, endsAt: at(DAY_3, '12:00:00') },
        { lot: lots.A, title: 'Lot A', status: 'SOLD', price: 60, bidCount: 3, endsAt: at(DAY_3, '12:00:00') },
        { lot: lots.D, title: 'Lot D', status: 'LIVE', price: 40, bidCount: 2, endsAt: at('2031-05-06', '12:00:00') },
        { lot: lots.C, title: 'Lot C', status: 'SOLD', price: 25, bidCount: 1, endsAt: at(DAY_2, '12:00:00') },
      ].map(({ lot: { listingId, slug, auctionId }, endsAt, ...rest }) => ({ listingId, slug, auctionId, ...rest, endsAt: endsAt.toISOString() }));
      // Withdrawn E and unsold F are not lots anyone can buy or has bought.
      expect(body.topLots).toEqual(expected);

      const topTwo = await analytics('?topLots=2');
      expect(topTwo.body.topLots).toEqual(expected.slice(0, 2));
    });
  });
});

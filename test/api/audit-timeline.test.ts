import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuctionTimeline } from '../../api/contracts/audit';
import { API_BACKENDS, startTestApi, type TestApi } from '../support/api';
import { createMarketplaceListing } from '../support/marketplace';

const MINUTE = 60_000;
let now = new Date('2031-06-01T16:00:00.000Z');
const clock = () => now;

type Account = Awaited<ReturnType<TestApi['signUp']>>;

/**
 * The timeline through HTTP: the engine's own tests assert every step's words and figures
 * (test/engine/auction/timeline*.test.ts); here, that the route reads both streams, interleaves
 * them in log order, presents dollars, keeps maxima private while the auction runs, and honours asOf.
 */
describe.each(API_BACKENDS)('GET /api/audit/auctions/{auctionId}/timeline on %s', (backend) => {
  let api: TestApi;
  let admin: Account;
  let auditor: Account;
  let rival: Account;
  let buyer: Account;
  let auctionId: string;
  let rivalBidId: string;
  const start = now;

  const timeline = async (query = '', token = auditor.tokens.accessToken) => {
    const answer = await api.call('GET', `/api/audit/auctions/${auctionId}/timeline${query}`, { token });
    return answer as { status: number; body: AuctionTimeline & { message?: string } };
  };
  const bid = (account: Account, body: Record<string, unknown>) =>
    api.call('POST', '/api/bids', { token: account.tokens.accessToken, body: { auctionId, ...body } });

  beforeAll(async () => {
    now = start; // each backend replays the same hour on its own database
    api = await startTestApi(backend, { clock });
    [admin, auditor, rival, buyer] = [await api.signUp('ADMIN'), await api.signUp('AUDITOR'), await api.signUp('BUYER'), await api.signUp('BUYER')];
    ({ auctionId } = (await createMarketplaceListing(api, {
      price: 50_000,
      endsAt: new Date(start.getTime() + 10 * MINUTE),
      rules: {
        incrementTable: [
          { from: 0, increment: 1_000 },
          { from: 50_000, increment: 2_500 },
          { from: 100_000, increment: 5_000 },
        ],
        reservePrice: 55_000,
        softClose: { windowSeconds: 180, latestEndsAt: new Date(start.getTime() + 4 * 60 * MINUTE).toISOString() },
      },
    })) as { auctionId: string });

    now = new Date(start.getTime() + MINUTE);
    const placed = await bid(rival, { amount: 525, maxAmount: 700 });
    expect(placed.status).toBe(201);
    rivalBidId = placed.body.id;
    expect((await bid(buyer, { amount: 560 })).status).toBe(409); // below $550 + $25
    now = new Date(start.getTime() + 8 * MINUTE); // inside the 3-minute window: the end moves
    expect((await bid(buyer, { amount: 600 })).status).toBe(201);
  });
  afterAll(async () => api.close());

  it('while the auction runs: both streams interleaved, dollars, the rules as scheduled, maxima hidden', async () => {
    const { status, body } = await timeline();
    expect(status).toBe(200);
    expect(body.maximaRevealed).toBe(false);
    expect(body.rules).toMatchObject({
      startingPrice: 500,
      reservePrice: 550,
      buyNowPrice: null,
      incrementTable: [
        { from: 0, to: 499.99, increment: 10 },
        { from: 500, to: 999.99, increment: 25 },
        { from: 1000, to: null, increment: 50 },
      ],
      softClose: { windowSeconds: 180 },
    });
    expect(body.steps.map((step) => [step.step, step.kind, step.outcome, step.summary.price])).toEqual([
      [0, 'EVENT', 'SCHEDULED', 500],
      [1, 'EVENT', 'OPENED', 500],
      [2, 'EVENT', 'ACCEPTED', 550],
      [3, 'REFUSED', 'REFUSED', 550],
      [4, 'EVENT', 'ACCEPTED', 625],
      [5, 'EVENT', 'EXTENDED', 625],
    ]);
    const [, , accepted, refused, answered, extended] = body.steps;
    expect(accepted!.explanation[0]).toBe('Accepted: $525.00 is at least $500.00 + the $25.00 increment of the $500.00–$999.99 band');
    expect(accepted!.tried).toEqual({ attempt: 'BID', bidId: rivalBidId, bidderId: rival.user.id, amount: 525, maximum: null });
    expect(refused).toMatchObject({ revision: null, type: 'BidRejected', actorId: buyer.user.id, explanation: ['Refused: Bid must be at least $575.00'] });
    expect(answered!.explanation).toContain(`Bidder …${rival.user.id.slice(-4)}'s proxy answered automatically at $625.00`);
    expect(extended!.explanation).toEqual(['End moved from 16:10:00 to 16:11:00: bid inside the 3-minute soft-close window (latest possible end 20:00:00)']);
    // The rival's $700 maximum, as money or as a number; not as digits inside an id or a position.
    expect(JSON.stringify(body)).not.toMatch(/\$700\.00|":700[,}]/);
    expect(body.summary).toMatchObject({ status: 'ACTIVE', price: 625, leaderId: rival.user.id, minimumNextBid: 650, reserveMet: true, bidCount: 2 });
  });

  it('after a retraction and the close: the recomputed leader, the sale, and the maxima revealed', async () => {
    const retracted = await api.call('POST', `/api/admin/auctions/${auctionId}/bids/${rivalBidId}/retract`, {
      token: admin.tokens.accessToken,
      body: { reason: 'Shill bidding' },
    });
    expect(retracted.status).toBe(200);
    now = new Date(start.getTime() + 12 * MINUTE);
    await api.deps.lifecycle!.runOnce();

    const { body } = await timeline('', admin.tokens.accessToken);
    expect(body.maximaRevealed).toBe(true);
    expect(body.steps.slice(6).map((step) => [step.outcome, step.summary.status, step.summary.price, step.summary.leaderId])).toEqual([
      ['RETRACTED', 'ACTIVE', 600, buyer.user.id],
      ['CLOSED', 'ENDED', 600, buyer.user.id],
    ]);
    expect(body.steps[6]!.explanation[0]).toBe(`…${rival.user.id.slice(-4)}'s bid …${rivalBidId.slice(-4)} retracted by an admin: Shill bidding`);
    expect(body.steps[7]!.explanation).toEqual([`Closed: sold to …${buyer.user.id.slice(-4)} for $600.00; reserve $550.00 met`]);
    expect(body.steps[2]!.tried!.maximum).toBe(700);
    expect(body.steps[4]!.explanation).toContain(`Bidder …${rival.user.id.slice(-4)}'s maximum of $700.00 answered automatically at $625.00`);
  });

  it('asOf a revision or a time gives the auction as it stood then', async () => {
    const whole = (await timeline()).body;
    const atBid = await timeline('?asOf=2');
    expect(atBid.body.asOf).toBe(2);
    expect(atBid.body.steps).toEqual(whole.steps.slice(0, 3));
    expect(atBid.body.summary).toEqual(whole.steps[2]!.summary);

    const atTime = await timeline(`?asOf=${encodeURIComponent(new Date(start.getTime() + 5 * MINUTE).toISOString())}`);
    expect(atTime.body.steps).toEqual(whole.steps.slice(0, 4)); // the refusal at +1 min is in, the +8 min bid is not
    expect(atTime.body.summary.price).toBe(550);
  });

  it('answers 404 for an unknown auction, 400 for an asOf it never reached or a bad one, 401/403 by role', async () => {
    const unknown = await api.call('GET', `/api/audit/auctions/${randomUUID()}/timeline`, { token: auditor.tokens.accessToken });
    expect([unknown.status, unknown.body.message]).toEqual([404, 'Auction not found']);
    const beyond = await timeline('?asOf=99');
    expect(beyond.status).toBe(400);
    expect(beyond.body.message).toMatch(/asOf: this auction has no revision 99/);
    expect((await timeline('?asOf=2001-01-01T00:00:00Z')).status).toBe(400);
    expect((await timeline('?asOf=soon')).status).toBe(400);
    expect((await api.call('GET', `/api/audit/auctions/${auctionId}/timeline`)).status).toBe(401);
    expect((await timeline('', buyer.tokens.accessToken)).status).toBe(403);
    expect((await api.call('GET', '/api/audit/auctions/not-a-uuid/timeline', { token: auditor.tokens.accessToken })).status).toBe(400);
  });
});

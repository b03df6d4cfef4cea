import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auctionStreamId } from '../../engine/domain';
import { API_BACKENDS, startTestApi, type TestApi } from '../support/api';
import { caughtUpWith, createMarketplaceListing } from '../support/marketplace';

type Account = Awaited<ReturnType<TestApi['signUp']>>;

describe.each(API_BACKENDS)('POST /api/admin/auctions/{auctionId}/bids/{bidId}/retract on %s', (backend) => {
  let api: TestApi;
  let admin: Account;
  let ann: Account;
  let bob: Account;

  beforeAll(async () => {
    api = await startTestApi(backend);
    [admin, ann, bob] = [await api.signUp('ADMIN'), await api.signUp('BUYER'), await api.signUp('BUYER')];
  });
  afterAll(async () => api.close());

  /** A live lot at $50 on which Ann bids $51, then Bob $60 (Bob leads). */
  async function contested() {
    const { auctionId } = await createMarketplaceListing(api, { price: 50 });
    const bid = async (bidder: Account, amount: number) =>
      (await api.call('POST', '/api/bids', { token: bidder.tokens.accessToken, body: { auctionId, amount } })).body.id as string;
    const annBid = await bid(ann, 51);
    const bobBid = await bid(bob, 60);
    return { auctionId: auctionId!, annBid, bobBid };
  }
  const retract = (auctionId: string, bidId: string, body: unknown, token = admin.tokens.accessToken) =>
    api.call('POST', `/api/admin/auctions/${auctionId}/bids/${bidId}/retract`, { token, body });

  it("retracts the leader's bid with a reason: the lead and price go back to the bid left, on record with the admin as actor", async () => {
    const { auctionId, annBid, bobBid } = await contested();
    const answer = await retract(auctionId, bobBid, { reason: '  Bidder asked: typo  ' });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ auctionId, bidId: bobBid, reason: 'Bidder asked: typo', auction: { currentPrice: 51, currentLeaderId: ann.user.id, minimumBid: 52 } });
    const events = await api.deps.eventStore.readStream(auctionStreamId(auctionId));
    const retracted = events.at(-1)!;
    expect(retracted).toMatchObject({ type: 'BidRetracted', data: { bidId: bobBid, reason: 'Bidder asked: typo' }, metadata: { actorId: admin.user.id } });
    await caughtUpWith(api, auctionStreamId(auctionId));
    const history = await api.call('GET', `/api/bids/auction/${auctionId}`);
    expect(history.body.find((bid: { id: string }) => bid.id === bobBid)).toMatchObject({ status: 'RETRACTED' });
    expect(history.body.find((bid: { id: string }) => bid.id === annBid)).toMatchObject({ status: 'ACCEPTED' });
  });

  it('needs a reason (400), a bid of this auction (404) not already retracted (409), and changes nothing when refused', async () => {
    const { auctionId, bobBid } = await contested();
    const before = (await api.deps.eventStore.readStream(auctionStreamId(auctionId))).length;
    const blank = await retract(auctionId, bobBid, { reason: '   ' });
    expect(blank.status).toBe(400);
    expect(blank.body.message).toBe('A reason is required');
    expect((await retract(auctionId, bobBid, {})).status).toBe(400);
    const unknown = await retract(auctionId, crypto.randomUUID(), { reason: 'x' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe('Bid not found');
    expect((await api.deps.eventStore.readStream(auctionStreamId(auctionId))).length).toBe(before);
    expect((await retract(auctionId, bobBid, { reason: 'first' })).status).toBe(200);
    const again = await retract(auctionId, bobBid, { reason: 'second' });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('This bid has already been retracted');
    expect((await retract('not-a-uuid', bobBid, { reason: 'x' })).status).toBe(400);
  });

  it('is for admins only: anonymous 401, a buyer 403 (even for their own bid)', async () => {
    const { auctionId, bobBid } = await contested();
    expect((await api.call('POST', `/api/admin/auctions/${auctionId}/bids/${bobBid}/retract`, { body: { reason: 'x' } })).status).toBe(401);
    expect((await retract(auctionId, bobBid, { reason: 'mine' }, bob.tokens.accessToken)).status).toBe(403);
  });
});

import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FORWARDED_COMMANDS_PATH } from '../../api/cluster/auction-command-router';
import { PEER_SIGNATURE_HEADER, signPeerRequest, verifyPeerRequest } from '../../api/cluster/peer-signature';
import { auctionStreamId, commandMetadata } from '../../engine/domain';
import { API_BACKENDS, startTestApi, type TestApi } from '../support/api';
import { createMarketplaceListing } from '../support/marketplace';

type Account = Awaited<ReturnType<TestApi['signUp']>>;

/** How many bids and buy-nows this process decided where: local, forwarded, fallback. */
async function routed(api: TestApi): Promise<Record<string, number>> {
  const metric = await api.deps.metrics.registry.getSingleMetric('provenance_auction_commands_total')!.get();
  return Object.fromEntries(metric.values.map((sample) => [String(sample.labels.route), sample.value]));
}

async function conflicts(api: TestApi): Promise<number> {
  const metric = await api.deps.metrics.registry.getSingleMetric('provenance_event_store_appends_total')!.get();
  return metric.values.find((sample) => sample.labels.outcome === 'conflict')?.value ?? 0;
}

describe('peer signatures', () => {
  const secret = 'test-secret-test-secret-test-secret-0123456789';
  it('accept the body signed with the shared secret, recently, and nothing else', () => {
    const body = JSON.stringify({ type: 'PlaceBid' });
    const now = 1_800_000_000_000;
    const signature = signPeerRequest(secret, body, now);
    expect(verifyPeerRequest(secret, body, signature, now + 1_000)).toBe(true);
    expect(verifyPeerRequest(secret, `${body} `, signature, now)).toBe(false);
    expect(verifyPeerRequest(`${secret}x`, body, signature, now)).toBe(false);
    expect(verifyPeerRequest(secret, body, signature, now + 60_000)).toBe(false);
    expect(verifyPeerRequest(secret, body, undefined, now)).toBe(false);
    expect(verifyPeerRequest(secret, body, `${now}.zz`, now)).toBe(false);
  });
});

describe.each(API_BACKENDS)('one owner per hot auction, two API processes on %s', (backend) => {
  let first: TestApi;
  let second: TestApi;
  beforeAll(async () => {
    first = await startTestApi(backend, { forwarding: true });
    second = await startTestApi(backend, { sharing: first, forwarding: true });
  });
  afterAll(async () => {
    await second.close();
    await first.close();
  });

  const liveAuction = async () => (await createMarketplaceListing(first, { price: 5_000 })).auctionId!;
  const bid = (api: TestApi, account: Account, auctionId: string, amount: number) =>
    api.call('POST', '/api/bids', { token: account.tokens.accessToken, body: { auctionId, amount }, headers: { 'idempotency-key': randomUUID() } });

  it('decides every bid of an auction in the process that took it first; the other forwards, refusals included', async () => {
    const auctionId = await liveAuction();
    const [alice, bob] = await Promise.all([first.signUp('BUYER'), first.signUp('BUYER')]);
    const firstBefore = await routed(first);
    const secondBefore = await routed(second);

    expect((await bid(first, alice, auctionId, 60)).status).toBe(201);
    const owner = await first.deps.db.selectFrom('auction_owners').selectAll().where('auction_id', '=', auctionId).executeTakeFirstOrThrow();
    expect(owner.instance_url).toBe(first.url);

    const forwarded = await bid(second, bob, auctionId, 70);
    expect(forwarded.status).toBe(201);
    expect(forwarded.body).toMatchObject({ auctionId, bidderId: bob.user.id, amount: 70, auction: { currentPrice: 70, currentLeaderId: bob.user.id } });
    const refused = await bid(second, alice, auctionId, 65);
    expect([refused.status, refused.body.code, refused.body.message]).toEqual([409, 'BID_NOT_ABOVE_CURRENT_PRICE', 'Bid must be higher than current price of $70.00']);

    expect((await routed(first)).local! - (firstBefore.local ?? 0)).toBe(1);
    expect((await routed(second)).forwarded! - (secondBefore.forwarded ?? 0)).toBe(2);
    const bids = (await first.deps.eventStore.readStream(auctionStreamId(auctionId))).filter((event) => event.type === 'BidPlaced');
    expect(bids.map((event) => (event.data as { amount: number }).amount)).toEqual([6_000, 7_000]);
  });

  it('batches a crowd of bids sent to both processes in one queue: no append loses a revision race', async () => {
    const auctionId = await liveAuction();
    const bidders = await Promise.all(Array.from({ length: 20 }, () => first.signUp('BUYER')));
    const conflictsBefore = (await conflicts(first)) + (await conflicts(second));
    const answers = await Promise.all(bidders.map((bidder, index) => bid(index % 2 === 0 ? first : second, bidder, auctionId, 51 + index)));
    for (const answer of answers) expect([201, 409], JSON.stringify(answer.body)).toContain(answer.status);
    expect((await conflicts(first)) + (await conflicts(second)) - conflictsBefore).toBe(0);
    const accepted = answers.filter((answer) => answer.status === 201).length;
    const bids = (await first.deps.eventStore.readStream(auctionStreamId(auctionId))).filter((event) => event.type === 'BidPlaced');
    expect(bids).toHaveLength(accepted);
  });

  it('refuses a forwarded command that a peer did not sign, whatever token it carries', async () => {
    const auctionId = await liveAuction();
    const buyer = await first.signUp('BUYER');
    const command = {
      type: 'PlaceBid',
      data: { auctionId, bidId: randomUUID(), amount: 9_900, maximum: null },
      metadata: commandMetadata({ userId: buyer.user.id, roles: ['BUYER'] }, new Date(), { correlationId: randomUUID(), commandId: randomUUID() }),
    };
    const body = JSON.stringify(command);
    const forged = signPeerRequest('not-the-shared-secret-not-the-shared-secret', body);
    const attempts: Record<string, string>[] = [{}, { authorization: `Bearer ${buyer.tokens.accessToken}` }, { [PEER_SIGNATURE_HEADER]: forged }];
    for (const headers of attempts) {
      const answer = await first.call('POST', FORWARDED_COMMANDS_PATH, { body, headers });
      expect(answer.status, JSON.stringify(headers)).toBe(401);
    }
    const bids = (await first.deps.eventStore.readStream(auctionStreamId(auctionId))).filter((event) => event.type === 'BidPlaced');
    expect(bids).toHaveLength(0);
    const docs = await first.call('GET', '/docs/json');
    expect(docs.body.paths).not.toHaveProperty([FORWARDED_COMMANDS_PATH]);
  });

  it('lets the other process take an auction over when its owner stops, without losing a bid', async () => {
    const third = await startTestApi(backend, { sharing: first, forwarding: true });
    const auctionId = await liveAuction();
    const [alice, bob] = await Promise.all([first.signUp('BUYER'), first.signUp('BUYER')]);
    expect((await bid(third, alice, auctionId, 60)).status).toBe(201);
    expect((await bid(second, bob, auctionId, 70)).status).toBe(201); // forwarded to the third process
    await third.close(); // gives its leases back
    const afterOwnerLeft = await bid(second, alice, auctionId, 80);
    expect(afterOwnerLeft.status).toBe(201);
    expect((await bid(second, bob, auctionId, 90)).status).toBe(201);
    const owner = await first.deps.db.selectFrom('auction_owners').selectAll().where('auction_id', '=', auctionId).executeTakeFirstOrThrow();
    expect(owner.instance_url).toBe(second.url);
    const bids = (await first.deps.eventStore.readStream(auctionStreamId(auctionId))).filter((event) => event.type === 'BidPlaced');
    expect(bids.map((event) => (event.data as { amount: number }).amount)).toEqual([6_000, 7_000, 8_000, 9_000]);
  });
});

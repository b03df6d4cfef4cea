import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auctionRejectionsStreamId, auctionStreamId } from '../../engine/domain';
import { API_BACKENDS, startTestApi, type TestApi } from '../support/api';
import { caughtUpWith, createMarketplaceListing, type MarketplaceListing } from '../support/marketplace';

const HOUR = 60 * 60 * 1000;
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

type Account = Awaited<ReturnType<TestApi['signUp']>>;

describe.each(API_BACKENDS)('bids on %s', (backend) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startTestApi(backend);
  });
  afterAll(async () => api.close());

  /** A live auction at $50.00 with the spec's rules (every bid adds at least $1). */
  const auction = async (options: Parameters<typeof createMarketplaceListing>[1] = {}) => {
    const listing = await createMarketplaceListing(api, { price: 5_000, ...options });
    return { ...listing, auctionId: listing.auctionId! };
  };
  const bid = (account: Account | undefined, body: unknown, headers?: Record<string, string>) =>
    api.call('POST', '/api/bids', { ...(account ? { token: account.tokens.accessToken } : {}), body, ...(headers ? { headers } : {}) });
  /** The read models hold everything the auction's stream and its rejections stream say. */
  const projected = (auctionId: string) => caughtUpWith(api, auctionStreamId(auctionId), auctionRejectionsStreamId(auctionId));

  it('documents its routes in the OpenAPI description', async () => {
    const { body } = await api.call('GET', '/docs/json');
    expect(body.paths).toHaveProperty(['/api/bids', 'post']);
    expect(body.paths).toHaveProperty(['/api/bids/buy-now', 'post']);
    for (const path of ['/api/bids/{id}', '/api/bids/auction/{auctionId}', '/api/bids/user/history', '/api/bids/user/rejections']) {
      expect(body.paths, path).toHaveProperty([path, 'get']);
    }
    const header = body.paths['/api/bids'].post.parameters.find((parameter: { name: string }) => parameter.name === 'idempotency-key');
    expect(header).toMatchObject({ in: 'header', required: false });
  });

  describe('POST /api/bids', () => {
    let lot: MarketplaceListing & { auctionId: string };
    let buyer: Account;
    beforeAll(async () => {
      lot = await auction();
      buyer = await api.signUp('BUYER');
    });

    it('answers 401 without a sign-in, and bids nothing', async () => {
      const response = await bid(undefined, { auctionId: lot.auctionId, amount: 60 });
      expect(response.status).toBe(401);
      expect(response.body).toMatchObject({ statusCode: 401, message: 'Authentication required' });
      const forged = await api.call('POST', '/api/bids', { token: 'a.b.c', body: { auctionId: lot.auctionId, amount: 60 } });
      expect(forged.status).toBe(401);
      expect(await api.deps.eventStore.readStream(auctionStreamId(lot.auctionId))).not.toContainEqual(expect.objectContaining({ type: 'BidPlaced' }));
    });

    it('accepts a bid above the current price: 201 with the bid and the auction as it now stands', async () => {
      const response = await bid(buyer, { auctionId: lot.auctionId, amount: 51 });
      expect(response.status).toBe(201);
      expect(response.body).toEqual({
        id: expect.stringMatching(UUID),
        auctionId: lot.auctionId,
        bidderId: buyer.user.id,
        amount: 51,
        maxAmount: null,
        placedAt: expect.stringMatching(ISO),
        status: 'ACCEPTED',
        kind: 'BID',
        auction: { currentPrice: 51, currentLeaderId: buyer.user.id, status: 'ACTIVE', minimumBid: 52, endsAt: expect.stringMatching(ISO) },
        // Signed at once; test/api/verifiable-history.test.ts checks it.
        receipt: expect.objectContaining({ bidId: response.body.id, amount: 51, revision: 2 }),
      });
      await projected(lot.auctionId);

      const fetched = await api.call('GET', `/api/bids/${response.body.id}`);
      expect(fetched.status).toBe(200);
      expect(fetched.body).toEqual({
        id: response.body.id,
        auctionId: lot.auctionId,
        bidderId: buyer.user.id,
        amount: 51,
        placedAt: response.body.placedAt,
        status: 'ACCEPTED',
        kind: 'BID',
      });
      const listing = await api.call('GET', `/api/public/listings/${lot.slug}`);
      expect(listing.body.price).toBe('51.00');
    });

    it('refuses a bid not above the current price with 409 and the engine\'s message', async () => {
      const other = await api.signUp('BUYER');
      const fresh = await auction();
      const tooLow = await bid(other, { auctionId: fresh.auctionId, amount: 50 });
      expect(tooLow.status).toBe(409);
      expect(tooLow.body).toEqual({
        statusCode: 409,
        error: 'Conflict',
        message: 'Bid must be higher than current price of $50.00',
        code: 'BID_NOT_ABOVE_CURRENT_PRICE',
      });
      const belowIncrement = await bid(other, { auctionId: fresh.auctionId, amount: 50.5 });
      expect(belowIncrement.status).toBe(409);
      expect(belowIncrement.body).toMatchObject({ message: 'Bid must be at least $51.00', code: 'BID_BELOW_INCREMENT' });
    });

    it('refuses a bid on your own listing', async () => {
      const sellerAccount = await api.signUp('ADMIN');
      const own = await auction({ seller: { userId: sellerAccount.user.id, roles: sellerAccount.user.roles } });
      const response = await bid(sellerAccount, { auctionId: own.auctionId, amount: 60 });
      expect(response.status).toBe(409);
      expect(response.body).toMatchObject({ message: 'You cannot bid on your own listing', code: 'SELLER_CANNOT_BID' });
    });

    it('refuses a bid on an auction that has ended', async () => {
      const now = api.deps.clock().getTime();
      const ended = await auction({ decidedAt: new Date(now - 2 * HOUR), startsAt: new Date(now - 2 * HOUR), endsAt: new Date(now - HOUR) });
      const response = await bid(buyer, { auctionId: ended.auctionId, amount: 60 });
      expect(response.status).toBe(409);
      expect(response.body).toMatchObject({ message: 'Auction has ended', code: 'AUCTION_ENDED' });
      const shown = await api.call('GET', `/api/public/listings/${ended.listingId}/auction`);
      expect(shown.body).toMatchObject({ isActive: false });
    });

    it('answers 404 "Auction not found" for an auction that does not exist', async () => {
      const response = await bid(buyer, { auctionId: randomUUID(), amount: 60 });
      expect(response.status).toBe(404);
      expect(response.body).toMatchObject({ statusCode: 404, message: 'Auction not found', code: 'AUCTION_NOT_FOUND' });
    });

    it('refuses malformed bids with 400 naming the field', async () => {
      const cases: Array<[unknown, string]> = [
        [{ auctionId: 'not-an-id', amount: 60 }, 'body.auctionId'],
        [{ auctionId: lot.auctionId }, 'body.amount'],
        [{ auctionId: lot.auctionId, amount: '60' }, 'body.amount'],
        [{ auctionId: lot.auctionId, amount: -5 }, 'body.amount'],
        [{ auctionId: lot.auctionId, amount: 0 }, 'body.amount'],
        [{ auctionId: lot.auctionId, amount: 1e12 }, 'body.amount'],
        [{ auctionId: lot.auctionId, amount: 60, maxAmount: 'lots' }, 'body.maxAmount'],
        [{ auctionId: lot.auctionId, amount: 60, bidderId: 'someone-else' }, 'bidderId'],
      ];
      for (const [body, field] of cases) {
        const response = await bid(buyer, body);
        expect(response.status, JSON.stringify(body)).toBe(400);
        expect(response.body.message, JSON.stringify(body)).toContain(field);
      }
      const notJson = await api.call('POST', '/api/bids', { token: buyer.tokens.accessToken, body: '{"auctionId":', headers: { 'content-type': 'application/json' } });
      expect(notJson.status).toBe(400);
    });

    it('refuses amounts with fractions of a cent instead of rounding them', async () => {
      for (const [body, message] of [
        [{ auctionId: lot.auctionId, amount: 70.555 }, 'Amount must be in whole cents'],
        [{ auctionId: lot.auctionId, amount: 70, maxAmount: 80.001 }, 'Maximum amount must be in whole cents'],
      ] as const) {
        const response = await bid(buyer, body);
        expect(response.status).toBe(400);
        expect(response.body).toMatchObject({ statusCode: 400, message, code: 'AMOUNT_NOT_WHOLE_CENTS' });
      }
    });

    it('takes amounts in dollars and cents', async () => {
      const fresh = await auction();
      const response = await bid(buyer, { auctionId: fresh.auctionId, amount: 51.25, maxAmount: 75.5 });
      expect(response.status).toBe(201);
      expect(response.body).toMatchObject({ amount: 51.25, maxAmount: 75.5, auction: { currentPrice: 51.25, minimumBid: 52.25 } });
    });
  });

  describe('proxy bidding and bid history', () => {
    let lot: MarketplaceListing & { auctionId: string };
    let alice: Account;
    let bob: Account;
    let aliceRaise: { id: string };

    beforeAll(async () => {
      lot = await auction();
      [alice, bob] = await Promise.all([api.signUp('BUYER'), api.signUp('BUYER')]);
      // Alice bids $55 with a maximum of $100; Bob's $60 is answered by Alice's proxy at $61.
      expect((await bid(alice, { auctionId: lot.auctionId, amount: 55, maxAmount: 100 })).status).toBe(201);
      const bobs = await bid(bob, { auctionId: lot.auctionId, amount: 60 });
      expect(bobs.status).toBe(201);
      expect(bobs.body.auction).toMatchObject({ currentPrice: 61, currentLeaderId: alice.user.id, minimumBid: 62 });
      // Alice, leading, raises her maximum: the price does not move against her.
      const raise = await bid(alice, { auctionId: lot.auctionId, amount: 62, maxAmount: 150 });
      expect(raise.status).toBe(201);
      expect(raise.body).toMatchObject({ kind: 'MAXIMUM', amount: 62, maxAmount: 150, auction: { currentPrice: 61, currentLeaderId: alice.user.id } });
      aliceRaise = raise.body;
      // Bob tries $50: refused, and kept on record.
      expect((await bid(bob, { auctionId: lot.auctionId, amount: 50 })).status).toBe(409);
      await projected(lot.auctionId);
    });

    it('shows the auction\'s history newest first, proxy bids as AUTO, without anyone\'s maximum', async () => {
      const response = await api.call('GET', `/api/bids/auction/${lot.auctionId}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('x-total-count')).toBe('3');
      expect(response.body.map((row: { bidderId: string; amount: number; kind: string; status: string }) => [row.bidderId, row.amount, row.kind, row.status])).toEqual([
        [alice.user.id, 61, 'AUTO', 'ACCEPTED'],
        [bob.user.id, 60, 'BID', 'ACCEPTED'],
        [alice.user.id, 55, 'BID', 'ACCEPTED'],
      ]);
      for (const row of response.body) {
        expect(Object.keys(row).sort()).toEqual(['amount', 'auctionId', 'bidderId', 'id', 'kind', 'placedAt', 'status']);
      }
      expect(JSON.stringify(response.body)).not.toMatch(/:(100|150)\b/);
    });

    it('pages the history with limit and offset', async () => {
      const page = await api.call('GET', `/api/bids/auction/${lot.auctionId}?limit=2&offset=1`);
      expect(page.body.map((row: { amount: number }) => row.amount)).toEqual([60, 55]);
      const rest = await api.call('GET', `/api/bids/auction/${lot.auctionId}?limit=1&offset=2`);
      expect(rest.body.map((row: { amount: number }) => row.amount)).toEqual([55]);
      const past = await api.call('GET', `/api/bids/auction/${lot.auctionId}?offset=3`);
      expect(past.body).toEqual([]);
      for (const query of ['limit=0', 'limit=101', 'offset=-1', 'limit=ten']) {
        const refused = await api.call('GET', `/api/bids/auction/${lot.auctionId}?${query}`);
        expect(refused.status, query).toBe(400);
        expect(refused.body.message, query).toContain(`querystring.${query.split('=')[0]}`);
      }
    });

    it('answers 404 for an unknown auction and 400 for a malformed id', async () => {
      const unknown = await api.call('GET', `/api/bids/auction/${randomUUID()}`);
      expect(unknown.status).toBe(404);
      expect(unknown.body.message).toBe('Auction not found');
      const garbage = await api.call('GET', '/api/bids/auction/not-an-id');
      expect(garbage.status).toBe(400);
      expect(garbage.body.message).toContain('params.auctionId');
    });

    it('shows one bid by id, a proxy bid too, never its maximum', async () => {
      const history = await api.call('GET', `/api/bids/auction/${lot.auctionId}`);
      const [auto, , first] = history.body;
      const fetchedAuto = await api.call('GET', `/api/bids/${encodeURIComponent(auto.id)}`);
      expect(fetchedAuto.status).toBe(200);
      expect(fetchedAuto.body).toEqual(auto);
      const fetchedFirst = await api.call('GET', `/api/bids/${first.id}`);
      expect(fetchedFirst.body).toEqual(first);
      expect(fetchedFirst.body).not.toHaveProperty('maximum');
      expect(fetchedFirst.body).not.toHaveProperty('maxAmount');

      const unknown = await api.call('GET', `/api/bids/${randomUUID()}`);
      expect(unknown.status).toBe(404);
      expect(unknown.body).toMatchObject({ message: 'Bid not found', code: 'BID_NOT_FOUND' });
      const garbage = await api.call('GET', '/api/bids/%27%3B%20DROP%20TABLE%20bids');
      expect(garbage.status).toBe(400);
      expect(garbage.body.message).toContain('params.id');
    });

    it('shows a bidder their own history, maximums and raises included, with where each auction stands', async () => {
      const mine = await api.call('GET', '/api/bids/user/history', { token: alice.tokens.accessToken });
      expect(mine.status).toBe(200);
      expect(mine.body.map((row: { amount: number; maxAmount: number | null; kind: string }) => [row.kind, row.amount, row.maxAmount])).toEqual([
        ['MAXIMUM', 62, 150],
        ['AUTO', 61, null],
        ['BID', 55, 100],
      ]);
      expect(mine.body[0]).toEqual({
        id: aliceRaise.id,
        auctionId: lot.auctionId,
        bidderId: alice.user.id,
        amount: 62,
        maxAmount: 150,
        placedAt: expect.stringMatching(ISO),
        status: 'ACCEPTED',
        kind: 'MAXIMUM',
        listingId: lot.listingId,
        listingTitle: 'Game-Worn Jersey',
        listingSlug: lot.slug,
        auctionStatus: 'ACTIVE',
        currentPrice: 61,
        endsAt: expect.stringMatching(ISO),
        isLeading: true,
        result: null,
        isWinner: false,
      });

      const bobs = await api.call('GET', '/api/bids/user/history?limit=5', { token: bob.tokens.accessToken });
      expect(bobs.body.map((row: { amount: number; isLeading: boolean }) => [row.amount, row.isLeading])).toEqual([[60, false]]);
      const paged = await api.call('GET', '/api/bids/user/history?limit=1&offset=1', { token: alice.tokens.accessToken });
      expect(paged.body.map((row: { amount: number }) => row.amount)).toEqual([61]);

      expect((await api.call('GET', '/api/bids/user/history')).status).toBe(401);
    });

    it('shows a bidder why their attempts were refused', async () => {
      const refused = await api.call('GET', '/api/bids/user/rejections', { token: bob.tokens.accessToken });
      expect(refused.status).toBe(200);
      expect(refused.body).toEqual([
        {
          bidId: expect.stringMatching(UUID),
          auctionId: lot.auctionId,
          attempt: 'BID',
          amount: 50,
          code: 'BID_NOT_ABOVE_CURRENT_PRICE',
          message: 'Bid must be higher than current price of $61.00',
          attemptedAt: expect.stringMatching(ISO),
        },
      ]);
      const alices = await api.call('GET', '/api/bids/user/rejections', { token: alice.tokens.accessToken });
      expect(alices.body).toEqual([]);
      expect((await api.call('GET', '/api/bids/user/rejections')).status).toBe(401);
    });
  });

  describe('POST /api/bids/buy-now', () => {
    const buyNow = (account: Account | undefined, body: unknown, headers?: Record<string, string>) =>
      api.call('POST', '/api/bids/buy-now', { ...(account ? { token: account.tokens.accessToken } : {}), body, ...(headers ? { headers } : {}) });

    it('sells the lot at its buy-now price: the auction closes, sold to the buyer, and takes no bid after', async () => {
      const lot = await auction({ rules: { buyNowPrice: 20_000 } });
      const buyer = await api.signUp('BUYER');
      const bought = await buyNow(buyer, { auctionId: lot.auctionId });
      expect(bought.status).toBe(201);
      expect(bought.body).toEqual({
        id: expect.stringMatching(UUID),
        auctionId: lot.auctionId,
        buyerId: buyer.user.id,
        amount: 200,
        purchasedAt: expect.stringMatching(ISO),
        auction: { status: 'ENDED', result: 'SOLD', finalPrice: 200, closedAt: bought.body.purchasedAt },
        receipt: expect.objectContaining({ bidId: bought.body.id, amount: 200, placedAt: bought.body.purchasedAt }),
      });
      await projected(lot.auctionId);
      const status = await api.call('GET', `/api/public/listings/${lot.listingId}/auction`);
      expect(status.body).toMatchObject({ status: 'ENDED', result: 'SOLD', winnerId: buyer.user.id, finalPrice: 200, buyNowAvailable: false });
      const late = await bid(await api.signUp('BUYER'), { auctionId: lot.auctionId, amount: 60 });
      expect(late.status).toBe(409);
    });

    it('is withdrawn by the first bid, not offered without a buy-now price, and never for your own lot', async () => {
      const lot = await auction({ rules: { buyNowPrice: 20_000 } });
      expect((await bid(await api.signUp('BUYER'), { auctionId: lot.auctionId, amount: 51 })).status).toBe(201);
      const withdrawn = await buyNow(await api.signUp('BUYER'), { auctionId: lot.auctionId });
      expect([withdrawn.status, withdrawn.body.message]).toEqual([409, 'Buy now is no longer available: bidding has started']);

      const plain = await auction();
      const notOffered = await buyNow(await api.signUp('BUYER'), { auctionId: plain.auctionId });
      expect([notOffered.status, notOffered.body.message]).toEqual([409, 'Buy now is not available for this auction']);

      const seller = await api.signUp('ADMIN');
      const own = await auction({ seller: { userId: seller.user.id, roles: seller.user.roles }, rules: { buyNowPrice: 20_000 } });
      const refused = await buyNow(seller, { auctionId: own.auctionId });
      expect([refused.status, refused.body.message]).toEqual([409, 'You cannot buy your own listing']);
    });

    it('answers 401 signed out, 400 for a malformed body, and a retry with the same key buys once', async () => {
      const lot = await auction({ rules: { buyNowPrice: 20_000 } });
      expect((await buyNow(undefined, { auctionId: lot.auctionId })).status).toBe(401);
      const buyer = await api.signUp('BUYER');
      const malformed = await buyNow(buyer, { auctionId: 'nope' });
      expect(malformed.status).toBe(400);
      expect(malformed.body.message).toContain('body.auctionId');

      const key = { 'idempotency-key': randomUUID() };
      const first = await buyNow(buyer, { auctionId: lot.auctionId }, key);
      const retry = await buyNow(buyer, { auctionId: lot.auctionId }, key);
      expect(first.status).toBe(201);
      expect([retry.status, retry.body]).toEqual([201, first.body]);
      const closings = (await api.deps.eventStore.readStream(auctionStreamId(lot.auctionId))).filter((event) => event.type === 'AuctionClosed');
      expect(closings).toHaveLength(1);
    });
  });

  describe('Idempotency-Key', () => {
    const bidEvents = async (auctionId: string) =>
      (await api.deps.eventStore.readStream(auctionStreamId(auctionId))).filter((event) => event.type === 'BidPlaced' || event.type === 'MaximumBidRaised');

    it('answers a retry with the first answer and bids once', async () => {
      const lot = await auction();
      const buyer = await api.signUp('BUYER');
      const key = randomUUID();
      const first = await bid(buyer, { auctionId: lot.auctionId, amount: 60 }, { 'idempotency-key': key });
      expect(first.status).toBe(201);
      const retry = await bid(buyer, { amount: 60, auctionId: lot.auctionId }, { 'idempotency-key': key });
      expect(retry.status).toBe(201);
      expect(retry.body).toEqual(first.body);
      expect(retry.headers.get('idempotent-replayed')).toBe('true');
      expect(await bidEvents(lot.auctionId)).toHaveLength(1);

      // Another bidder's key of the same text is theirs alone.
      const other = await api.signUp('BUYER');
      const theirs = await bid(other, { auctionId: lot.auctionId, amount: 70 }, { 'idempotency-key': key });
      expect(theirs.status).toBe(201);
      expect(theirs.body.bidderId).toBe(other.user.id);
      expect(await bidEvents(lot.auctionId)).toHaveLength(2);
    });

    it('answers 422 when the key comes back with a different request', async () => {
      const lot = await auction();
      const buyer = await api.signUp('BUYER');
      const key = 'retry-42';
      expect((await bid(buyer, { auctionId: lot.auctionId, amount: 60 }, { 'idempotency-key': key })).status).toBe(201);
      for (const body of [{ auctionId: lot.auctionId, amount: 61 }, { auctionId: lot.auctionId, amount: 60, maxAmount: 90 }]) {
        const reused = await bid(buyer, body, { 'idempotency-key': key });
        expect(reused.status).toBe(422);
        expect(reused.body).toEqual({
          statusCode: 422,
          error: 'Unprocessable Entity',
          message: 'Idempotency-Key was already used with a different request',
          code: 'IDEMPOTENCY_KEY_REUSED',
        });
      }
      expect(await bidEvents(lot.auctionId)).toHaveLength(1);
    });

    it('answers a retried refusal with the same refusal, without trying again', async () => {
      const lot = await auction();
      const buyer = await api.signUp('BUYER');
      const key = randomUUID();
      const first = await bid(buyer, { auctionId: lot.auctionId, amount: 50 }, { 'idempotency-key': key });
      expect(first.status).toBe(409);
      const retry = await bid(buyer, { auctionId: lot.auctionId, amount: 50 }, { 'idempotency-key': key });
      expect(retry.status).toBe(409);
      expect(retry.body).toEqual(first.body);
      await projected(lot.auctionId);
      const refusals = await api.call('GET', '/api/bids/user/rejections', { token: buyer.tokens.accessToken });
      expect(refusals.body).toHaveLength(1);
    });

    it('refuses a malformed key with 400 naming the header', async () => {
      const lot = await auction();
      const buyer = await api.signUp('BUYER');
      for (const key of ['has space', 'x'.repeat(201), 'naïve']) {
        const response = await bid(buyer, { auctionId: lot.auctionId, amount: 60 }, { 'idempotency-key': key });
        expect(response.status, key).toBe(400);
        expect(response.body.message).toContain('headers.idempotency-key');
      }
      expect(await bidEvents(lot.auctionId)).toHaveLength(0);
    });
  });

  describe('under load', () => {
    let second: TestApi;
    beforeAll(async () => {
      second = await startTestApi(backend, { sharing: api });
    });
    afterAll(async () => second.close());

    /**
     * 50 bidders place 4 bids each, all 200 at once, through `processes` (one API, or two on one
     * database taking turns). Every request gets an answer; every accepted bid is in the auction's
     * log exactly once; the highest accepted amount leads.
     */
    async function loadAuction(processes: TestApi[]) {
      const lot = await auction();
      const bidders = await Promise.all(Array.from({ length: 50 }, () => api.signUp('BUYER')));
      // Every request a distinct amount; each bidder's four rise, so that many are accepted.
      const requests = bidders.flatMap((bidder, b) =>
        [0, 1, 2, 3].map((round) => ({ bidder, amount: 51 + round * 50 + b, key: (b + round) % 2 === 0 ? randomUUID() : undefined })),
      );

      const settled = await Promise.allSettled(
        requests.map(({ bidder, amount, key }, index) =>
          processes[index % processes.length]!.call('POST', '/api/bids', {
            token: bidder.tokens.accessToken,
            body: { auctionId: lot.auctionId, amount },
            ...(key ? { headers: { 'idempotency-key': key } } : {}),
          }),
        ),
      );

      const answers = settled.map((outcome, index) => {
        expect(outcome.status, `request ${index} got no answer`).toBe('fulfilled');
        return (outcome as PromiseFulfilledResult<Awaited<ReturnType<typeof bid>>>).value;
      });
      for (const answer of answers) {
        expect([201, 409], JSON.stringify(answer.body)).toContain(answer.status);
        if (answer.status === 409) {
          expect(answer.body.message).toMatch(/^(Bid must be higher than current price of|Bid must be at least|You are already the highest bidder|Too many changes at once)/);
        }
      }
      const accepted = answers.filter((answer) => answer.status === 201).map((answer) => answer.body);
      expect(accepted.length).toBeGreaterThan(0);

      const placed = (await api.deps.eventStore.readStream(auctionStreamId(lot.auctionId))).filter(
        (event) => event.type === 'BidPlaced' || event.type === 'MaximumBidRaised',
      );
      const timesInLog = new Map<string, number>();
      for (const event of placed) {
        const { bidId } = event.data as { bidId: string };
        timesInLog.set(bidId, (timesInLog.get(bidId) ?? 0) + 1);
      }
      for (const answer of accepted) expect(timesInLog.get(answer.id), answer.id).toBe(1);
      expect(placed).toHaveLength(accepted.length);

      const highest = accepted.reduce((best, answer) => (answer.amount > best.amount ? answer : best));
      await projected(lot.auctionId);
      const final = await api.call('GET', `/api/public/listings/${lot.listingId}/auction`);
      expect(final.body.currentLeaderId).toBe(highest.bidderId);
      expect(final.body.bidCount).toBe(placed.filter((event) => event.type === 'BidPlaced').length);
    }

    it('answers 200 concurrent bids from 50 bidders on one API process', async () => {
      await loadAuction([api]);
    }, 120_000);

    it('answers 200 concurrent bids from 50 bidders spread over two API processes on one database', async () => {
      await loadAuction([api, second]);
    }, 120_000);

    it('bids once when duplicates with one key reach two API processes at the same moment', async () => {
      const lot = await auction();
      const buyer = await api.signUp('BUYER');
      const key = randomUUID();
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, index) =>
          [api, second][index % 2]!.call('POST', '/api/bids', {
            token: buyer.tokens.accessToken,
            body: { auctionId: lot.auctionId, amount: 60 },
            headers: { 'idempotency-key': key },
          }),
        ),
      );
      // The first answer, or, while it is being decided, "still being processed"; never a second bid.
      const accepted = answers.filter((answer) => answer.status === 201);
      expect(accepted.length).toBeGreaterThanOrEqual(1);
      for (const answer of answers) {
        if (answer.status === 201) expect(answer.body).toEqual(accepted[0]!.body);
        else expect(answer.body).toMatchObject({ statusCode: 409, code: 'IDEMPOTENCY_KEY_IN_PROGRESS' });
      }
      const placed = (await api.deps.eventStore.readStream(auctionStreamId(lot.auctionId))).filter((event) => event.type === 'BidPlaced');
      expect(placed).toHaveLength(1);
      const later = await second.call('POST', '/api/bids', {
        token: buyer.tokens.accessToken,
        body: { auctionId: lot.auctionId, amount: 60 },
        headers: { 'idempotency-key': key },
      });
      expect(later.body).toEqual(accepted[0]!.body);
    });
  });
});

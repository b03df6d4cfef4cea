import { randomUUID } from 'node:crypto';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { comparePositions, positionToString, type RecordedEvent } from '../../engine/eventstore/port';
import type { AuditEvent } from '../../api/contracts/audit';
import { auctionRejectionsStreamId } from '../../engine/domain';
import { API_BACKENDS, startTestApi, type TestApi } from '../support/api';
import { foreignEvent } from '../support/log-shapes';
import { createMarketplaceListing } from '../support/marketplace';

type Account = Awaited<ReturnType<TestApi['signUp']>>;

/** What the audit API should answer for `keep`, computed from the whole log read back in order. */
function expected(log: readonly RecordedEvent[], keep: (event: RecordedEvent, metadata: Record<string, unknown>) => boolean): string[] {
  return log.filter((event) => keep(event, (event.metadata ?? {}) as Record<string, unknown>)).map((event) => positionToString(event.position));
}

/**
 * The whole log once every event appended so far is readable: on PostgreSQL an event waits while
 * an older transaction (a projection's, say) is still open, and the audit API reads the same way.
 */
async function settledLog(api: TestApi): Promise<RecordedEvent[]> {
  const head = await api.deps.eventStore.headPosition();
  for (;;) {
    const log = await api.deps.eventStore.readAll();
    if (head === null || (log.length > 0 && comparePositions(log.at(-1)!.position, head) >= 0)) return log;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const positions = (body: { events: AuditEvent[] }) => body.events.map((event) => event.position);

describe.each(API_BACKENDS)('the audit API on %s', (backend) => {
  let api: TestApi;
  let admin: Account;
  let auditor: Account;
  let buyer: Account;
  let rival: Account;
  let auctionId: string;
  let listingId: string;
  let bidCorrelationId: string;
  let log: RecordedEvent[];

  const read = (path: string, token = auditor.tokens.accessToken) => api.call('GET', path, { token });

  beforeAll(async () => {
    api = await startTestApi(backend);
    [admin, auditor, buyer, rival] = [await api.signUp('ADMIN'), await api.signUp('AUDITOR'), await api.signUp('BUYER'), await api.signUp('BUYER')];
    ({ auctionId, listingId } = (await createMarketplaceListing(api, { price: 5_000 })) as { auctionId: string; listingId: string });
    await createMarketplaceListing(api, { price: 9_000 });
    // A proxy, a bid that its maximum answers (one request, several events), and a refused bid.
    expect((await api.call('POST', '/api/bids', { token: rival.tokens.accessToken, body: { auctionId, amount: 51, maxAmount: 80 } })).status).toBe(201);
    const answered = await api.call('POST', '/api/bids', { token: buyer.tokens.accessToken, body: { auctionId, amount: 60 } });
    expect(answered.status).toBe(201);
    bidCorrelationId = answered.headers.get('x-request-id')!;
    expect((await api.call('POST', '/api/bids', { token: buyer.tokens.accessToken, body: { auctionId, amount: 55 } })).status).toBe(409);
    log = await settledLog(api);
  });
  afterAll(async () => api.close());

  it('answers ADMIN and AUDITOR; 401 anonymous and 403 to a buyer on every audit route', async () => {
    const document = api.app.swagger() as { paths: Record<string, Record<string, unknown>> };
    const routes = Object.keys(document.paths).filter((path) => path.startsWith('/api/audit/'));
    expect(routes).toEqual(
      expect.arrayContaining(['/api/audit/events', '/api/audit/events/export', '/api/audit/correlations/{correlationId}', '/api/audit/reads']),
    );
    for (const template of routes) {
      const path = template.replace('{correlationId}', bidCorrelationId).replace('{auctionId}', auctionId).replace('{streamId}', `auction-${auctionId}`);
      expect([template, (await api.call('GET', path)).status]).toEqual([template, 401]);
      expect([template, (await read(path, buyer.tokens.accessToken)).status]).toEqual([template, 403]);
      expect([template, (await read(path)).status]).toEqual([template, 200]);
      expect([template, (await read(path, admin.tokens.accessToken)).status]).toEqual([template, 200]);
    }
  });

  it('an auditor signs in where admins do, and can use no admin route', async () => {
    const session = await api.call('POST', '/api/admin/auth/login', { body: { email: auditor.user.email, password: auditor.password } });
    expect(session.status).toBe(200);
    expect((await read('/api/admin/listings', session.body.accessToken)).status).toBe(403);
    expect((await api.call('POST', `/api/admin/auctions/${auctionId}/bids/${randomUUID()}/retract`, { token: session.body.accessToken, body: { reason: 'x' } })).status).toBe(403);
    const refused = await api.call('POST', '/api/admin/auth/login', { body: { email: buyer.user.email, password: buyer.password } });
    expect(refused.status).toBe(403);
    const logout = await api.call('POST', '/api/admin/auth/logout', { token: session.body.accessToken, body: { refreshToken: session.body.refreshToken } });
    expect(logout.status).toBe(204);
  });

  it('filters by stream, category, types, actor, correlation and time, alone and combined, in log order', async () => {
    const stream = `auction-${auctionId}`;
    const cases: Array<[string, (event: RecordedEvent, metadata: Record<string, unknown>) => boolean]> = [
      [`stream=${stream}`, (event) => event.streamId === stream],
      ['category=auction', (event) => event.streamId.startsWith('auction-')],
      ['category=auction_rejections', (event) => event.streamId.startsWith('auction_rejections-')],
      ['type=BidPlaced&type=AuctionScheduled', (event) => ['BidPlaced', 'AuctionScheduled'].includes(event.type)],
      ['type=BidPlaced,ListingPublished', (event) => ['BidPlaced', 'ListingPublished'].includes(event.type)],
      [`actor=${buyer.user.id}`, (_, metadata) => metadata.actorId === buyer.user.id],
      [`correlationId=${bidCorrelationId}`, (_, metadata) => metadata.correlationId === bidCorrelationId],
      [`category=auction&actor=${rival.user.id}&type=BidPlaced`, (event, metadata) => event.streamId.startsWith('auction-') && metadata.actorId === rival.user.id && event.type === 'BidPlaced'],
      [`stream=listing-${listingId}&type=BidPlaced`, () => false],
    ];
    for (const [query, keep] of cases) {
      const answer = await read(`/api/audit/events?${query}`);
      expect([query, answer.status]).toEqual([query, 200]);
      const wanted = expected(log, keep);
      expect([query, positions(answer.body)]).toEqual([query, wanted]);
    }
    // The bid that a maximum answered: one request, its events across the auction's stream.
    const correlated = (await read(`/api/audit/events?correlationId=${bidCorrelationId}`)).body.events as AuditEvent[];
    expect(correlated.map((event) => event.type)).toContain('BidPlaced');
    expect(correlated[0]).toMatchObject({ streamId: stream, metadata: { actorId: buyer.user.id, correlationId: bidCorrelationId } });

    // from is inclusive, to exclusive, on the recorded time.
    const middle = log[Math.floor(log.length / 2)]!;
    const from = middle.recordedAt.toISOString();
    const since = await read(`/api/audit/events?from=${encodeURIComponent(from)}&limit=1000`);
    expect(positions(since.body)).toEqual(expected(log, (event) => event.recordedAt.getTime() >= middle.recordedAt.getTime()));
    const before = await read(`/api/audit/events?to=${encodeURIComponent(from)}&limit=1000`);
    expect(positions(before.body)).toEqual(expected(log, (event) => event.recordedAt.getTime() < middle.recordedAt.getTime()));
  });

  it('pages with after and next, every event exactly once, next null at the end', async () => {
    const seen: string[] = [];
    let after: string | null = null;
    let pages = 0;
    do {
      const answer = await read(`/api/audit/events?category=auction&limit=2${after ? `&after=${after}` : ''}`);
      expect(answer.status).toBe(200);
      expect(answer.body.events.length).toBeLessThanOrEqual(2);
      seen.push(...positions(answer.body));
      after = answer.body.next;
      pages++;
    } while (after !== null && pages < 100);
    expect(seen).toEqual(expected(log, (event) => event.streamId.startsWith('auction-')));
    const whole = await read('/api/audit/events');
    expect(whole.body.events).toHaveLength(Math.min(100, log.length));
    expect(whole.body.events[0]).toMatchObject({ position: positionToString(log[0]!.position), streamId: log[0]!.streamId, revision: 0, type: log[0]!.type });
    expect(whole.body.events[0].recordedAt).toBe(log[0]!.recordedAt.toISOString());
  });

  it('refuses bad filters with 400 and a message that names the problem', async () => {
    const refusals: Array<[string, string | RegExp]> = [
      ['limit=0', /limit/],
      ['limit=1001', /limit/],
      ['limit=ten', /limit/],
      ['after=12', /after must be a log position/],
      ['stream=auction-x&category=auction', /Give stream or category, not both/],
      ['category=auction-x', /category is the part of a stream id before the first "-"/],
      ['from=yesterday', /from/],
      ['from=2026-11-25T10:00:00Z&to=2026-11-25T09:00:00Z', /from must be before to/],
      ['colour=red', /colour/],
    ];
    for (const [query, message] of refusals) {
      const answer = await read(`/api/audit/events?${query}`);
      expect([query, answer.status]).toEqual([query, 400]);
      expect(answer.body.message).toMatch(message);
    }
    expect((await read('/api/audit/events/export?format=xml')).status).toBe(400);
  });

  it('lists one correlation across streams: a publication touches the listing, its tag and its auction', async () => {
    const published = log.find((event) => event.type === 'AuctionScheduled' && (event.data as { auctionId: string }).auctionId === auctionId)!;
    const correlationId = (published.metadata as { correlationId: string }).correlationId;
    const answer = await read(`/api/audit/correlations/${correlationId}`);
    expect(answer.status).toBe(200);
    expect(positions(answer.body)).toEqual(expected(log, (_, metadata) => metadata.correlationId === correlationId));
    expect(new Set(answer.body.events.map((event: AuditEvent) => event.streamId.split('-')[0]))).toEqual(new Set(['listing', 'auction']));
    expect(answer.body.next).toBeNull();
    expect((await read(`/api/audit/correlations/${randomUUID()}`)).body).toEqual({ events: [], next: null });
  });

  it('exports NDJSON and RFC 4180 CSV with a filename, the same events as the query', async () => {
    const stream = `auction-${auctionId}`;
    const ndjson = await read(`/api/audit/events/export?stream=${stream}&format=ndjson`);
    expect(ndjson.status).toBe(200);
    expect(ndjson.headers.get('content-type')).toContain('application/x-ndjson');
    expect(ndjson.headers.get('content-disposition')).toMatch(new RegExp(`^attachment; filename="provenance-log-auction-${auctionId}-[0-9TZ-]+\\.ndjson"$`));
    const lines = (ndjson.body as string).trimEnd().split('\n').map((line) => JSON.parse(line) as AuditEvent);
    const queried = (await read(`/api/audit/events?stream=${stream}`)).body.events;
    expect(lines).toEqual(queried);

    const csv = await read(`/api/audit/events/export?stream=${stream}&format=csv`);
    expect(csv.headers.get('content-type')).toContain('text/csv');
    expect(csv.headers.get('content-disposition')).toMatch(/filename="provenance-log-auction-.+\.csv"$/);
    expect(csv.body as string).toContain('\r\n');
    const rows = parse(csv.body as string, { columns: true }) as Array<Record<string, string>>;
    expect(rows.map((row) => row.position)).toEqual(positions({ events: queried }));
    expect(rows[0]).toMatchObject({ streamId: stream, revision: '0', type: 'AuctionScheduled' });
    expect(JSON.parse(rows[0]!.data!)).toEqual(queried[0].data);
  });

  it('records every read: who, which route, with what query, when', async () => {
    const before = new Date();
    await read(`/api/audit/events?category=listing&limit=5`);
    await read(`/api/audit/correlations/${bidCorrelationId}`, admin.tokens.accessToken);
    await read('/api/audit/events?limit=0'); // refused: nothing was read, nothing recorded
    const reads = await read('/api/audit/reads?limit=3');
    expect(reads.status).toBe(200);
    expect(reads.body.reads).toMatchObject([
      { userId: auditor.user.id, route: 'GET /api/audit/reads', query: { limit: 3 } },
      { userId: admin.user.id, route: 'GET /api/audit/correlations/:correlationId', params: { correlationId: bidCorrelationId } },
      { userId: auditor.user.id, route: 'GET /api/audit/events', query: { category: 'listing', limit: 5 } },
    ]);
    expect(new Date(reads.body.reads[2].at).getTime()).toBeGreaterThanOrEqual(before.getTime() - 1000);
    const mine = await read(`/api/audit/reads?user=${admin.user.id}`);
    expect(mine.body.reads.every((entry: { userId: string }) => entry.userId === admin.user.id)).toBe(true);
    const older = await read(`/api/audit/reads?limit=1&before=${reads.body.reads[1].id}`);
    expect(older.body.reads[0].id).toBe(reads.body.reads[2].id);
  });

  it('streams an export of 100,000 events with flat memory (figures in the output)', { timeout: 300_000 }, async () => {
    // The product's own kind of events (its streams, types and metadata): the export leaves out any other.
    const loadAuctionId = randomUUID();
    const stream = auctionRejectionsStreamId(loadAuctionId);
    const rejection = (n: number) => ({
      auctionId: loadAuctionId,
      bidId: `load-${n}`,
      bidderId: 'load',
      attempt: 'BID',
      amount: 100 + n,
      maximum: null,
      attemptedAt: new Date().toISOString(),
      code: 'AUCTION_NOT_FOUND',
      message: '=not a formula',
      priceAtAttempt: null,
    });
    const metadata = { actorId: 'load', actorRoles: ['SYSTEM'], occurredAt: new Date().toISOString(), correlationId: 'load', commandId: 'load' };
    for (let batch = 0; batch < 100; batch++) {
      const events = Array.from({ length: 1000 }, (_, i) => ({ id: randomUUID(), type: 'BidRejected', data: rejection(batch * 1000 + i), metadata }));
      await api.deps.eventStore.appendToStream(stream, events, { expectedRevision: batch === 0 ? 'no_stream' : batch * 1000 - 1 });
    }
    const response = await fetch(`${api.url}/api/audit/events/export?stream=${stream}&format=csv`, { headers: { authorization: `Bearer ${auditor.tokens.accessToken}` } });
    expect(response.status).toBe(200);
    const baseline = process.memoryUsage().rss;
    let peak = baseline;
    let rows = 0;
    let bytes = 0;
    let carry = '';
    const decoder = new TextDecoder();
    for await (const chunk of response.body!) {
      const text = carry + decoder.decode(chunk, { stream: true });
      const lines = text.split('\r\n');
      carry = lines.pop()!;
      rows += lines.length;
      bytes += chunk.byteLength;
      peak = Math.max(peak, process.memoryUsage().rss);
    }
    expect(rows - 1).toBe(100_000); // the header, then one row per event
    console.info(
      `[${backend}] export of 100,000 events as CSV: ${(bytes / 1e6).toFixed(1)} MB streamed; ` +
        `process RSS ${(baseline / 1e6).toFixed(0)} MB before, peak ${(peak / 1e6).toFixed(0)} MB while streaming (+${((peak - baseline) / 1e6).toFixed(0)} MB)`,
    );
  });

  it("leaves out another writer's events from queries and exports, and still pages past them", async () => {
    await api.deps.eventStore.appendToStream(`inventory-${randomUUID()}`, [foreignEvent(), foreignEvent()], { expectedRevision: 'any' });
    await api.deps.eventStore.appendToStream(auctionRejectionsStreamId(auctionId), [{ ...foreignEvent(), type: 'Annotated', metadata: null }], { expectedRevision: 'any' });
    const inventory = await read('/api/audit/events?category=inventory');
    expect([inventory.status, inventory.body.events]).toEqual([200, []]);
    const rejections = await read(`/api/audit/events?stream=${auctionRejectionsStreamId(auctionId)}`);
    expect(rejections.status).toBe(200);
    expect(rejections.body.events.map((event: AuditEvent) => event.type)).toEqual(['BidRejected']);
    const exported = await read('/api/audit/events/export?format=ndjson&category=inventory');
    expect([exported.status, exported.body]).toEqual([200, undefined]); // an empty file
    const timeline = await read(`/api/audit/auctions/${auctionId}/timeline`);
    expect(timeline.status).toBe(200);
  });
});

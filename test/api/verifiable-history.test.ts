import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuctionTimeline, StreamVerification } from '../../api/contracts/audit';
import { auctionRejectionsStreamId, auctionStreamId } from '../../engine/domain';
import type { SqlClient, SqlQueryable } from '../../engine/postgres/sql-client';
import { eventHash } from '../../engine/integrity/event-hash';
import { API_BACKENDS, startTestApi, type TestApi } from '../support/api';
import { createMarketplaceListing } from '../support/marketplace';

type Account = Awaited<ReturnType<TestApi['signUp']>>;

/** The Postgres-backed backends: there the events table can be tampered with, as its owner could. */
const TAMPERABLE = API_BACKENDS.filter((backend) => backend !== 'KurrentDB');

/**
 * Tampering for real: the database owner turns the append-only trigger off and changes, reorders
 * or deletes rows of the events table, as an operator with access could. The hash chain names the
 * first revision touched; the timeline marks it in red (BROKEN) and what follows as unverified.
 */
describe.each(TAMPERABLE)('the hash chain against tampering, on %s', (backend) => {
  let api: TestApi;
  let owner: { sql: SqlClient; close(): Promise<void> };
  let admin: Account;
  let auditor: Account;
  let buyer: Account;
  let rival: Account;
  let auctionId: string;
  let streamId: string;

  const verify = async (stream = streamId, token = auditor.tokens.accessToken) =>
    (await api.call('GET', `/api/audit/streams/${encodeURIComponent(stream)}/verify`, { token })) as { status: number; body: StreamVerification & { message?: string } };
  const bid = (account: Account, amount: number) => api.call('POST', '/api/bids', { token: account.tokens.accessToken, body: { auctionId, amount } });

  /** Runs `change` on the events table with the append-only trigger off, in one transaction. */
  const tamper = (change: (sql: SqlQueryable) => Promise<unknown>) =>
    owner.sql.transaction(async (tx) => {
      await tx.query('ALTER TABLE events DISABLE TRIGGER events_append_only');
      await change(tx);
      await tx.query('ALTER TABLE events ENABLE TRIGGER events_append_only');
    });
  const amountAt = async (revision: number) =>
    (await owner.sql.query<{ data: { amount: number } }>('SELECT data FROM events WHERE stream_id = $1 AND stream_revision = $2', [streamId, revision])).rows[0]!.data.amount;

  beforeAll(async () => {
    api = await startTestApi(backend);
    owner = await api.storage.connect();
    [admin, auditor, buyer, rival] = [await api.signUp('ADMIN'), await api.signUp('AUDITOR'), await api.signUp('BUYER'), await api.signUp('BUYER')];
    ({ auctionId } = (await createMarketplaceListing(api, { price: 5_000 })) as { auctionId: string });
    streamId = auctionStreamId(auctionId);
    // Scheduled, opened, then bids: revisions 2, 3, 4 and 5; one refused attempt in the rejections stream.
    for (const [account, amount] of [[buyer, 60], [rival, 70], [buyer, 80], [rival, 90]] as const) expect((await bid(account, amount)).status).toBe(201);
    expect((await bid(buyer, 85)).status).toBe(409);
  });
  afterAll(async () => {
    await owner?.close();
    await api?.close();
  });

  it('holds: every event of the auction and of its rejections verifies, for admins and auditors only', async () => {
    expect((await verify()).body).toEqual({ streamId, valid: true, events: 6, firstInvalidRevision: null, problem: null });
    expect((await verify(auctionRejectionsStreamId(auctionId))).body).toMatchObject({ valid: true, events: 1 });
    expect((await verify(streamId, admin.tokens.accessToken)).status).toBe(200);
    expect((await verify(streamId, buyer.tokens.accessToken)).status).toBe(403);
    expect((await api.call('GET', `/api/audit/streams/${streamId}/verify`)).status).toBe(401);
    expect((await verify('auction-nothing-here')).status).toBe(404);
  });

  it("names the revision whose bid amount was changed in the table, and the timeline marks it", async () => {
    const original = await amountAt(3);
    await tamper((sql) => sql.query(`UPDATE events SET data = jsonb_set(data, '{amount}', '100000') WHERE stream_id = $1 AND stream_revision = 3`, [streamId]));
    const { body } = await verify();
    expect(body).toMatchObject({ valid: false, firstInvalidRevision: 3, problem: 'Revision 3 was changed: its contents do not match its hash' });

    const timeline = (await api.call('GET', `/api/audit/auctions/${auctionId}/timeline`, { token: auditor.tokens.accessToken })).body as AuctionTimeline;
    const marks = timeline.steps.filter((step) => step.kind === 'EVENT').map((step) => [step.revision, step.integrity]);
    expect(marks).toEqual([[0, 'VERIFIED'], [1, 'VERIFIED'], [2, 'VERIFIED'], [3, 'BROKEN'], [4, 'UNVERIFIED'], [5, 'UNVERIFIED']]);
    expect(timeline.steps.every((step) => /^[0-9a-f]{64}$/.test(step.hash ?? ''))).toBe(true);
    expect(timeline.integrity[0]).toMatchObject({ valid: false, firstInvalidRevision: 3 });

    await tamper((sql) => sql.query(`UPDATE events SET data = jsonb_set(data, '{amount}', $2::jsonb) WHERE stream_id = $1 AND stream_revision = 3`, [streamId, String(original)]));
    expect((await verify()).body.valid).toBe(true);
  });

  it('names a hash rewritten to match the changed amount: the next event no longer follows it', async () => {
    await tamper((sql) => sql.query(`UPDATE events SET data = jsonb_set(data, '{amount}', '100000') WHERE stream_id = $1 AND stream_revision = 4`, [streamId]));
    // The forger recomputes revision 4's own hash with the very function the store uses.
    const [changed] = await api.deps.eventStore.readStream(streamId, { fromRevision: 4, maxCount: 1 });
    const forged = eventHash({ ...changed!, previousHash: changed!.previousHash });
    await tamper((sql) => sql.query(`UPDATE events SET hash = $2 WHERE stream_id = $1 AND stream_revision = 4`, [streamId, forged]));
    expect((await verify()).body).toMatchObject({ valid: false, firstInvalidRevision: 5, problem: 'Revision 5 does not follow revision 4: it names another event before it' });
  });

  it('names two events swapped in place, and an event deleted', async () => {
    await tamper(async (sql) => {
      await sql.query(`UPDATE events SET stream_revision = -1 WHERE stream_id = $1 AND stream_revision = 1`, [streamId]);
      await sql.query(`UPDATE events SET stream_revision = 1 WHERE stream_id = $1 AND stream_revision = 2`, [streamId]);
      await sql.query(`UPDATE events SET stream_revision = 2 WHERE stream_id = $1 AND stream_revision = -1`, [streamId]);
    });
    expect((await verify()).body).toMatchObject({ valid: false, firstInvalidRevision: 1, problem: 'Revision 1 does not follow revision 0: it names another event before it' });
    await tamper((sql) => sql.query(`DELETE FROM events WHERE stream_id = $1 AND stream_revision = 0`, [streamId]));
    expect((await verify()).body).toMatchObject({ valid: false, firstInvalidRevision: 0, problem: 'Revision 0 is missing: the stream goes on at revision 1' });
  });
});

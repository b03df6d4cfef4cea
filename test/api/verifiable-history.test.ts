import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuctionTimeline, StreamVerification } from '../../api/contracts/audit';
import { auctionCheckpointsStreamId, auctionRejectionsStreamId, auctionStreamId, type SignedCheckpoint } from '../../engine/domain';
import { verifyReceipt, type BidReceipt, type PublishedKey } from '../../api/contracts/receipts';
import type { SqlClient, SqlQueryable } from '../../engine/postgres/sql-client';
import { eventHash } from '../../engine/integrity/event-hash';
import { API_BACKENDS, startTestApi, type TestApi } from '../support/api';
import { caughtUpWith, createMarketplaceListing } from '../support/marketplace';

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
  /** How far the API's clock runs ahead of the wall clock: a minute on, a running auction is due a checkpoint. */
  let ahead = 0;

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
  /** A forger's rewrite: the hashes from `from` on recomputed from the events as they now are, each chained to the one before. */
  const rechain = async (stream: string, from: number) => {
    const events = await api.deps.eventStore.readStream(stream);
    let previous = events[from - 1]?.hash ?? null;
    await tamper(async (sql) => {
      for (const event of events.slice(from)) {
        const hash = eventHash({ ...event, previousHash: previous });
        await sql.query('UPDATE events SET hash = $3, previous_hash = $4 WHERE stream_id = $1 AND stream_revision = $2', [stream, event.revision, hash, previous]);
        previous = hash;
      }
    });
  };
  const amountAt = async (revision: number) =>
    (await owner.sql.query<{ data: { amount: number } }>('SELECT data FROM events WHERE stream_id = $1 AND stream_revision = $2', [streamId, revision])).rows[0]!.data.amount;

  beforeAll(async () => {
    api = await startTestApi(backend, { clock: () => new Date(Date.now() + ahead) });
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

  it("names the last events removed, which only the auction's last checkpoint can tell", async () => {
    const { auctionId: checkpointed } = (await createMarketplaceListing(api, { price: 5_000 })) as { auctionId: string };
    const stream = auctionStreamId(checkpointed);
    for (const [account, amount] of [[buyer, 60], [rival, 70]] as const) {
      expect((await api.call('POST', '/api/bids', { token: account.tokens.accessToken, body: { auctionId: checkpointed, amount } })).status).toBe(201);
    }
    await caughtUpWith(api, stream);
    await api.deps.checkpointer!.runOnce();
    await tamper((sql) => sql.query(`DELETE FROM events WHERE stream_id = $1 AND stream_revision = 3`, [stream]));
    expect((await verify(stream)).body).toMatchObject({ valid: false, firstInvalidRevision: 3, problem: expect.stringMatching(/^Revision 3 is missing: the checkpoint of .+ signed 4 events$/) });
  });

  it('a checkpoint signs what the appends answered: an event rewritten with its chain before it fails against the checkpoint', async () => {
    const { auctionId: signing } = (await createMarketplaceListing(api, { price: 5_000 })) as { auctionId: string };
    const stream = auctionStreamId(signing);
    const placeBid = (account: Account, amount: number) => api.call('POST', '/api/bids', { token: account.tokens.accessToken, body: { auctionId: signing, amount } });
    expect((await placeBid(buyer, 60)).status).toBe(201);
    await caughtUpWith(api, stream);
    expect(await api.deps.checkpointer!.runOnce()).toContain(signing);
    expect((await placeBid(rival, 70)).status).toBe(201);
    // Before the next checkpoint, revision 3's amount is changed and the chain recomputed from it: the chain alone holds.
    await tamper((sql) => sql.query(`UPDATE events SET data = jsonb_set(data, '{amount}', '100000') WHERE stream_id = $1 AND stream_revision = 3`, [stream]));
    await rechain(stream, 3);
    expect((await verify(stream)).body).toMatchObject({ valid: true, events: 4 });

    ahead += 61_000;
    await caughtUpWith(api, stream);
    expect(await api.deps.checkpointer!.runOnce()).toContain(signing);
    expect((await verify(stream)).body).toMatchObject({ valid: false, firstInvalidRevision: 0, problem: expect.stringMatching(/^The first 4 events are not the ones the checkpoint of .+ signed$/) });
  });

  it('a checkpointer that has not checked a log before reads it from the table, and refuses to sign an event changed there', async () => {
    const { auctionId: changed } = (await createMarketplaceListing(api, { price: 5_000 })) as { auctionId: string };
    const stream = auctionStreamId(changed);
    expect((await api.call('POST', '/api/bids', { token: buyer.tokens.accessToken, body: { auctionId: changed, amount: 60 } })).status).toBe(201);
    await tamper((sql) => sql.query(`UPDATE events SET data = jsonb_set(data, '{amount}', '100000') WHERE stream_id = $1 AND stream_revision = 2`, [stream]));
    await caughtUpWith(api, stream);
    // Its first look at the auction: read from the log, re-hashed, refused; and never signed after.
    expect(await api.deps.checkpointer!.runOnce()).not.toContain(changed);
    ahead += 61_000;
    expect(await api.deps.checkpointer!.runOnce()).not.toContain(changed);
    expect(await api.deps.eventStore.readStream(auctionCheckpointsStreamId(changed))).toEqual([]);
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

/**
 * Receipts and signed checkpoints through HTTP: a bid's 201 carries a receipt signed at once; the
 * proof of inclusion waits for a checkpoint, then leads from the receipt's hash to the checkpoint's
 * signed root with public data only; a rotation of the key leaves every old receipt verifiable.
 */
describe.each(API_BACKENDS)('receipts, signed checkpoints and inclusion proofs on %s', (backend) => {
  const start = new Date('2031-03-01T12:00:00.000Z');
  let now = start;
  let api: TestApi;
  let buyer: Account;
  let rival: Account;

  const keys = async (): Promise<PublishedKey[]> => (await api.call('GET', '/.well-known/provenance-keys.json')).body.keys;
  const proof = (bidId: string, auctionId?: string) => api.call('GET', `/api/public/receipts/${bidId}/proof${auctionId ? `?auctionId=${auctionId}` : ''}`);
  const bid = (account: Account, auctionId: string, amount: number, maxAmount?: number) =>
    api.call('POST', '/api/bids', { token: account.tokens.accessToken, body: { auctionId, amount, ...(maxAmount ? { maxAmount } : {}) } });
  /** One checkpointer round once the read models have seen the auction's streams. */
  const checkpoint = async (auctionId: string) => {
    await caughtUpWith(api, auctionStreamId(auctionId), auctionRejectionsStreamId(auctionId));
    return api.deps.checkpointer!.runOnce();
  };

  beforeAll(async () => {
    now = start;
    // The checkpointer runs only when a test asks it to (the harness's default), on the API's clock.
    api = await startTestApi(backend, { clock: () => now });
    [buyer, rival] = [await api.signUp('BUYER'), await api.signUp('BUYER')];
  });
  afterAll(async () => api?.close());

  it('answers a bid with a receipt signed at once by a published key, over the event as stored', async () => {
    const { auctionId } = (await createMarketplaceListing(api, { price: 5_000 })) as { auctionId: string };
    const placed = await bid(buyer, auctionId, 60);
    expect(placed.status).toBe(201);
    const receipt = placed.body.receipt as BidReceipt;
    const [stored] = await api.deps.eventStore.readStream(auctionStreamId(auctionId), { fromRevision: receipt.revision, maxCount: 1 });
    expect(receipt).toEqual({
      format: 'provenance.bid-receipt.v2',
      auctionId,
      bidId: placed.body.id,
      streamId: auctionStreamId(auctionId),
      revision: 2,
      amount: 60,
      placedAt: start.toISOString(),
      hash: stored!.hash,
      previousHash: stored!.previousHash,
      keyId: api.deps.signer.keyId,
      // Alone in its batch: the root its key signed is its own leaf's.
      batch: { size: 1, index: 0, auditPath: [] },
      signature: expect.stringMatching(/^[A-Za-z0-9_-]{86}$/),
    });
    expect(stored!.type).toBe('BidPlaced');
    expect(await verifyReceipt(receipt, await keys())).toEqual({ signed: true, included: null, problems: [] });
    expect((await verifyReceipt({ ...receipt, amount: 6_000 }, await keys())).signed).toBe(false);
    expect((await verifyReceipt({ ...receipt, keyId: 'ed25519-0000000000000000' }, await keys())).problems).toEqual([
      'The receipt is signed by a key that is not published (ed25519-0000000000000000)',
    ]);
  });

  it('signs the receipts asked for in one turn with one signature, each with its own path; a turn later, another', async () => {
    const statements = [1, 2, 3, 4, 5].map((n) => ({ format: 'provenance.bid-receipt.v2' as const, auctionId: 'a', bidId: `b${n}`, streamId: 'auction-a', revision: n, amount: n, placedAt: start.toISOString(), hash: 'ab'.repeat(32), previousHash: null }));
    const together = await Promise.all(statements.map((statement) => api.deps.signer.signInBatch(statement)));
    expect(new Set(together.map((receipt) => receipt.signature)).size).toBe(1);
    expect(together.map((receipt) => [receipt.batch.size, receipt.batch.index, receipt.batch.auditPath.length])).toEqual([[5, 0, 3], [5, 1, 3], [5, 2, 3], [5, 3, 3], [5, 4, 1]]);
    for (const receipt of together) expect((await verifyReceipt(receipt, await keys())).signed).toBe(true);
    // Another receipt's path, or another place in the batch, proves nothing.
    expect((await verifyReceipt({ ...together[0]!, batch: together[1]!.batch }, await keys())).signed).toBe(false);
    expect((await verifyReceipt({ ...together[4]!, batch: { ...together[4]!.batch, size: 4 } }, await keys())).signed).toBe(false);

    const later = await api.deps.signer.signInBatch(statements[0]!);
    expect(later.signature).not.toBe(together[0]!.signature);
    expect(later.batch).toEqual({ size: 1, index: 0, auditPath: [] });

    // Past 1,024 in one turn, another batch; a statement with no JSON form is refused alone.
    const many = await Promise.allSettled([...Array.from({ length: 1_025 }, (_, n) => api.deps.signer.signInBatch({ ...statements[0]!, revision: n })), api.deps.signer.signInBatch({ ...statements[0]!, amount: Number.NaN })]);
    const signed = many.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value] : []));
    expect(signed.map((receipt) => receipt.batch.size)).toEqual([...Array<number>(1_024).fill(1_024), 1]);
    expect(many.at(-1)).toMatchObject({ status: 'rejected' });
    expect((await verifyReceipt(signed[1_024]!, await keys())).signed).toBe(true);
    expect((await verifyReceipt({ ...signed[0]!, batch: { ...signed[0]!.batch, auditPath: signed[0]!.batch.auditPath.map((hash) => hash.toUpperCase()) } }, await keys())).signed).toBe(false);
  });

  it('proves the bid is in the first checkpoint that covers it, with hashes only: no other bidder in the proof', async () => {
    const { auctionId } = (await createMarketplaceListing(api, { price: 5_000 })) as { auctionId: string };
    expect((await bid(rival, auctionId, 51, 90)).status).toBe(201);
    const placed = await bid(buyer, auctionId, 60);
    const receipt = placed.body.receipt as BidReceipt;
    expect((await bid(buyer, auctionId, 55)).status).toBe(409);

    const early = await proof(receipt.bidId, auctionId); // the read models may not have the bid yet: the log has
    expect(early.status).toBe(409);
    expect(early.headers.get('retry-after')).toBe('60');
    expect(early.body.message).toMatch(/^No signed checkpoint covers this bid yet/);

    expect(await checkpoint(auctionId)).toContain(auctionId);
    const answer = await proof(receipt.bidId);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ bidId: receipt.bidId, streamId: receipt.streamId, hash: receipt.hash, revision: receipt.revision, treeSize: 4 });
    expect(answer.body.checkpoint.streams.map((stream: { streamId: string; size: number }) => [stream.streamId, stream.size])).toEqual([
      [auctionStreamId(auctionId), 4],
      [auctionRejectionsStreamId(auctionId), 1],
    ]);
    expect(await verifyReceipt(receipt, await keys(), answer.body)).toEqual({ signed: true, included: true, problems: [] });
    const text = JSON.stringify(answer.body);
    for (const secret of [rival.user.id, buyer.user.id, '"amount"', '"maximum"']) expect(text).not.toContain(secret);

    // Any other event's place, or a forged path, proves nothing.
    const forged = { ...answer.body, auditPath: [...answer.body.auditPath.slice(1), 'ab'.repeat(32)] };
    expect((await verifyReceipt(receipt, await keys(), forged)).included).toBe(false);
    expect((await verifyReceipt({ ...receipt, revision: 1 }, await keys(), { ...answer.body, revision: 1 })).included).toBe(false);
    const resigned = { ...answer.body.checkpoint, streams: [{ ...answer.body.checkpoint.streams[0], rootHash: 'cd'.repeat(32) }, answer.body.checkpoint.streams[1]] };
    expect((await verifyReceipt(receipt, await keys(), { ...answer.body, checkpoint: resigned })).problems).toEqual(["The checkpoint's signature does not match its contents"]);
    expect((await proof('00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await proof('00000000-0000-4000-8000-000000000000', auctionId)).status).toBe(404);
    expect((await proof(receipt.bidId, 'not-a-uuid')).status).toBe(400);
  });

  it('signs a running auction every 100 events or every minute, and at its close; never twice the same', async () => {
    const { auctionId } = (await createMarketplaceListing(api, { price: 5_000, endsAt: new Date(start.getTime() + 3_600_000) })) as { auctionId: string };
    const signed = () => api.deps.eventStore.readStream(auctionCheckpointsStreamId(auctionId));
    expect(await checkpoint(auctionId)).toContain(auctionId); // its first events
    expect((await bid(buyer, auctionId, 60)).status).toBe(201);
    expect(await checkpoint(auctionId)).not.toContain(auctionId); // one new event, under a minute
    now = new Date(now.getTime() + 61_000);
    expect(await checkpoint(auctionId)).toContain(auctionId);
    expect(await checkpoint(auctionId)).not.toContain(auctionId); // nothing new
    now = new Date(start.getTime() + 3_600_000);
    await api.deps.lifecycle!.runOnce();
    expect(await checkpoint(auctionId)).toContain(auctionId);
    const checkpoints = (await signed()).map((event) => event.data as SignedCheckpoint);
    expect(checkpoints.map((c) => [c.streams[0]!.size, c.closed])).toEqual([[2, false], [3, false], [4, true]]);
    expect(checkpoints.at(-1)!.signedAt).toBe(now.toISOString());
  });
});

import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BidReceipt, PublishedKey } from '../../api/contracts/receipts';
import { rotateSigningKey } from '../../api/integrity/key-rotation';
import { auctionCheckpointsStreamId, auctionRejectionsStreamId, auctionStreamId, SIGNING_KEYS_STREAM_ID } from '../../engine/domain';
import type { SqlQueryable } from '../../engine/postgres/sql-client';
import { verifyAuditBundle, type AuditBundle } from '../../engine/integrity/audit-bundle';
import { jcs } from '../../engine/domain/integrity/canonical';
import { SigningKey } from '../../engine/integrity/signing-key';
import { API_BACKENDS, startTestApi, type TestApi } from '../support/api';
import { caughtUpWith, createMarketplaceListing } from '../support/marketplace';

type Account = Awaited<ReturnType<TestApi['signUp']>>;
const run = promisify(execFile);

/** `npm run audit:verify -- …` as an auditor runs it: another process, offline, with only the files. */
async function auditVerify(...args: string[]): Promise<{ code: number; out: string }> {
  try {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'scripts/audit-verify.ts', ...args], { cwd: process.cwd(), env: { PATH: process.env.PATH } });
    return { code: 0, out: stdout };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, out: failed.stdout + failed.stderr };
  }
}

/**
 * The auditor's bundle, end to end: an auction bid on, refused, won and checkpointed through HTTP;
 * its bundle fetched by an auditor and checked by the script in another process, which names the
 * winner and the price the read models show; a bidder's receipt checked against it; the key
 * rotated in between, old and new receipts both holding.
 */
describe.each(API_BACKENDS)('the audit bundle and npm run audit:verify on %s', (backend) => {
  const start = new Date('2031-05-01T10:00:00.000Z');
  let now = start;
  let api: TestApi;
  let auditor: Account;
  let buyer: Account;
  let rival: Account;
  let auctionId: string;
  let folder: string;
  const receipts: BidReceipt[] = [];

  const bid = async (account: Account, amount: number, maxAmount?: number) => {
    const answer = await api.call('POST', '/api/bids', { token: account.tokens.accessToken, body: { auctionId, amount, ...(maxAmount ? { maxAmount } : {}) } });
    if (answer.status === 201) receipts.push(answer.body.receipt);
    return answer.status;
  };
  const bundleFile = async (name: string) => {
    const answer = await fetch(`${api.url}/api/audit/auctions/${auctionId}/bundle`, { headers: { authorization: `Bearer ${auditor.tokens.accessToken}` } });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-disposition')).toBe(`attachment; filename="auction-${auctionId}-bundle.json"`);
    const file = join(folder, name);
    await writeFile(file, Buffer.from(await answer.arrayBuffer()));
    return file;
  };
  const saved = async (name: string, value: unknown) => {
    const file = join(folder, name);
    await writeFile(file, JSON.stringify(value));
    return file;
  };

  beforeAll(async () => {
    now = start;
    folder = await mkdtemp(join(tmpdir(), 'provenance-bundle-'));
    // Its key in DATA_DIR, as on the embedded default, for npm run keys:rotate to replace.
    api = await startTestApi(backend, { clock: () => now, services: { signingKey: undefined } });
    [auditor, buyer, rival] = [await api.signUp('AUDITOR'), await api.signUp('BUYER'), await api.signUp('BUYER')];
    ({ auctionId } = (await createMarketplaceListing(api, { price: 5_000, endsAt: new Date(start.getTime() + 3_600_000) })) as { auctionId: string });
    expect(await bid(rival, 51, 75)).toBe(201);
    expect(await bid(buyer, 60)).toBe(201); // the rival's maximum answers at $61
    expect(await bid(buyer, 58)).toBe(409);
    await caughtUpWith(api, auctionStreamId(auctionId), auctionRejectionsStreamId(auctionId));
    await api.deps.checkpointer!.runOnce();

    // The key is rotated while bidding goes on: the next receipt is signed by its successor.
    const rotation = await rotateSigningKey({ commands: api.deps.commands, clock: () => now }, api.deps.dataDir);
    await api.deps.signer.refresh();
    expect(api.deps.signer.keyId).toBe(rotation.added);
    now = new Date(start.getTime() + 600_000);
    expect(await bid(buyer, 80)).toBe(201);
    expect(receipts.map((receipt) => receipt.keyId)).toEqual([rotation.retired, rotation.retired, rotation.added]);

    now = new Date(start.getTime() + 3_600_000);
    await api.deps.lifecycle!.runOnce();
    await caughtUpWith(api, auctionStreamId(auctionId), auctionRejectionsStreamId(auctionId));
    await api.deps.checkpointer!.runOnce();
  });
  afterAll(async () => {
    await api?.close();
    await rm(folder, { recursive: true, force: true });
  });

  it('is fetched by auditors only', async () => {
    for (const [token, status] of [[undefined, 401], [buyer.tokens.accessToken, 403]] as const) {
      expect((await api.call('GET', `/api/audit/auctions/${auctionId}/bundle`, token ? { token } : {})).status).toBe(status);
    }
    expect((await api.call('GET', `/api/audit/auctions/00000000-0000-4000-8000-000000000000/bundle`, { token: auditor.tokens.accessToken })).status).toBe(404);
  });

  it('verifies offline and names the winner and the price the read models show', async () => {
    const file = await bundleFile('bundle.json');
    const { code, out } = await auditVerify(file);
    const row = await api.deps.db.selectFrom('auctions').select(['winner_id', 'final_price', 'winning_bid_id']).where('id', '=', auctionId).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ winner_id: buyer.user.id });
    expect(Number(row.final_price)).toBe(8_000);
    expect(out).toContain(`VERIFIED: won by bidder ${row.winner_id} (bid ${row.winning_bid_id}) for $80.00`);
    expect(out).toContain('✓ In its canonical form (RFC 8785), byte for byte');
    expect(out).toContain(`✓ ${auctionStreamId(auctionId)}: 6 events, every hash and link holds`);
    expect(out).toContain(`✓ ${auctionRejectionsStreamId(auctionId)}: 1 events, every hash and link holds`);
    expect(out).toMatch(/✓ Keys: 2 \(1 retired\), each id its key's, one line of rotations from the first, each successor endorsed by the key it replaced/);
    expect(out).toMatch(/✓ Checkpoints: 2, each signature holds and signs the very events given; the last signs the auction closed/);
    expect(out).toContain('✓ Replayed: the engine decides the 5 recorded commands again, each exactly as recorded');
    expect(code).toBe(0);
  });

  it("checks a bidder's receipts against it, signed before and after the rotation, and refuses a forged one", async () => {
    const file = await bundleFile('bundle-for-receipts.json');
    for (const [index, receipt] of receipts.entries()) {
      const { code, out } = await auditVerify(file, '--receipt', await saved(`receipt-${index}.json`, receipt));
      expect(out).toContain(`RECEIPT HOLDS: the bid of $${receipt.amount.toFixed(2)} is in the auction's log, as signed.`);
      expect(code).toBe(0);
    }
    const forged = await auditVerify(file, '--receipt', await saved('forged.json', { ...receipts[1], amount: 61 }));
    expect(forged.out).toContain("✗ The receipt's signature does not match its contents");
    expect(forged.code).toBe(1);
    const notOne = await auditVerify(file, '--receipt', await saved('not-a-receipt.json', { hello: 'world' }));
    expect(notOne.out).toContain('✗ Not a receipt: format');
    expect(notOne.code).toBe(1);
    // Pinned to the keys the API publishes, as an auditor fetching them should.
    const keys = (await api.call('GET', '/.well-known/provenance-keys.json')).body as { keys: PublishedKey[] };
    expect((await auditVerify(file, '--keys', await saved('keys.json', keys))).code).toBe(0);
    expect((await auditVerify(file, '--keys', await saved('one-key.json', { keys: keys.keys.slice(1) }))).out).toMatch(/✗ Keys: ed25519-[0-9a-f]{16} is not among the keys given with --keys/);
  });

  it('catches any single changed byte (property)', async () => {
    const file = await bundleFile('bundle-for-bytes.json');
    const bytes = Buffer.from(await (await import('node:fs/promises')).readFile(file));
    expect((await verifyAuditBundle(bytes.toString('utf8'))).valid).toBe(true);
    await fc.assert(
      fc.asyncProperty(fc.nat({ max: bytes.length - 1 }), fc.integer({ min: 1, max: 255 }), async (at, delta) => {
        const changed = Buffer.from(bytes);
        changed[at] = (changed[at]! + delta) % 256;
        expect((await verifyAuditBundle(changed.toString('utf8'))).valid).toBe(false);
      }),
      { numRuns: 300 },
    );
  });

  // Last: the key it writes into the log stays there, and every later bundle of this deployment fails.
  it('publishes no key written into the log beside its line of rotations, and refuses a bundle re-signed with one', async () => {
    // A database writer adds a key of their own as a well-formed event, past the engine.
    const forger = await SigningKey.generate();
    await api.deps.eventStore.appendToStream(
      SIGNING_KEYS_STREAM_ID,
      [{ id: randomUUID(), type: 'SigningKeyAdded', data: { keyId: forger.keyId, algorithm: 'Ed25519', publicKey: forger.publicKey, endorsement: null, addedAt: now.toISOString() }, metadata: { actorId: 'signing-keys', actorRoles: ['SYSTEM'], occurredAt: now.toISOString(), correlationId: 'x', commandId: randomUUID() } }],
      { expectedRevision: 'any' },
    );
    const published = (await api.call('GET', '/.well-known/provenance-keys.json')).body.keys as PublishedKey[];
    expect(published.map((key) => key.keyId)).not.toContain(forger.keyId);
    // The forger rewrites the bundle (say, another winner) and signs it with their key, listed in it.
    const genuine = JSON.parse(await (await import('node:fs/promises')).readFile(await bundleFile('bundle-to-forge.json'), 'utf8')) as AuditBundle;
    const { keyId: _keyId, signature: _signature, ...content } = genuine;
    // The bundle carries every key of the log, the forger's included: an auditor sees it.
    expect(content.keys.map((key) => key.keyId)).toContain(forger.keyId);
    const forged = jcs(await forger.sign(content));
    const verdict = await verifyAuditBundle(forged);
    expect(verdict.valid).toBe(false);
    expect(verdict.checks.find((check) => check.what.startsWith('Keys:'))).toEqual({ ok: false, what: `Keys: ${forger.keyId} was added beside the keys before it, not endorsed by one of them` });
  });
});

/**
 * Tampering with the table for real, as its owner: the bundle the API then exports fails, and the
 * script names the revision. On the Postgres-backed stores, where the table is there to change.
 */
describe.each(API_BACKENDS.filter((backend) => backend !== 'KurrentDB'))('audit:verify against a tampered events table on %s', (backend) => {
  let api: TestApi;
  let owner: Awaited<ReturnType<TestApi['storage']['connect']>>;
  let auditor: Account;
  let folder: string;

  const tamper = (change: (sql: SqlQueryable) => Promise<unknown>) =>
    owner.sql.transaction(async (tx) => {
      await tx.query('ALTER TABLE events DISABLE TRIGGER events_append_only');
      await change(tx);
      await tx.query('ALTER TABLE events ENABLE TRIGGER events_append_only');
    });
  /** A fresh auction with three bids, checkpointed: what each case tampers with. */
  const auction = async () => {
    const [one, two] = [await api.signUp('BUYER'), await api.signUp('BUYER')];
    const { auctionId } = (await createMarketplaceListing(api, { price: 5_000 })) as { auctionId: string };
    for (const [account, amount] of [[one, 60], [two, 70], [one, 80]] as const) {
      expect((await api.call('POST', '/api/bids', { token: account.tokens.accessToken, body: { auctionId, amount } })).status).toBe(201);
    }
    await caughtUpWith(api, auctionStreamId(auctionId));
    expect(await api.deps.checkpointer!.runOnce()).toContain(auctionId);
    return auctionId;
  };
  const verified = async (auctionId: string) => {
    const answer = await fetch(`${api.url}/api/audit/auctions/${auctionId}/bundle`, { headers: { authorization: `Bearer ${auditor.tokens.accessToken}` } });
    const file = join(folder, `${auctionId}.json`);
    await writeFile(file, Buffer.from(await answer.arrayBuffer()));
    return auditVerify(file);
  };

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'provenance-tamper-'));
    api = await startTestApi(backend);
    owner = await api.storage.connect();
    auditor = await api.signUp('AUDITOR');
  });
  afterAll(async () => {
    await owner?.close();
    await api?.close();
    await rm(folder, { recursive: true, force: true });
  });

  it("names the revision of a bid whose amount was changed in the table", async () => {
    const auctionId = await auction();
    await tamper((sql) => sql.query(`UPDATE events SET data = jsonb_set(data, '{amount}', '100000') WHERE stream_id = $1 AND stream_revision = 3`, [auctionStreamId(auctionId)]));
    const { code, out } = await verified(auctionId);
    expect(out).toContain(`TAMPERED: ${auctionStreamId(auctionId)} revision 3: Revision 3 was changed: its contents do not match its hash`);
    expect(code).toBe(1);
  });

  it('names a deleted event, and two events swapped', async () => {
    const deleted = await auction();
    await tamper((sql) => sql.query(`DELETE FROM events WHERE stream_id = $1 AND stream_revision = 2`, [auctionStreamId(deleted)]));
    expect((await verified(deleted)).out).toContain(`TAMPERED: ${auctionStreamId(deleted)} revision 2: Revision 2 is missing: the stream goes on at revision 3`);

    const swapped = await auction();
    await tamper(async (sql) => {
      const stream = auctionStreamId(swapped);
      await sql.query(`UPDATE events SET stream_revision = -1 WHERE stream_id = $1 AND stream_revision = 3`, [stream]);
      await sql.query(`UPDATE events SET stream_revision = 3 WHERE stream_id = $1 AND stream_revision = 4`, [stream]);
      await sql.query(`UPDATE events SET stream_revision = 4 WHERE stream_id = $1 AND stream_revision = -1`, [stream]);
    });
    const { code, out } = await verified(swapped);
    expect(out).toContain(`TAMPERED: ${auctionStreamId(swapped)} revision 3:`);
    expect(code).toBe(1);
  });

  it("refuses a checkpoint whose signature was swapped for another's", async () => {
    const [first, second] = [await auction(), await auction()];
    await tamper(async (sql) => {
      const { rows } = await sql.query<{ signature: string }>(`SELECT data->>'signature' AS signature FROM events WHERE stream_id = $1`, [auctionCheckpointsStreamId(second)]);
      await sql.query(`UPDATE events SET data = jsonb_set(data, '{signature}', to_jsonb($2::text)) WHERE stream_id = $1`, [auctionCheckpointsStreamId(first), rows[0]!.signature]);
    });
    const { code, out } = await verified(first);
    expect(out).toMatch(/✗ Checkpoints: Checkpoint 1 \([^)]+\): its signature does not hold/);
    expect(out).toContain('NOT VERIFIED');
    expect(code).toBe(1);
  });
});

/**
 * Property: for random auctions (random bidders, amounts and maxima, some refused, some buy-nows),
 * the bundle verifies, and the engine's replay of it names the winner and the price that the
 * auctions read model shows.
 */
describe.each(API_BACKENDS)('replaying a verified bundle on %s (property)', (backend) => {
  let now = new Date('2031-07-01T09:00:00.000Z');
  let api: TestApi;
  let auditor: Account;
  let bidders: Account[];

  beforeAll(async () => {
    api = await startTestApi(backend, { clock: () => now });
    auditor = await api.signUp('AUDITOR');
    bidders = [await api.signUp('BUYER'), await api.signUp('BUYER'), await api.signUp('BUYER')];
  });
  afterAll(async () => api?.close());

  const attempt = fc.record({
    bidder: fc.nat({ max: 2 }),
    amount: fc.integer({ min: 45, max: 140 }),
    maximum: fc.option(fc.integer({ min: 0, max: 60 }), { nil: null }),
    buyNow: fc.integer({ min: 0, max: 9 }).map((draw) => draw === 0),
  });

  it('gives the winner and the price of the read model', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(attempt, { minLength: 0, maxLength: 8 }), fc.option(fc.integer({ min: 5_500, max: 9_000 }), { nil: null }), async (attempts, reserve) => {
        const start = now;
        const { auctionId } = (await createMarketplaceListing(api, {
          price: 5_000,
          endsAt: new Date(start.getTime() + 600_000),
          rules: { reservePrice: reserve, buyNowPrice: 15_000 },
        })) as { auctionId: string };
        for (const { bidder, amount, maximum, buyNow } of attempts) {
          const token = bidders[bidder]!.tokens.accessToken;
          if (buyNow) await api.call('POST', '/api/bids/buy-now', { token, body: { auctionId } });
          else await api.call('POST', '/api/bids', { token, body: { auctionId, amount, ...(maximum === null ? {} : { maxAmount: amount + maximum }) } });
        }
        now = new Date(start.getTime() + 600_000);
        await api.deps.lifecycle!.runOnce();
        await caughtUpWith(api, auctionStreamId(auctionId), auctionRejectionsStreamId(auctionId));
        await api.deps.checkpointer!.runOnce();
        const bundle = await fetch(`${api.url}/api/audit/auctions/${auctionId}/bundle`, { headers: { authorization: `Bearer ${auditor.tokens.accessToken}` } });
        const verdict = await verifyAuditBundle(await bundle.text());
        expect(verdict.checks.filter((check) => !check.ok)).toEqual([]);
        const row = await api.deps.db.selectFrom('auctions').select(['status', 'result', 'winner_id', 'final_price']).where('id', '=', auctionId).executeTakeFirstOrThrow();
        expect({ status: verdict.outcome!.status, result: verdict.outcome!.result, winnerId: verdict.outcome!.winnerId, finalPrice: verdict.outcome!.finalPrice }).toEqual({
          status: row.status,
          result: row.result,
          winnerId: row.winner_id,
          finalPrice: row.final_price === null ? null : Number(row.final_price),
        });
        now = new Date(now.getTime() + 1_000);
      }),
      { numRuns: 12 },
    );
  });
});

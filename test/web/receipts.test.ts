import { createHash, generateKeyPairSync, sign } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { AnyBidReceipt, BidReceipt, PublishedKey, ReceiptProof } from '../../api/contracts/receipts';
import { canonicalBytes } from '../../engine/domain/integrity/canonical';
import { inclusionProof, merkleRoot } from '../../engine/domain/integrity/merkle';
import { keyIdOf } from '../../engine/domain/integrity/signatures';
import { auctionPanelMachine } from '../../web/src/features/listing/auction/auction-panel-machine';
import { mergeReceipts, receiptsFilename } from '../../web/src/features/listing/auction/receipts-list';
import { yourReceiptsMachine } from '../../web/src/features/listing/auction/your-receipts-machine';
import type { Auction, PlacedBid } from '../../web/src/features/listing/api';
import type { Snapshot } from '../../web/src/features/listing/auction/auction-facts';
import { MAX_RECEIPTS, readReceipts } from '../../web/src/features/receipts/receipts-file';
import { verifyPageMachine } from '../../web/src/features/receipts/verify-page-machine';
import { ApiError } from '../../web/src/lib/api-client';
import { checkReceipt, judgeReceipt, receiptCheckText, shortHash, type ReceiptCheck } from '../../web/src/lib/receipts/receipt-check';
import { receiptCheckMachine } from '../../web/src/lib/receipts/receipt-check-machine';

const AUCTION_ID = '0b7c6a2e-4f1d-4c3b-8a9e-5d6f7e8a9b0c';
const BID_ID = '3d2c1b0a-9e8f-4a7b-8c6d-5e4f3a2b1c0d';
const STREAM_ID = `auction-${AUCTION_ID}`;
const hex = (n: number) => n.toString(16).padStart(2, '0').repeat(32);

/** A signing key of the test's own, published as the site publishes its keys. */
const { publicKey, privateKey } = generateKeyPairSync('ed25519');
const rawPublicKey = publicKey.export({ format: 'jwk' }).x!;
const keyId = await keyIdOf(rawPublicKey);
const published: PublishedKey = { keyId, algorithm: 'Ed25519', publicKey: rawPublicKey, createdAt: '2026-11-01T00:00:00.000Z', retiredAt: null };

function signed<T extends object>(statement: T): T & { keyId: string; signature: string } {
  const withKey = { ...statement, keyId };
  return { ...withKey, signature: sign(null, canonicalBytes(withKey), privateKey).toString('base64url') };
}

/**
 * A receipt as the API signs one alone in its batch: the key signs the RFC 6962 root of a tree of
 * one leaf, SHA-256(0x00 || the receipt's canonical bytes).
 */
function signedAlone<T extends object>(statement: T): T & { keyId: string; batch: { size: number; index: number; auditPath: string[] }; signature: string } {
  const withKey = { ...statement, keyId };
  const rootHash = createHash('sha256').update(Buffer.concat([Buffer.from([0]), canonicalBytes(withKey)])).digest('hex');
  const root = { format: 'provenance.signed-batch.v1', keyId, size: 1, rootHash };
  return { ...withKey, batch: { size: 1, index: 0, auditPath: [] }, signature: sign(null, canonicalBytes(root), privateKey).toString('base64url') };
}

/** The events of the auction's stream: the bid is revision 2 of 5. */
const leaves = [1, 2, 3, 4, 5].map(hex);

const receiptStatement = (overrides: Partial<BidReceipt>) => ({
    format: 'provenance.bid-receipt.v2' as const,
    auctionId: AUCTION_ID,
    bidId: BID_ID,
    streamId: STREAM_ID,
    revision: 2,
    amount: 130,
    placedAt: '2026-11-26T10:20:00.000Z',
    hash: leaves[2]!,
    previousHash: leaves[1]!,
    ...overrides,
});

function receipt(overrides: Partial<BidReceipt> = {}): BidReceipt {
  return signedAlone(receiptStatement(overrides));
}

/** A receipt signed on its own, as the API signed them before batches. */
function formerReceipt(): AnyBidReceipt {
  const { format: _format, ...statement } = receiptStatement({});
  return signed({ format: 'provenance.bid-receipt.v1' as const, ...statement });
}

async function proofOf(forReceipt: AnyBidReceipt): Promise<ReceiptProof> {
  const checkpoint = signed({
    format: 'provenance.checkpoint.v1' as const,
    auctionId: AUCTION_ID,
    streams: [{ streamId: STREAM_ID, size: leaves.length, rootHash: await merkleRoot(leaves), headHash: leaves.at(-1)! }],
    closed: true,
    signedAt: '2026-11-26T10:21:03.000Z',
  });
  return { bidId: forReceipt.bidId, streamId: STREAM_ID, hash: leaves[2]!, revision: 2, treeSize: leaves.length, auditPath: await inclusionProof(leaves, 2), checkpoint };
}

/** The public routes, as the site answers them; `proof` answers the proof route. */
function serve(proof: () => Promise<Response>) {
  const fetch = vi.fn(async (path: string) => {
    if (path === '/.well-known/provenance-keys.json') return Response.json({ keys: [published] });
    if (path.startsWith(`/api/public/receipts/${BID_ID}/proof?`)) return proof();
    return Response.json({ message: 'Not found' }, { status: 404 });
  });
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

const notYet = async () => Response.json({ message: 'No signed checkpoint covers this bid yet', code: 'NOT_YET_CHECKPOINTED' }, { status: 409, headers: { 'retry-after': '60' } });

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('checking a receipt in the browser', () => {
  it('verified: signed by a published key, and in the signed checkpoint the proof leads to; the proof is asked for with the receipt\'s auction', async () => {
    const mine = receipt();
    const proof = await proofOf(mine);
    const fetch = serve(async () => Response.json(proof));
    const check = await checkReceipt(mine);
    expect(check).toEqual({ outcome: 'VERIFIED', keyId, checkpointSignedAt: '2026-11-26T10:21:03.000Z' });
    expect(receiptCheckText(check)).toMatch(new RegExp(`^Verified: signed by ${keyId} and included in the auction's log as signed on Nov 26, 2026, \\d{1,2}:21:03 [AP]M\\.$`));
    expect(fetch).toHaveBeenCalledWith(`/api/public/receipts/${BID_ID}/proof?auctionId=${AUCTION_ID}`, expect.anything());
  });

  it('a receipt signed on its own before batch signatures (v1) is verified the same way', async () => {
    const former = formerReceipt();
    serve(async () => Response.json(await proofOf(former)));
    expect(await checkReceipt(former)).toEqual({ outcome: 'VERIFIED', keyId, checkpointSignedAt: '2026-11-26T10:21:03.000Z' });
    expect(readReceipts(JSON.stringify([former, receipt()]))).toEqual({ ok: true, receipts: [former, receipt()] });
  });

  it('a receipt whose place in its batch was changed fails its signature', async () => {
    const mine = receipt();
    serve(async () => Response.json(await proofOf(mine)));
    expect(await checkReceipt({ ...mine, batch: { size: 2, index: 1, auditPath: [hex(7)] } })).toEqual({ outcome: 'FAILED', problems: ["The receipt's signature does not match its contents"] });
  });

  it('not in a checkpoint yet (409): the signature is verified, and the user is told to try again in a minute', async () => {
    serve(notYet);
    const check = await checkReceipt(receipt());
    expect(check).toEqual({ outcome: 'PENDING', keyId });
    expect(receiptCheckText(check)).toBe('Signature verified; not in a signed checkpoint yet — try again in a minute.');
  });

  it('a changed amount fails its signature, whatever the proof says', async () => {
    const tampered = { ...receipt(), amount: 13_000 };
    serve(async () => Response.json(await proofOf(tampered)));
    const check = await checkReceipt(tampered);
    expect(check).toEqual({ outcome: 'FAILED', problems: ["The receipt's signature does not match its contents"] });
    expect(receiptCheckText(check)).toBe("Not verified: The receipt's signature does not match its contents.");
  });

  it('a receipt by an unknown key, or for a bid the log does not have, is refused with the reason', async () => {
    serve(async () => Response.json({ message: 'Bid not found', code: 'BID_NOT_FOUND' }, { status: 404 }));
    expect(await checkReceipt({ ...receipt(), keyId: 'ed25519-0000000000000000' })).toEqual({
      outcome: 'FAILED',
      problems: ['The receipt is signed by a key that is not published (ed25519-0000000000000000)', "The auction's log has no proof of this bid: Bid not found"],
    });
    expect(await checkReceipt(receipt())).toEqual({ outcome: 'FAILED', problems: ["The auction's log has no proof of this bid: Bid not found"] });
  });

  it('a proof that leads to another root fails inclusion', async () => {
    const mine = receipt();
    const proof = await proofOf(mine);
    serve(async () => Response.json({ ...proof, auditPath: proof.auditPath.map((_, index) => hex(9 + index)) }));
    const check = await checkReceipt(mine);
    expect(check.outcome).toBe('FAILED');
    expect((check as Extract<ReceiptCheck, { outcome: 'FAILED' }>).problems[0]).toMatch(/does not lead to the checkpoint's root/);
  });

  it('judges an inclusion that failed without a stated problem as not in the log', () => {
    const check = judgeReceipt({ keyId }, { signed: true, included: false, problems: [] }, { kind: 'proof', proof: {} as ReceiptProof });
    expect(check).toEqual({ outcome: 'FAILED', problems: ["The receipt is not in the auction's signed log"] });
  });

  it('shortens a hash to its first 12 characters', () => {
    expect(shortHash(hex(10))).toBe('0a0a0a0a0a0a…');
    expect(shortHash('abc')).toBe('abc');
  });

  it('the check machine: idle until asked (or at once), the verdict, then again on CHECK; a failure to fetch says it could not check', async () => {
    serve(notYet);
    const asked = createActor(receiptCheckMachine, { input: { receipt: receipt() } }).start();
    expect(asked.getSnapshot().value).toBe('idle');
    asked.send({ type: 'CHECK' });
    expect((await waitFor(asked, (snapshot) => snapshot.matches('checked'))).context.result).toEqual({ outcome: 'PENDING', keyId });

    const mine = receipt();
    serve(async () => Response.json(await proofOf(mine)));
    asked.send({ type: 'CHECK' });
    expect((await waitFor(asked, (snapshot) => snapshot.matches('checked') && snapshot.context.result?.outcome === 'VERIFIED')).context.error).toBeNull();

    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))));
    const atOnce = createActor(receiptCheckMachine, { input: { receipt: mine, atOnce: true } }).start();
    expect(atOnce.getSnapshot().value).toBe('checking');
    const failed = await waitFor(atOnce, (snapshot) => snapshot.matches('checked'));
    expect(failed.context).toMatchObject({ result: null, error: 'Could not check the receipt: Failed to fetch' });
  });
});

describe('reading a receipts file on /verify', () => {
  const text = (value: unknown) => JSON.stringify(value);

  it('takes one receipt or a list of them, each exactly as written (unknown fields kept: the signature covers them)', () => {
    const one = receipt();
    expect(readReceipts(text(one))).toEqual({ ok: true, receipts: [one] });
    const withMore = { ...one, note: 'kept' };
    expect(readReceipts(text([one, withMore]))).toEqual({ ok: true, receipts: [one, withMore] });
  });

  it.each([
    ['', 'Choose a receipt file or paste its text first.'],
    ['   ', 'Choose a receipt file or paste its text first.'],
    ['{"format":', 'This is not valid JSON. Use the file exactly as it was downloaded, or paste all of its text.'],
    ['[]', 'The list is empty: there is no receipt in it.'],
    ['42', 'This is not a Provenance bid receipt: it is not a JSON object.'],
    ['{"hello":"world"}', 'This is not a Provenance bid receipt: it has no "format": "provenance.bid-receipt.v2".'],
    ['{"format":"provenance.audit-bundle.v1"}', 'This is not a Provenance bid receipt: it is an audit bundle: check it offline with npm run audit:verify -- bundle.json.'],
  ])('refuses %j: %s', (input, error) => {
    expect(readReceipts(input)).toEqual({ ok: false, error });
  });

  it('names the item of a list that is not a receipt, and the field that is wrong', () => {
    const { amount: _amount, ...withoutAmount } = receipt();
    const reading = readReceipts(text([receipt(), { ...withoutAmount, amount: '130' }]));
    expect(reading).toEqual({ ok: false, error: expect.stringMatching(/^Item 2 of the list is not a Provenance bid receipt: amount: .*number/) });
    expect(readReceipts(text({ ...receipt(), revision: 'two' }))).toEqual({ ok: false, error: expect.stringMatching(/^This is not a Provenance bid receipt: revision: /) });
  });

  it(`checks at most ${MAX_RECEIPTS} receipts at a time`, () => {
    expect(readReceipts(text(Array.from({ length: MAX_RECEIPTS + 1 }, () => receipt())))).toEqual({ ok: false, error: `There are ${MAX_RECEIPTS + 1} receipts: check at most ${MAX_RECEIPTS} at a time.` });
  });

  it('the page: pasted text checked or refused beside its field; a file read, or refused beside its own, keeping what was being checked', async () => {
    const page = createActor(verifyPageMachine).start();
    page.send({ type: 'TEXT.CHECK' });
    expect(page.getSnapshot().context).toMatchObject({ textError: 'Choose a receipt file or paste its text first.', receipts: null });

    const one = receipt();
    page.send({ type: 'TEXT.CHANGE', value: text(one) });
    page.send({ type: 'TEXT.CHECK' });
    expect(page.getSnapshot().context).toMatchObject({ textError: null, receipts: [one], source: { kind: 'text' }, reading: 1 });

    page.send({ type: 'FILE.CHOSEN', file: new File(['not json'], 'notes.json', { type: 'application/json' }) });
    const refused = await waitFor(page, (snapshot) => snapshot.matches('idle'));
    expect(refused.context).toMatchObject({ fileError: expect.stringMatching(/^This is not valid JSON/), receipts: [one], reading: 1 });

    page.send({ type: 'FILE.CHOSEN', file: new File([text([one, one])], `receipts-${AUCTION_ID}.json`, { type: 'application/json' }) });
    const read = await waitFor(page, (snapshot) => snapshot.matches('idle') && snapshot.context.reading === 2);
    expect(read.context).toMatchObject({ fileError: null, receipts: [one, one], source: { kind: 'file', name: `receipts-${AUCTION_ID}.json` } });

    page.send({ type: 'FILE.CHOSEN', file: new File([new Uint8Array(1024 * 1024 + 1)], 'big.json') });
    expect((await waitFor(page, (snapshot) => snapshot.matches('idle'))).context.fileError).toBe('This file is too large for receipts (1025 KB; at most 1 MB).');
    page.send({ type: 'FILE.REFUSED', message: 'Choose the receipt’s .json file (photo.png is not one).' });
    expect(page.getSnapshot().context.fileError).toBe('Choose the receipt’s .json file (photo.png is not one).');
  });
});

describe("the listing's receipts", () => {
  const first = receipt();
  const second = receipt({ bidId: 'b2', revision: 4, amount: 160, hash: leaves[4]!, previousHash: leaves[3]! });

  it('one per bid, in the log\'s order; saved as receipts-<auctionId>.json', () => {
    expect(mergeReceipts([second], [first, { ...second, amount: 161 }])).toEqual([first, { ...second, amount: 161 }]);
    expect(receiptsFilename(AUCTION_ID)).toBe(`receipts-${AUCTION_ID}.json`);
  });

  function start(load: () => Promise<BidReceipt[]>, userId: string | null = 'me') {
    const loads: string[] = [];
    const machine = yourReceiptsMachine.provide({
      actors: {
        load: fromPromise(async ({ input }: { input: { auctionId: string } }) => {
          loads.push(input.auctionId);
          return load();
        }),
      },
    });
    return { actor: createActor(machine, { input: { auctionId: AUCTION_ID, userId } }).start(), loads };
  }

  it('signed out: nothing is read; signing in reads the user\'s receipts; a bid accepted adds its receipt without asking again', async () => {
    const { actor, loads } = start(async () => [first], null);
    expect(actor.getSnapshot().value).toBe('signedOut');
    actor.send({ type: 'USER.CHANGE', userId: 'me' });
    expect((await waitFor(actor, (snapshot) => snapshot.matches('ready'))).context.receipts).toEqual([first]);
    actor.send({ type: 'RECEIPT.ISSUED', receipt: second });
    expect(actor.getSnapshot().context.receipts).toEqual([first, second]);
    expect(loads).toEqual([AUCTION_ID]);
    // The same user again changes nothing; signing out forgets them.
    actor.send({ type: 'USER.CHANGE', userId: 'me' });
    expect(loads).toHaveLength(1);
    actor.send({ type: 'USER.CHANGE', userId: null });
    expect(actor.getSnapshot().context.receipts).toEqual([]);
  });

  it('a receipt issued while the list is read stays; a failure says why, and Try Again reads again', async () => {
    let answer: (receipts: BidReceipt[]) => void = () => undefined;
    let fail = true;
    const { actor } = start(() => (fail ? Promise.reject(new ApiError('Auction not found', 404)) : new Promise((resolve) => (answer = resolve))));
    expect((await waitFor(actor, (snapshot) => snapshot.matches('failed'))).context.error).toBe('Failed to load your receipts: Auction not found');
    fail = false;
    actor.send({ type: 'RETRY' });
    actor.send({ type: 'RECEIPT.ISSUED', receipt: second });
    answer([first]);
    expect((await waitFor(actor, (snapshot) => snapshot.matches('ready'))).context.receipts).toEqual([first, second]);
  });

  it('the auction panel hands on the receipt its bid\'s answer carried', async () => {
    const endsAt = new Date(Date.now() + 86_400_000).toISOString();
    const auction: Auction = {
      auctionId: AUCTION_ID,
      listingId: 'l-1',
      status: 'ACTIVE',
      isActive: true,
      startsAt: new Date(Date.now() - 60_000).toISOString(),
      endsAt,
      currentPrice: 120,
      currentLeaderId: null,
      minimumBid: 125,
      bidCount: 0,
      reserveMet: null,
      buyNowPrice: null,
      buyNowAvailable: false,
      incrementTable: [{ from: 0, increment: 5 }],
      softClose: null,
      buyersPremiumPercent: 20,
      paymentWindowHours: 168,
      result: null,
      winnerId: null,
      finalPrice: null,
      version: 2,
    };
    const placed: PlacedBid = {
      id: BID_ID,
      auctionId: AUCTION_ID,
      bidderId: 'me',
      amount: 130,
      maxAmount: null,
      placedAt: first.placedAt,
      status: 'ACCEPTED',
      kind: 'BID',
      auction: { currentPrice: 130, currentLeaderId: 'me', status: 'ACTIVE', minimumBid: 135, endsAt },
      receipt: first,
    };
    const panel = createActor(
      auctionPanelMachine.provide({
        actors: {
          loadSnapshot: fromPromise<Snapshot, { listingKey: string; auctionId: string }>(async () => ({ auction: null, bids: [] })),
          placeBid: fromPromise(async () => placed),
        },
      }),
      { input: { listingKey: 'bat', auction, userId: 'me' } },
    ).start();
    const issued: BidReceipt[] = [];
    panel.on('receiptIssued', ({ receipt: handed }) => issued.push(handed));
    panel.send({ type: 'AMOUNT.CHANGE', value: '130' });
    panel.send({ type: 'BID.SUBMIT' });
    await waitFor(panel, (snapshot) => snapshot.matches({ bidding: 'idle' }) && snapshot.context.banner?.kind === 'success');
    expect(issued).toEqual([first]);
    panel.stop();
  });
});

import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { canonicalBytes } from '../../../engine/domain/integrity/canonical';
import { verifyReceipt, type AnyBidReceipt } from '../../../engine/domain/integrity/receipts';
import { batchRootStatement, verifyBatchSigned, verifySignature, type BatchSigned, type PublishedKey } from '../../../engine/domain/integrity/signatures';
import { SigningKey } from '../../../engine/integrity/signing-key';

/**
 * One signature over many statements (signatures.ts): each statement's RFC 8785 bytes are a leaf
 * of an RFC 6962 tree, the key signs the tree's root and size, each statement carries its path.
 */
const key = await SigningKey.generate();
const other = await SigningKey.generate();
const published = (of: SigningKey): PublishedKey => ({ keyId: of.keyId, algorithm: 'Ed25519', publicKey: of.publicKey, createdAt: '2026-11-01T00:00:00.000Z', retiredAt: null });
const keys = [published(key), published(other)];

const statement = (n: number) => ({ format: 'test.statement.v1', n, note: `statement ${n}`, nested: { values: [n, n / 3, 'é'] } });

/** RFC 6962 by hand, for a tree of two: MTH = SHA-256(0x01 || SHA-256(0x00 || d0) || SHA-256(0x00 || d1)). */
const sha256 = (...parts: Uint8Array[]) => createHash('sha256').update(Buffer.concat(parts)).digest();
const leafHash = (data: Uint8Array) => sha256(Buffer.from([0]), data);

describe('batch signatures', () => {
  test('the key signs {format, keyId, size, rootHash}: the RFC 6962 root over the statements\' canonical bytes, each with its keyId', async () => {
    const [first, second] = await key.signBatch([statement(1), statement(2)]);
    const leaves = [first!, second!].map(({ batch: _batch, signature: _signature, ...signed }) => canonicalBytes(signed));
    expect(new TextDecoder().decode(leaves[0])).toBe(`{"format":"test.statement.v1","keyId":"${key.keyId}","n":1,"nested":{"values":[1,0.3333333333333333,"é"]},"note":"statement 1"}`);
    const rootHash = sha256(Buffer.from([1]), leafHash(leaves[0]!), leafHash(leaves[1]!)).toString('hex');
    expect(await verifySignature(key.publicKey, { format: 'provenance.signed-batch.v1', keyId: key.keyId, size: 2, rootHash }, first!.signature)).toBe(true);
    expect(batchRootStatement(key.keyId, 2, rootHash)).toEqual({ format: 'provenance.signed-batch.v1', keyId: key.keyId, size: 2, rootHash });
    expect(first!.batch).toEqual({ size: 2, index: 0, auditPath: [leafHash(leaves[1]!).toString('hex')] });
    expect(second!.signature).toBe(first!.signature);
  });

  test('a statement alone in its batch has no path: its own leaf is the root', async () => {
    const [alone] = await key.signBatch([statement(7)]);
    expect(alone!.batch).toEqual({ size: 1, index: 0, auditPath: [] });
    expect(await verifyBatchSigned(alone!, keys)).toBe(true);
  });

  test('property: every statement of a batch of any size verifies, and any change to one of them, its place or its signature does not', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 40 }), fc.nat(), fc.nat(), async (size, pick, change) => {
        const signed = await key.signBatch(Array.from({ length: size }, (_, n) => statement(n)));
        for (const each of signed) expect(await verifyBatchSigned(each, keys)).toBe(true);
        const chosen = signed[pick % size]!;
        const { batch } = chosen;
        const changed: BatchSigned[] = [
          { ...chosen, n: chosen.n + 1 } as BatchSigned,
          { ...chosen, keyId: other.keyId },
          { ...chosen, batch: { ...batch, size: batch.size + 1 } },
          { ...chosen, batch: { ...batch, index: (batch.index + 1 + (change % size)) % (size + 1) } },
          { ...chosen, batch: { ...batch, auditPath: [...batch.auditPath, 'ab'.repeat(32)] } },
          { ...chosen, signature: (await other.signBatch([statement(0)]))[0]!.signature },
        ];
        if (batch.auditPath.length > 0) {
          const at = change % batch.auditPath.length;
          changed.push({ ...chosen, batch: { ...batch, auditPath: batch.auditPath.map((hash, index) => (index === at ? `${hash.slice(0, 63)}${hash.endsWith('0') ? '1' : '0'}` : hash)) } });
          changed.push({ ...chosen, batch: { ...batch, auditPath: batch.auditPath.slice(1) } });
        }
        for (const each of changed) expect(await verifyBatchSigned(each, keys)).toBe(false);
      }),
      { numRuns: 60 },
    );
  });

  test('a key that is not published verifies nothing, and a malformed path is refused, not thrown', async () => {
    const [signed] = await key.signBatch([statement(1), statement(2), statement(3)]);
    expect(await verifyBatchSigned(signed!, [published(other)])).toBe(false);
    expect(await verifyBatchSigned({ ...signed!, batch: { ...signed!.batch, auditPath: ['not hex', 'zz'] } }, keys)).toBe(false);
    expect(await verifyBatchSigned({ ...signed!, batch: { ...signed!.batch, index: -1 } }, keys)).toBe(false);
    expect(await verifyBatchSigned({ ...signed!, batch: { ...signed!.batch, size: 0 } }, keys)).toBe(false);
  });
});

describe('base64url', () => {
  const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  /** The same bytes written otherwise: the last character's lowest bit is one it does not use (64 bytes leave 4, 32 leave 2). */
  const otherwiseWritten = (text: string) => text.slice(0, -1) + ALPHABET[ALPHABET.indexOf(text.at(-1)!) ^ 1];

  test('a signature or a key written otherwise than canonically is refused: a signed file has one text', async () => {
    const [signed] = await key.signBatch([statement(1)]);
    expect(await verifyBatchSigned(signed!, keys)).toBe(true);
    expect(Buffer.from(otherwiseWritten(signed!.signature), 'base64url')).toEqual(Buffer.from(signed!.signature, 'base64url'));
    expect(await verifyBatchSigned({ ...signed!, signature: otherwiseWritten(signed!.signature) }, keys)).toBe(false);
    const rewrittenKey = { ...published(key), publicKey: otherwiseWritten(key.publicKey) };
    expect(await verifyBatchSigned(signed!, [rewrittenKey])).toBe(false);
  });
});

describe('receipts of both versions', () => {
  const receiptStatement = { auctionId: 'a-1', bidId: 'b-1', streamId: 'auction-a-1', revision: 4, amount: 130, placedAt: '2026-11-26T10:20:00.000Z', hash: 'ab'.repeat(32), previousHash: 'cd'.repeat(32) };

  test('a receipt signed in a batch (v2) verifies; so does one signed on its own before batches (v1)', async () => {
    const [batched] = await key.signBatch([{ format: 'provenance.bid-receipt.v2' as const, ...receiptStatement }, { format: 'provenance.bid-receipt.v2' as const, ...receiptStatement, bidId: 'b-2' }]);
    expect(await verifyReceipt(batched!, keys)).toEqual({ signed: true, included: null, problems: [] });
    const former = await key.sign({ format: 'provenance.bid-receipt.v1' as const, ...receiptStatement });
    expect(await verifyReceipt(former, keys)).toEqual({ signed: true, included: null, problems: [] });
  });

  test('a version 1 receipt given a batch, or a version 2 receipt stripped of its batch, does not verify', async () => {
    const [batched] = await key.signBatch([{ format: 'provenance.bid-receipt.v2' as const, ...receiptStatement }]);
    const former = await key.sign({ format: 'provenance.bid-receipt.v1' as const, ...receiptStatement });
    const relabelled = { ...batched!, format: 'provenance.bid-receipt.v1' } as unknown as AnyBidReceipt;
    expect((await verifyReceipt(relabelled, keys)).signed).toBe(false);
    expect((await verifyReceipt({ ...former, format: 'provenance.bid-receipt.v2', batch: { size: 1, index: 0, auditPath: [] } } as AnyBidReceipt, keys)).signed).toBe(false);
    expect((await verifyReceipt({ ...batched!, amount: 131 }, keys)).problems).toEqual(["The receipt's signature does not match its contents"]);
  });
});

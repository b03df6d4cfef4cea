import fc from 'fast-check';
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sha256Bytes } from '../../../engine/integrity/event-hash';
import {
  MerkleAccumulator,
  hashLeaf,
  inclusionProof,
  inclusionProofOfData,
  merkleRoot,
  merkleRootOfData,
  rootFromInclusionProof,
  rootAndInclusionProofsOfLeafHashes,
  rootFromInclusionProofOfData,
  type Hex,
  type Sha256,
} from '../../../engine/domain/integrity/merkle';

/**
 * RFC 6962 Merkle trees: the published test vectors of transparency-dev/merkle (testonly/constants.go,
 * proof/verify_test.go — the tree Trillian and certificate-transparency-go test against), a reference
 * written straight from the RFC's recursive definitions (synchronous node:crypto, sharing no code with the
 * module), and properties over random logs.
 */

const bytes = (hex: string) => Uint8Array.from(Buffer.from(hex, 'hex'));
const hex = (data: Uint8Array) => Buffer.from(data).toString('hex');
/** The tree of a batch signature, built from its leaves' hashes with the digest given (Web Crypto by default). */
const treeOf = async (leaves: readonly Uint8Array[], sha256?: Sha256) => rootAndInclusionProofsOfLeafHashes(await Promise.all(leaves.map((data) => hashLeaf(data))), sha256);

// ---- Published vectors ------------------------------------------------------------------------

const LEAF_DATA = ['', '00', '10', '2021', '3031', '40414243', '5051525354555657', '606162636465666768696a6b6c6d6e6f'].map(bytes);

const EMPTY_ROOT = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';

/** Root of the tree of the first `size` leaves, for size 1..8 (RootHashes). */
const ROOTS: Record<number, string> = {
  1: '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d',
  2: 'fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125',
  3: 'aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77',
  4: 'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
  5: '4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4',
  6: '76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef',
  7: 'ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c',
  8: '5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328',
};

/** Leaf hashes (NodeHashes level 0). */
const LEAF_HASHES = [
  '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d',
  '96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7',
  '0298d122906dcfc10892cb53a73992fc5b9f493ea4c9badb27b791b4127a7fe7',
  '07506a85fd9dd2f120eb694f86011e5bb4662e5c415a62917033d4a9624487e7',
  'bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b',
  '4271a26be0d8a84f0bd54c8c302e7cb3a3b5d1fa6780a40bcce2873477dab658',
  'b08693ec2e721597130641e8211e7eedccb4c26413963eee6c1e2ed16ffb1a5f',
  '46f6ffadd3d06a09ff3c5860d2755c8b9819db7df44251788c7d8e3180de8eb1',
];

/** inclusionProofs of verify_test.go, whose leaf numbers are 1-based; here 0-based indices. */
const INCLUSION_PROOFS: { index: number; size: number; path: string[] }[] = [
  { index: 0, size: 1, path: [] },
  {
    index: 0,
    size: 8,
    path: [
      '96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7',
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      '6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4',
    ],
  },
  {
    index: 5,
    size: 8,
    path: [
      'bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b',
      'ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0',
      'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
    ],
  },
  { index: 2, size: 3, path: ['fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125'] },
  {
    index: 1,
    size: 5,
    path: [
      '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d',
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      'bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b',
    ],
  },
];

// ---- Reference: RFC 6962 §2.1 and §2.1.1, recursion as written ---------------------------------

const sha256 = (...parts: Uint8Array[]) => {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part);
  return new Uint8Array(hash.digest());
};
const largestPowerOfTwoBelow = (n: number) => {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
};
function referenceRoot(d: readonly Uint8Array[]): Uint8Array {
  if (d.length === 0) return sha256();
  if (d.length === 1) return sha256(Uint8Array.of(0), d[0]!);
  const k = largestPowerOfTwoBelow(d.length);
  return sha256(Uint8Array.of(1), referenceRoot(d.slice(0, k)), referenceRoot(d.slice(k)));
}
function referencePath(m: number, d: readonly Uint8Array[]): Uint8Array[] {
  if (d.length === 1) return [];
  const k = largestPowerOfTwoBelow(d.length);
  return m < k
    ? [...referencePath(m, d.slice(0, k)), referenceRoot(d.slice(k))]
    : [...referencePath(m - k, d.slice(k)), referenceRoot(d.slice(0, k))];
}

// ---- Random logs ---------------------------------------------------------------------------------

/** Distinct event hashes: with duplicates a proof for one copy is rightly a proof for the other. */
const eventHashes = (seed: number, count: number): Hex[] =>
  Array.from({ length: count }, (_, i) => createHash('sha256').update(`${seed}/${i}`).digest('hex'));

const flipBit = (hash: Hex, bit: number): Hex => {
  const data = bytes(hash);
  data[bit >> 3]! ^= 1 << (bit & 7);
  return hex(data);
};

const RUNS = 100;

describe('RFC 6962 tree hash', () => {
  it('gives SHA-256 of nothing for the empty tree', async () => {
    expect(hex(await merkleRootOfData([]))).toBe(EMPTY_ROOT);
    expect(await merkleRoot([])).toBe(EMPTY_ROOT);
    expect(await new MerkleAccumulator().root()).toBe(EMPTY_ROOT);
  });

  it('hashes the published leaves with the 0x00 prefix', async () => {
    expect(await Promise.all(LEAF_DATA.map(async (data) => hex(await hashLeaf(data))))).toEqual(LEAF_HASHES);
  });

  it.each(Object.entries(ROOTS))('gives the published root for the first %s leaves', async (size, root) => {
    expect(hex(await merkleRootOfData(LEAF_DATA.slice(0, Number(size))))).toBe(root);
  });

  it('agrees with the recursive definition for every size up to 70', async () => {
    const leaves = eventHashes(1, 70);
    for (let n = 0; n <= leaves.length; n++) {
      expect(await merkleRoot(leaves.slice(0, n))).toBe(hex(referenceRoot(leaves.slice(0, n).map(bytes))));
    }
  });

  it('takes each hex leaf as its 32 raw bytes and answers in lowercase', async () => {
    const leaf = eventHashes(2, 1)[0]!;
    const expected = hex(sha256(Uint8Array.of(0), bytes(leaf)));
    expect(await merkleRoot([leaf])).toBe(expected);
    expect(await merkleRoot([leaf.toUpperCase()])).toBe(expected);
  });
});

describe('RFC 6962 inclusion proofs', () => {
  it.each(INCLUSION_PROOFS)('gives the published path for leaf $index of $size', async ({ index, size, path }) => {
    const leaves = LEAF_DATA.slice(0, size);
    expect((await inclusionProofOfData(leaves, index)).map(hex)).toEqual(path);
    expect(hex(await rootFromInclusionProofOfData(LEAF_DATA[index]!, index, size, path.map(bytes)))).toBe(ROOTS[size]);
  });

  it('agrees with the recursive PATH for every leaf of every size up to 40, and verifies', async () => {
    const leaves = eventHashes(3, 40);
    for (let n = 1; n <= leaves.length; n++) {
      const tree = leaves.slice(0, n);
      const root = await merkleRoot(tree);
      for (let i = 0; i < n; i++) {
        const proof = await inclusionProof(tree, i);
        expect(proof).toEqual(referencePath(i, tree.map(bytes)).map(hex));
        expect(await rootFromInclusionProof(tree[i]!, i, n, proof)).toBe(root);
      }
    }
  });

  it('gives the root and every leaf\'s path of a tree built once: the published ones, and the recursive PATH up to 40 leaves', async () => {
    for (let size = 1; size <= LEAF_DATA.length; size++) {
      const { root, proofs } = await treeOf(LEAF_DATA.slice(0, size));
      expect(hex(root)).toBe(ROOTS[size]);
      for (const { index, path } of INCLUSION_PROOFS.filter((proof) => proof.size === size)) expect(proofs[index]!.map(hex)).toEqual(path);
    }
    const leaves = eventHashes(5, 40).map(bytes);
    for (let n = 1; n <= leaves.length; n++) {
      const { proofs } = await treeOf(leaves.slice(0, n));
      expect(proofs.map((proof) => proof.map(hex))).toEqual(leaves.slice(0, n).map((_, i) => referencePath(i, leaves.slice(0, n)).map(hex)));
    }
    expect(await treeOf([])).toEqual({ root: bytes(EMPTY_ROOT), proofs: [] });
  });

  it('gives the same with a synchronous digest', async () => {
    const nodeSha256 = (data: Uint8Array) => createHash('sha256').update(data).digest();
    for (let size = 0; size <= LEAF_DATA.length; size++) {
      const [async, sync] = await Promise.all([treeOf(LEAF_DATA.slice(0, size)), treeOf(LEAF_DATA.slice(0, size), nodeSha256)]);
      expect(hex(sync.root)).toBe(hex(async.root));
      expect(sync.proofs.map((proof) => proof.map(hex))).toEqual(async.proofs.map((proof) => proof.map(hex)));
    }
  });

  it('leads from any leaf of a random log to its root', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer(), fc.integer({ min: 1, max: 300 }), fc.nat(), async (seed, n, at) => {
        const leaves = eventHashes(seed, n);
        const i = at % n;
        const proof = await inclusionProof(leaves, i);
        expect(await rootFromInclusionProof(leaves[i]!, i, n, proof)).toBe(await merkleRoot(leaves));
      }),
      { numRuns: RUNS },
    );
  });

  /** A forged proof must not reach the root signed for the size it claims: it gives another root or throws. */
  const rootOrThrown = (leaf: Hex, index: number, size: number, proof: readonly Hex[]) =>
    rootFromInclusionProof(leaf, index, size, proof).catch((error: unknown) => error);

  it('reaches no signed root once a proof hash, the index, the size or the leaf is changed', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer(),
        fc.integer({ min: 2, max: 300 }),
        fc.nat(),
        fc.nat(),
        fc.nat({ max: 255 }),
        async (seed, n, at, other, bit) => {
          const log = eventHashes(seed, 2 * n + 1);
          const leaves = log.slice(0, n);
          const i = at % n;
          const proof = await inclusionProof(leaves, i);
          const root = await merkleRoot(leaves);

          const k = other % proof.length;
          const tampered = proof.map((hash, j) => (j === k ? flipBit(hash, bit) : hash));
          expect(await rootOrThrown(leaves[i]!, i, n, tampered)).not.toBe(root);

          const j = (i + 1 + (other % (n - 1))) % n;
          expect(await rootOrThrown(leaves[i]!, j, n, proof)).not.toBe(root);

          const size = 1 + (other % (2 * n + 1));
          if (size !== n) expect(await rootOrThrown(leaves[i]!, i, size, proof)).not.toBe(await merkleRoot(log.slice(0, size)));

          expect(await rootOrThrown(log[n]!, i, n, proof)).not.toBe(root);
          expect(await rootOrThrown(flipBit(leaves[i]!, bit), i, n, proof)).not.toBe(root);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('proves a leaf of a log of 10,000 events (its speed is a benchmark, not a test)', async () => {
    const leaves = eventHashes(4, 10_000);
    const root = await merkleRoot(leaves);
    const proof = await inclusionProof(leaves, 6_789);
    expect(await rootFromInclusionProof(leaves[6_789]!, 6_789, leaves.length, proof)).toBe(root);
  });
});

describe('MerkleAccumulator', () => {
  it('gives the published root after each append', async () => {
    const accumulator = new MerkleAccumulator();
    for (const [i, data] of LEAF_DATA.entries()) {
      await accumulator.appendData(data);
      expect(accumulator.size).toBe(i + 1);
      expect(await accumulator.root()).toBe(ROOTS[i + 1]);
    }
  });

  it('keeps the root of all leaves appended so far', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer(), fc.integer({ min: 0, max: 100 }), async (seed, n) => {
        const leaves = eventHashes(seed, n);
        const accumulator = new MerkleAccumulator();
        for (let i = 0; i < n; i++) {
          await accumulator.append(leaves[i]!);
          expect(await accumulator.root()).toBe(await merkleRoot(leaves.slice(0, i + 1)));
        }
        expect(await (await MerkleAccumulator.of(leaves)).root()).toBe(await merkleRoot(leaves));
      }),
      { numRuns: 30 },
    );
  });

  it('gives the same root with a synchronous digest, leaves added in batches, hex in either case', async () => {
    const nodeSha256 = (data: Uint8Array) => createHash('sha256').update(data).digest();
    const leaves = eventHashes(9, 77);
    const accumulator = new MerkleAccumulator(nodeSha256);
    await accumulator.appendAll(leaves.slice(0, 30).map((leaf) => leaf.toUpperCase()));
    await accumulator.appendAll([]);
    await accumulator.appendAll(leaves.slice(30));
    expect(accumulator.size).toBe(77);
    expect(await accumulator.root()).toBe(await merkleRoot(leaves));
    await expect(accumulator.appendAll([leaves[0]!, 'not a hash'])).rejects.toThrow(TypeError);
    expect(accumulator.size).toBe(77);
  });

  it("gives the same roots and paths with the server's digest (slices of shared blocks, in and out) as with Web Crypto, over many blocks", async () => {
    const leaves = eventHashes(13, 3_000);
    const accumulator = new MerkleAccumulator(sha256Bytes);
    for (let at = 0; at < leaves.length; at += 700) await accumulator.appendAll(leaves.slice(at, at + 700));
    expect(await accumulator.root()).toBe(await merkleRoot(leaves));
    const leafHashes = await Promise.all(leaves.slice(0, 1_000).map((leaf) => hashLeaf(bytes(leaf), sha256Bytes)));
    const server = await rootAndInclusionProofsOfLeafHashes(leafHashes, sha256Bytes);
    const web = await rootAndInclusionProofsOfLeafHashes(leafHashes);
    expect(hex(server.root)).toBe(hex(web.root));
    expect(server.proofs.map((proof) => proof.map(hex))).toEqual(web.proofs.map((proof) => proof.map(hex)));
  });

  it('keeps overlapping appends of every kind in call order, a root asked for between them included', async () => {
    const leaves = eventHashes(11, 23);
    const accumulator = new MerkleAccumulator();
    const first = accumulator.appendAll(leaves.slice(0, 10));
    const one = accumulator.append(leaves[10]!);
    const rootThen = accumulator.root();
    const asData = accumulator.appendData(bytes(leaves[11]!));
    const rest = accumulator.appendAll(leaves.slice(12));
    expect(await rootThen).toBe(await merkleRoot(leaves.slice(0, 11)));
    await Promise.all([first, one, asData, rest]);
    expect(await accumulator.root()).toBe(await merkleRoot(leaves));
  });

  it('takes a digest that answers later as any thenable, not only as a promise', async () => {
    const thenable = ((data: Uint8Array) => ({
      then: (resolve: (hash: Uint8Array) => void) => resolve(createHash('sha256').update(data).digest()),
    })) as unknown as (data: Uint8Array) => Promise<Uint8Array>;
    const leaves = eventHashes(12, 9);
    expect(await (await MerkleAccumulator.of(leaves, thenable)).root()).toBe(await merkleRoot(leaves));
    const fromThenables = await treeOf(LEAF_DATA, thenable);
    expect(hex(fromThenables.root)).toBe(ROOTS[LEAF_DATA.length]);
  });

  it('keeps overlapping appends in call order', async () => {
    const leaves = eventHashes(5, 37);
    const accumulator = new MerkleAccumulator();
    const appends = leaves.map((leaf) => accumulator.append(leaf));
    expect(await accumulator.root()).toBe(await merkleRoot(leaves));
    await Promise.all(appends);
    expect(accumulator.size).toBe(leaves.length);
  });
});

describe('bad input', () => {
  const leaves = eventHashes(6, 5);

  it.each([
    ['too short', 'abc'],
    ['too long', `${leaves[0]}00`],
    ['not hex', `${leaves[0]!.slice(0, 63)}g`],
    ['prefixed', `0x${leaves[0]!.slice(2)}`],
  ])('refuses a leaf that is %s', async (_, leaf) => {
    await expect(merkleRoot([...leaves, leaf])).rejects.toThrow(TypeError);
    await expect(inclusionProof([leaf], 0)).rejects.toThrow(TypeError);
    await expect(rootFromInclusionProof(leaf, 0, 1, [])).rejects.toThrow(TypeError);
    await expect(new MerkleAccumulator().append(leaf)).rejects.toThrow(TypeError);
  });

  it('refuses a bad proof hash', async () => {
    const proof = await inclusionProof(leaves, 1);
    await expect(rootFromInclusionProof(leaves[1]!, 1, 5, [...proof.slice(1), 'zz'])).rejects.toThrow(TypeError);
  });

  it.each([-1, 5, 1.5, Number.NaN])('refuses to prove leaf %s of 5', async (index) => {
    await expect(inclusionProof(leaves, index)).rejects.toThrow(RangeError);
  });

  it('has no proof in the empty tree', async () => {
    await expect(inclusionProof([], 0)).rejects.toThrow(RangeError);
    await expect(rootFromInclusionProof(leaves[0]!, 0, 0, [])).rejects.toThrow(RangeError);
  });

  it('refuses to check an index outside the tree', async () => {
    await expect(rootFromInclusionProof(leaves[0]!, 5, 5, [])).rejects.toThrow(RangeError);
    await expect(rootFromInclusionProof(leaves[0]!, -1, 5, [])).rejects.toThrow(RangeError);
  });

  it('refuses a proof of the wrong length, saying so', async () => {
    const proof = await inclusionProof(leaves, 1);
    await expect(rootFromInclusionProof(leaves[1]!, 1, 5, proof.slice(1))).rejects.toThrow(/has 3 hashes, not 2/);
    await expect(rootFromInclusionProof(leaves[1]!, 1, 5, [...proof, proof[0]!])).rejects.toThrow(/has 3 hashes, not 4/);
    await expect(rootFromInclusionProof(leaves[0]!, 0, 1, [proof[0]!])).rejects.toThrow(/has 0 hashes, not 1/);
  });
});

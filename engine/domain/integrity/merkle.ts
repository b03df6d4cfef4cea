/**
 * RFC 6962 (Certificate Transparency) Merkle trees, so a bidder can check that their bid event is in an
 * auction's signed checkpoint without trusting us: the tree hash and audit paths are the ones any
 * CT / transparency-dev verifier computes, and the web app runs this same file (hence Web Crypto only,
 * no node: imports).
 *
 * The tree works on leaf data of any length (the published test vectors need that); the Hex functions
 * are thin wrappers for our leaves, which are the 32 raw bytes of each event's SHA-256 hash.
 */

export type Hex = string;

// Domain separation (RFC 6962 §2.1): a leaf can never be passed off as an interior node, or vice versa.
const LEAF_PREFIX = 0x00;
const NODE_PREFIX = 0x01;
const HASH_BYTES = 32;

/**
 * SHA-256 as the tree hashes with it. Web Crypto by default (browser and Node); a server building
 * trees of many leaves passes node:crypto's synchronous one, which costs a fraction of an
 * asynchronous digest per node.
 */
export type Sha256 = (bytes: Uint8Array<ArrayBuffer>) => Promise<Uint8Array> | Uint8Array;

const webCryptoSha256: Sha256 = async (bytes) => new Uint8Array(await globalThis.crypto.subtle.digest('SHA-256', bytes));

/**
 * Where the bytes a digest takes are written: slices of a shared block, handed out in turn. A
 * tree hashes a node of 65 bytes, one more than V8 keeps inside its heap, so a fresh array for
 * each is a buffer of its own, allocated and later swept: about half a microsecond a node,
 * more than node:crypto's SHA-256 of it. A slice is only read by the digest it is given to; a
 * block is dropped once the digests holding its slices are done with them.
 */
const BLOCK_BYTES = 16_384;
let block = new ArrayBuffer(BLOCK_BYTES);
let blockUsed = 0;

function digestInput(length: number): Uint8Array<ArrayBuffer> {
  if (length > BLOCK_BYTES / 4) return new Uint8Array(length);
  if (blockUsed + length > BLOCK_BYTES) {
    block = new ArrayBuffer(BLOCK_BYTES);
    blockUsed = 0;
  }
  const bytes = new Uint8Array(block, blockUsed, length);
  blockUsed += length;
  return bytes;
}

function prefixed(prefix: number, ...parts: readonly Uint8Array[]): Uint8Array<ArrayBuffer> {
  let length = 1;
  for (const part of parts) length += part.length;
  const out = digestInput(length);
  out[0] = prefix;
  let offset = 1;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

type Digest = ReturnType<Sha256>;

/** A leaf's and an interior node's digests, as the digest answers them (at once, or later): the one home of the prefixes. */
const leafDigest = (data: Uint8Array, sha256: Sha256): Digest => sha256(prefixed(LEAF_PREFIX, data));
const nodeDigest = (left: Uint8Array, right: Uint8Array, sha256: Sha256): Digest => sha256(prefixed(NODE_PREFIX, left, right));

export async function hashLeaf(data: Uint8Array, sha256: Sha256 = webCryptoSha256): Promise<Uint8Array> {
  return leafDigest(data, sha256);
}

export async function hashChildren(left: Uint8Array, right: Uint8Array, sha256: Sha256 = webCryptoSha256): Promise<Uint8Array> {
  return nodeDigest(left, right, sha256);
}

const emptyTreeHash = async (sha256: Sha256): Promise<Uint8Array> => sha256(new Uint8Array(0));

/** Whether a Sha256 answered later (Web Crypto, or any thenable) rather than at once (node:crypto). */
const later = (digest: Digest): digest is Promise<Uint8Array> => typeof (digest as Partial<PromiseLike<Uint8Array>>).then === 'function';

/** What a Sha256 gave, awaited only when it answers later. */
async function settled(hashes: readonly Digest[]): Promise<Uint8Array[]> {
  return hashes.some(later) ? Promise.all(hashes) : (hashes as Uint8Array[]);
}

/**
 * Every level of the tree from its leaf hashes up, root last. Built bottom-up rather than by the
 * RFC's recursion so each node is hashed once: RFC 6962's split at the largest power of two below n
 * gives the same tree as pairing neighbours level by level and promoting a level's lone last node
 * unchanged. Each level's hashes run concurrently when the digests are asynchronous (Web Crypto).
 */
async function levelsAbove(leafHashes: readonly Uint8Array[], sha256: Sha256): Promise<(readonly Uint8Array[])[]> {
  const levels: (readonly Uint8Array[])[] = [leafHashes];
  for (let level = leafHashes; level.length > 1; ) {
    const pairs: Digest[] = [];
    for (let i = 0; i + 1 < level.length; i += 2) pairs.push(nodeDigest(level[i]!, level[i + 1]!, sha256));
    const next = await settled(pairs);
    if (level.length % 2 === 1) next.push(level[level.length - 1]!);
    levels.push(next);
    level = next;
  }
  return levels;
}

async function levelsOf(leaves: readonly Uint8Array[], sha256: Sha256): Promise<(readonly Uint8Array[])[]> {
  return levelsAbove(await settled(leaves.map((leaf) => leafDigest(leaf, sha256))), sha256);
}

/** MTH(D[n]) of RFC 6962 §2.1 over leaf data of any length. */
export async function merkleRootOfData(leaves: readonly Uint8Array[], sha256: Sha256 = webCryptoSha256): Promise<Uint8Array> {
  if (leaves.length === 0) return emptyTreeHash(sha256);
  const levels = await levelsOf(leaves, sha256);
  return levels[levels.length - 1]![0]!;
}

/** PATH(m, D[n]) of RFC 6962 §2.1.1: sibling hashes from the leaf up to the root. */
export async function inclusionProofOfData(leaves: readonly Uint8Array[], index: number, sha256: Sha256 = webCryptoSha256): Promise<Uint8Array[]> {
  if (!Number.isSafeInteger(index) || index < 0 || index >= leaves.length) {
    throw new RangeError(`Leaf index ${index} is outside a tree of ${leaves.length} leaves.`);
  }
  return pathIn(await levelsOf(leaves, sha256), index);
}

/**
 * The tree's root and every leaf's audit path, the tree built once (a batch signature hands each
 * leaf its path), from the leaves' hashes (each SHA-256 of 0x00 and the leaf's data, as hashLeaf
 * takes it): a server hashes its leaves' text in one call, without encoding it first.
 */
export async function rootAndInclusionProofsOfLeafHashes(leafHashes: readonly Uint8Array[], sha256: Sha256 = webCryptoSha256): Promise<{ root: Uint8Array; proofs: Uint8Array[][] }> {
  if (leafHashes.length === 0) return { root: await emptyTreeHash(sha256), proofs: [] };
  const levels = await levelsAbove(leafHashes, sha256);
  return { root: levels[levels.length - 1]![0]!, proofs: leafHashes.map((_, index) => pathIn(levels, index)) };
}

function pathIn(levels: readonly (readonly Uint8Array[])[], index: number): Uint8Array[] {
  const path: Uint8Array[] = [];
  let position = index;
  for (const level of levels.slice(0, -1)) {
    const sibling = position % 2 === 0 ? position + 1 : position - 1;
    // A lone last node has no sibling on its level: it is promoted, and contributes nothing to the path.
    if (sibling < level.length) path.push(level[sibling]!);
    position = Math.floor(position / 2);
  }
  return path;
}

/**
 * The audit path length RFC 6962 gives (index, treeSize): the levels below the point where the leaf's
 * path and the last leaf's path meet, plus one node for each left subtree hanging off the right border
 * above it. Checked up front so a truncated or padded proof fails with a reason, not just a wrong root.
 */
function inclusionProofLength(index: number, treeSize: number): number {
  const inner = bitLength(xor(index, treeSize - 1));
  return inner + onesIn(Math.floor(index / 2 ** inner));
}

// Arithmetic rather than bitwise operators: those truncate to 32 bits, and a log may grow beyond that.
const bitLength = (n: number): number => (n === 0 ? 0 : n.toString(2).length);
const onesIn = (n: number): number => [...n.toString(2)].filter((bit) => bit === '1').length;
function xor(a: number, b: number): number {
  let result = 0;
  for (let bit = 1; a > 0 || b > 0; bit *= 2, a = Math.floor(a / 2), b = Math.floor(b / 2)) {
    if (a % 2 !== b % 2) result += bit;
  }
  return result;
}

/**
 * The root a proof leads to, by the verification algorithm of RFC 9162 §2.1.3.2. The caller compares it
 * with the signed checkpoint's root: equal means the leaf is at `index` in the tree of `treeSize` leaves.
 */
export async function rootFromInclusionProofOfData(
  leaf: Uint8Array,
  index: number,
  treeSize: number,
  proof: readonly Uint8Array[],
): Promise<Uint8Array> {
  if (!Number.isSafeInteger(treeSize) || treeSize < 1) throw new RangeError(`Tree size ${treeSize} is not a positive integer.`);
  if (!Number.isSafeInteger(index) || index < 0 || index >= treeSize) {
    throw new RangeError(`Leaf index ${index} is outside a tree of ${treeSize} leaves.`);
  }
  const expected = inclusionProofLength(index, treeSize);
  if (proof.length !== expected) {
    throw new Error(`An inclusion proof for leaf ${index} of ${treeSize} has ${expected} hashes, not ${proof.length}.`);
  }
  if (proof.some((hash) => hash.length !== HASH_BYTES)) throw new TypeError(`Every proof hash must be ${HASH_BYTES} bytes.`);

  let fn = index;
  let sn = treeSize - 1;
  let r = await hashLeaf(leaf);
  for (const p of proof) {
    if (sn === 0) throw new Error('The inclusion proof is longer than the path to the root.');
    if (fn % 2 === 1 || fn === sn) {
      r = await hashChildren(p, r);
      // The right border: climb past the levels where this node was promoted without a sibling.
      while (fn % 2 === 0 && fn !== 0) {
        fn = Math.floor(fn / 2);
        sn = Math.floor(sn / 2);
      }
    } else {
      r = await hashChildren(r, p);
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  if (sn !== 0) throw new Error('The inclusion proof is shorter than the path to the root.');
  return r;
}

const HEX_HASH = /^[0-9a-f]{64}$/i;

/** A hex digit's value (the text is checked to be hex first): 0-9, a-f, A-F. */
const hexDigit = (code: number): number => (code <= 57 ? code - 48 : (code | 32) - 87);

export function bytesOf(hex: Hex): Uint8Array {
  if (typeof hex !== 'string' || !HEX_HASH.test(hex)) {
    throw new TypeError(`Expected a SHA-256 hash as 64 hex characters, got ${JSON.stringify(hex)}.`);
  }
  const bytes = new Uint8Array(HASH_BYTES);
  for (let i = 0; i < HASH_BYTES; i++) bytes[i] = (hexDigit(hex.charCodeAt(2 * i)) << 4) | hexDigit(hex.charCodeAt(2 * i + 1));
  return bytes;
}

/** Each byte's two hex digits: checkpoints' roots and proofs' paths turn into text (a server's batch trees use node:crypto's hex). */
const HEX_PAIRS = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));

export function hexOf(bytes: Uint8Array): Hex {
  let hex = '';
  for (const byte of bytes) hex += HEX_PAIRS[byte];
  return hex;
}

/** The tree hash over event hashes; each leaf's data is the 32 bytes of its hash, not the hex text. */
export async function merkleRoot(leaves: readonly Hex[], sha256?: Sha256): Promise<Hex> {
  return hexOf(await merkleRootOfData(leaves.map(bytesOf), sha256));
}

export async function inclusionProof(leaves: readonly Hex[], index: number, sha256?: Sha256): Promise<Hex[]> {
  return (await inclusionProofOfData(leaves.map(bytesOf), index, sha256)).map(hexOf);
}

/** `leaf` is the event hash itself (the leaf data); the RFC 6962 leaf hash is taken here. */
export async function rootFromInclusionProof(leaf: Hex, index: number, treeSize: number, proof: readonly Hex[]): Promise<Hex> {
  return hexOf(await rootFromInclusionProofOfData(bytesOf(leaf), index, treeSize, proof.map(bytesOf)));
}

/**
 * The root of a log that only grows, without keeping its leaves: the roots of the perfect subtrees that
 * size's binary decomposition splits it into (largest, leftmost first), O(log n) hashes. An append merges
 * equal-sized subtrees like a binary counter's carries.
 */
export class MerkleAccumulator {
  readonly #subtrees: Uint8Array[] = [];
  #size = 0;
  // Appends and root() await hashing midway; queued so overlapping calls see each other's results whole.
  #queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly sha256: Sha256 = webCryptoSha256) {}

  static async of(leaves: readonly Hex[], sha256?: Sha256): Promise<MerkleAccumulator> {
    const accumulator = new MerkleAccumulator(sha256);
    await accumulator.appendAll(leaves);
    return accumulator;
  }

  /** Leaves appended so far (those whose append has completed). */
  get size(): number {
    return this.#size;
  }

  append(leaf: Hex): Promise<void> {
    return this.appendAll([leaf]);
  }

  /** Leaves in order, as one queued task: a checkpoint of a hot auction adds a second's events at once. */
  async appendAll(leaves: readonly Hex[]): Promise<void> {
    // Checked before anything is queued: a bad leaf appends none of them.
    const data = leaves.map(bytesOf);
    return this.#serialized(() => this.#grow(data));
  }

  /** A leaf of data of any length, as RFC 6962's own test vectors have them (this log's leaves are event hashes: append). */
  appendData(data: Uint8Array): Promise<void> {
    const copy = data.slice();
    return this.#serialized(() => this.#grow([copy]));
  }

  /** Adds the leaves; a digest is awaited only when it answers later (Web Crypto), not node:crypto's, which a hot auction's every event goes through. */
  async #grow(leaves: readonly Uint8Array[]): Promise<void> {
    for (const data of leaves) {
      const hashed = leafDigest(data, this.sha256);
      let node = later(hashed) ? await hashed : hashed;
      for (let carry = this.#size; carry % 2 === 1; carry = Math.floor(carry / 2)) {
        const merged = nodeDigest(this.#subtrees.pop()!, node, this.sha256);
        node = later(merged) ? await merged : merged;
      }
      // A copy of its own: a digest may answer a slice of a larger block (node:crypto's pool), which the
      // subtree, kept as long as the log grows, would keep alive whole.
      this.#subtrees.push(new Uint8Array(node));
      this.#size += 1;
    }
  }

  async root(): Promise<Hex> {
    return hexOf(await this.rootBytes());
  }

  /** RFC 6962 splits off the largest perfect subtree first, so the smaller ones fold from the right. */
  rootBytes(): Promise<Uint8Array> {
    return this.#serialized(async () => {
      const subtrees = this.#subtrees;
      if (subtrees.length === 0) return emptyTreeHash(this.sha256);
      let root = subtrees[subtrees.length - 1]!;
      for (let i = subtrees.length - 2; i >= 0; i--) root = await hashChildren(subtrees[i]!, root, this.sha256);
      return root;
    });
  }

  #serialized<T>(task: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(task);
    this.#queue = run.catch(() => undefined);
    return run;
  }
}

import { canonicalBytes } from './canonical';
import { bytesOf, hexOf, rootFromInclusionProofOfData } from './merkle';

/**
 * Ed25519 signatures over a statement's RFC 8785 bytes, checked with Web Crypto: the same code
 * verifies in Node (the audit:verify script) and in the browser (a bidder's receipt). Public keys
 * and signatures travel as base64url (a raw 32-byte key, a 64-byte signature). Browser-safe.
 */

/** A key as /.well-known/provenance-keys.json publishes it. */
export interface PublishedKey {
  readonly keyId: string;
  readonly algorithm: 'Ed25519';
  /** The raw 32-byte public key, base64url. */
  readonly publicKey: string;
  readonly createdAt: string;
  /** When it stopped signing; null while it signs. What it signed before stays valid. */
  readonly retiredAt: string | null;
}

/** A statement and who signed it: every signed record names its key and carries its signature. */
export interface Signed {
  readonly keyId: string;
  readonly signature: string;
}

/** What a signature covers: the statement without its signature (its keyId included). */
export function signedPart<T extends Signed>(signed: T): Omit<T, 'signature'> {
  const { signature: _signature, ...statement } = signed;
  return statement;
}

/** Whether `signed` carries a valid signature by the key it names, among `keys`; false for an unknown key. */
export async function verifySigned(signed: Signed, keys: readonly PublishedKey[]): Promise<boolean> {
  const key = keys.find((candidate) => candidate.keyId === signed.keyId);
  if (key === undefined) return false;
  return verifySignature(key.publicKey, signedPart(signed), signed.signature);
}

/**
 * One signature over many statements (a hot auction's receipts, signed as they are answered): the
 * statements' canonical bytes are the leaves of an RFC 6962 tree, the key signs its root, and each
 * statement carries its place in the tree and the audit path to that root. Checking one statement
 * needs only itself: its leaf, the path and the signature; the path's hashes tell nothing of the
 * other statements. An Ed25519 signature costs tens of microseconds; the path, a few hashes.
 */
export const SIGNED_BATCH_FORMAT = 'provenance.signed-batch.v1';

/** A statement's place in the batch its key signed. */
export interface BatchPosition {
  readonly size: number;
  readonly index: number;
  /** RFC 6962 audit path from the statement's leaf to the batch's root, 64 hex characters each. */
  readonly auditPath: readonly string[];
}

/** A statement signed as a leaf of a batch: `signature` is over the batch's root statement (batchRootStatement). */
export interface BatchSigned extends Signed {
  readonly batch: BatchPosition;
}

/** What a batch's signature covers: the root of the tree of its statements' leaves, and how many there are. */
export function batchRootStatement(keyId: string, size: number, rootHash: string) {
  return { format: SIGNED_BATCH_FORMAT, keyId, size, rootHash } as const;
}

/** A batch-signed statement's leaf: its canonical bytes without its place in the batch and the signature (its keyId included). */
export function batchLeaf(signed: BatchSigned): Uint8Array<ArrayBuffer> {
  const { batch: _batch, signature: _signature, ...statement } = signed;
  return canonicalBytes(statement);
}

/** Whether the batch signature of `signed` holds: its path leads to a root the key it names signed. */
export async function verifyBatchSigned(signed: BatchSigned, keys: readonly PublishedKey[]): Promise<boolean> {
  const key = keys.find((candidate) => candidate.keyId === signed.keyId);
  if (key === undefined) return false;
  try {
    const { size, index, auditPath } = signed.batch;
    // One text per value, as for base64url: a path rewritten in upper case would lead to the same root.
    if (!auditPath.every((hash) => LOWERCASE_HASH.test(hash))) return false;
    const root = await rootFromInclusionProofOfData(batchLeaf(signed), index, size, auditPath.map(bytesOf));
    return await verifySignature(key.publicKey, batchRootStatement(signed.keyId, size, hexOf(root)), signed.signature);
  } catch {
    // A path of the wrong length or shape leads nowhere.
    return false;
  }
}

export async function verifySignature(publicKey: string, statement: unknown, signature: string): Promise<boolean> {
  try {
    const key = await globalThis.crypto.subtle.importKey('raw', fromBase64Url(publicKey), { name: 'Ed25519' }, false, ['verify']);
    return await globalThis.crypto.subtle.verify({ name: 'Ed25519' }, key, fromBase64Url(signature), canonicalBytes(statement));
  } catch {
    // A key or a signature that is not even well formed verifies nothing.
    return false;
  }
}

/** A key's id: the first 16 hex characters of the SHA-256 of its raw bytes, so that an id cannot name another key. */
export async function keyIdOf(publicKey: string): Promise<string> {
  const digest = new Uint8Array(await globalThis.crypto.subtle.digest('SHA-256', fromBase64Url(publicKey)));
  return `ed25519-${Array.from(digest.slice(0, 8), (byte) => byte.toString(16).padStart(2, '0')).join('')}`;
}

const BASE64URL = /^[A-Za-z0-9_-]*$/;
const LOWERCASE_HASH = /^[0-9a-f]{64}$/;

export function fromBase64Url(text: string): Uint8Array<ArrayBuffer> {
  if (!BASE64URL.test(text) || text.length % 4 === 1) throw new TypeError('Not base64url text');
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(text.length / 4) * 4, '='));
  // One text per value: a last character whose unused bits are set decodes to the same bytes, and
  // would let a signed file change without its signature or key changing.
  if (btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '') !== text) throw new TypeError('Not canonical base64url text');
  return Uint8Array.from(binary, (char) => char.charCodeAt(0));
}

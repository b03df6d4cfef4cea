import { canonicalBytes } from './canonical';

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

export function fromBase64Url(text: string): Uint8Array<ArrayBuffer> {
  if (!BASE64URL.test(text) || text.length % 4 === 1) throw new TypeError('Not base64url text');
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(text.length / 4) * 4, '='));
  return Uint8Array.from(binary, (char) => char.charCodeAt(0));
}

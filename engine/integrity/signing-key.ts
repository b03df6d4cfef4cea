import { createPrivateKey, createPublicKey, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { canonicalBytes } from '../domain/integrity/canonical';
import { keyIdOf, signedPart, type Signed } from '../domain/integrity/signatures';

/**
 * The Ed25519 key this process signs with (node:crypto). Its public half is published in the log
 * (keys.ts) under its id; signing is synchronous and deterministic (RFC 8032), a few tens of
 * microseconds, so a receipt is signed in the request that placed the bid.
 */
export class SigningKey {
  private constructor(
    readonly privateKey: KeyObject,
    /** The raw 32-byte public key, base64url. */
    readonly publicKey: string,
    readonly keyId: string,
  ) {}

  static async generate(): Promise<SigningKey> {
    return SigningKey.of(generateKeyPairSync('ed25519').privateKey);
  }

  /** A PKCS #8 PEM text, as `toPem` writes it. */
  static async fromPem(pem: string): Promise<SigningKey> {
    return SigningKey.of(createPrivateKey(pem));
  }

  private static async of(privateKey: KeyObject): Promise<SigningKey> {
    if (privateKey.asymmetricKeyType !== 'ed25519') throw new TypeError(`A signing key must be Ed25519, not ${privateKey.asymmetricKeyType}`);
    const publicKey = createPublicKey(privateKey).export({ format: 'jwk' }).x!;
    return new SigningKey(privateKey, publicKey, await keyIdOf(publicKey));
  }

  toPem(): string {
    return this.privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
  }

  /** The statement with this key's id and its signature over the canonical bytes of the rest. */
  sign<T extends object>(statement: T): T & Signed {
    const named = { ...statement, keyId: this.keyId };
    const signature = sign(null, canonicalBytes(signedPart({ ...named, signature: '' })), this.privateKey).toString('base64url');
    return { ...named, signature };
  }
}

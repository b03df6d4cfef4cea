import { createPrivateKey, createPublicKey, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { promisify } from 'node:util';
import { canonicalBytes } from '../domain/integrity/canonical';
import { keyIdOf, signedPart, type Signed } from '../domain/integrity/signatures';

/**
 * The Ed25519 key this process signs with (node:crypto). Its public half is published in the log
 * (signing-keys.ts) under its id. Signing is deterministic (RFC 8032) and takes some tens of
 * microseconds of CPU: it runs on libuv's thread pool, not on the thread that answers requests, so
 * that a hot auction's receipts, each signed in the request that placed its bid, do not queue
 * every other request behind them.
 */
const signOnThreadPool = promisify(sign) as (algorithm: null, data: Uint8Array, key: KeyObject) => Promise<Buffer>;

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
  async sign<T extends object>(statement: T): Promise<T & Signed> {
    const named = { ...statement, keyId: this.keyId };
    const signature = (await signOnThreadPool(null, canonicalBytes(signedPart({ ...named, signature: '' })), this.privateKey)).toString('base64url');
    return { ...named, signature };
  }
}

import { createPrivateKey, createPublicKey, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { canonicalBytes, jcs } from '../domain/integrity/canonical';
import { rootAndInclusionProofsOfLeafHashes } from '../domain/integrity/merkle';
import { batchRootStatement, keyIdOf, signedPart, type BatchSigned, type Signed } from '../domain/integrity/signatures';
import { hexOfBytes, leafHashOfText, sha256Bytes } from './event-hash';

/**
 * The Ed25519 key this process signs with (node:crypto). Its public half is published in the log
 * (signing-keys.ts) under its id. Signing is deterministic (RFC 8032) and takes some tens of
 * microseconds, on the calling thread: a hot auction's receipts share one signature per batch
 * (signBatch), and handing a signature that short to libuv's thread pool costs more CPU than it
 * saves.
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
  async sign<T extends object>(statement: T): Promise<T & Signed> {
    const named = { ...statement, keyId: this.keyId };
    const bytes = canonicalBytes(signedPart({ ...named, signature: '' }));
    const signature = sign(null, bytes, this.privateKey).toString('base64url');
    return { ...named, signature };
  }

  /**
   * The statements with one signature between them (signatures.ts's batch): each gets this key's
   * id, its place in the batch and the audit path from its leaf to the root the key signed.
   */
  async signBatch<T extends object>(statements: readonly T[]): Promise<Array<T & BatchSigned>> {
    const named = statements.map((statement) => ({ ...statement, keyId: this.keyId }));
    const { root, proofs } = await rootAndInclusionProofsOfLeafHashes(named.map((statement) => leafHashOfText(jcs(statement))), sha256Bytes);
    const { signature } = await this.sign(batchRootStatement(this.keyId, named.length, hexOfBytes(root)));
    return named.map((statement, index) => ({ ...statement, batch: { size: named.length, index, auditPath: proofs[index]!.map(hexOfBytes) }, signature }));
  }
}

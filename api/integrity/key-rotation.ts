import { rename, rm, writeFile } from 'node:fs/promises';
import type { CommandHandler } from '../../engine/application/command-handler';
import { commandMetadata, endorsedStatement, SIGNING_KEYS_STREAM_ID, signingKeysDecider } from '../../engine/domain';
import { SigningKey } from '../../engine/integrity/signing-key';
import { readSigningKey, SIGNING_KEYS_ACTOR, signingKeyFile } from './signer';

export interface Rotation {
  readonly retired: string;
  readonly added: string;
}

/**
 * Replaces the signing key in DATA_DIR: a new key, endorsed by the old (its signature over the new
 * key's id and public key), recorded in the log in one append with the old key's retirement; then
 * the new key takes the old one's file. A process signing with the old key finds the retirement in
 * the log and takes the new key from the file (Signer). What the old key signed stays valid.
 */
export async function rotateSigningKey(deps: { commands: CommandHandler; clock: () => Date }, dataDir: string): Promise<Rotation> {
  const current = await readSigningKey(dataDir);
  if (current === null) throw new Error(`No signing key in ${signingKeyFile(dataDir)} yet: the API makes one when it first starts`);
  const next = await SigningKey.generate();
  const { signature } = await current.sign(endorsedStatement(next));
  const file = signingKeyFile(dataDir);
  // Beside the old file until the log has it: a failed append leaves the old key in place.
  const pending = `${file}.next`;
  await writeFile(pending, next.toPem(), { mode: 0o600 });
  try {
    const now = deps.clock();
    await deps.commands.handle(signingKeysDecider, SIGNING_KEYS_STREAM_ID, {
      type: 'RotateSigningKey',
      data: {
        retiring: current.keyId,
        successor: { keyId: next.keyId, algorithm: 'Ed25519', publicKey: next.publicKey, endorsement: { keyId: current.keyId, signature } },
      },
      metadata: commandMetadata(SIGNING_KEYS_ACTOR, now, { correlationId: `keys:rotate:${next.keyId}`, commandId: `rotate-signing-key:${current.keyId}:${next.keyId}` }),
    });
  } catch (error) {
    await rm(pending, { force: true });
    throw error;
  }
  await rename(pending, file);
  return { retired: current.keyId, added: next.keyId };
}

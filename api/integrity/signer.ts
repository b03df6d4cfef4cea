import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { CommandHandler } from '../../engine/application/command-handler';
import type { Logger } from '../../engine/application/logger';
import { loadStream } from '../../engine/application/command-handler';
import { commandMetadata, endorsedStatement, SIGNING_KEYS_STREAM_ID, signingKeysDecider, type Actor, type SigningKeysState } from '../../engine/domain';
import type { EventStore } from '../../engine/eventstore/port';
import { SigningKey } from '../../engine/integrity/signing-key';
import { verifySigned, type BatchSigned, type PublishedKey, type Signed } from '../../engine/domain/integrity/signatures';
import { createOnce } from '../data-dir-files';

/** Who records signing keys in the log: the process that signs with them, or `npm run keys:rotate`. */
export const SIGNING_KEYS_ACTOR: Actor = { userId: 'signing-keys', roles: ['SYSTEM'] };

/** How often a running process looks in the log for its key's retirement (a rotation by the script). */
const WATCH_MS = 5_000;

/** The most statements one batch signature covers: audit paths stay at most 10 hashes long. */
const MAX_BATCH = 1_024;

interface PendingStatement {
  readonly statement: object;
  resolve(signed: BatchSigned): void;
  reject(error: unknown): void;
}

/** Where a process's key lives when SIGNING_KEY does not give it: made on first start. */
export function signingKeyFile(dataDir: string): string {
  return join(dataDir, 'signing-key.pem');
}

/**
 * SIGNING_KEY (a PKCS #8 PEM Ed25519 key) when set; otherwise the key in DATA_DIR/signing-key.pem,
 * generated on first start like the JWT secret. Processes with a folder each have a key each:
 * every key is in the log, and every signature names its key.
 */
export async function loadSigningKey(configured: string | undefined, dataDir: string): Promise<SigningKey> {
  if (configured) return SigningKey.fromPem(configured.replace(/\\n/g, '\n'));
  const stored = await readSigningKey(dataDir);
  if (stored !== null) return stored;
  const key = await SigningKey.generate();
  return (await createOnce(signingKeyFile(dataDir), key.toPem())) ? key : (await readSigningKey(dataDir))!;
}

/** The key in DATA_DIR/signing-key.pem; null when there is none yet. */
export async function readSigningKey(dataDir: string): Promise<SigningKey | null> {
  const file = signingKeyFile(dataDir);
  try {
    return await SigningKey.fromPem(await readFile(file, 'utf8'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new Error(`${file} does not hold an Ed25519 private key (PKCS #8 PEM): ${(error as Error).message}`, { cause: error });
  }
}

/**
 * The log's keys as /.well-known/provenance-keys.json publishes them, oldest first: the line of
 * rotations from the first key, each successor's endorsement checked. A key the log holds beside
 * that line (written into the database, not by a rotation) is not published: nothing it signed verifies.
 */
export async function publishedKeys(store: EventStore): Promise<PublishedKey[]> {
  const { state } = await loadStream(store, signingKeysDecider, SIGNING_KEYS_STREAM_ID);
  const line: PublishedKey[] = [];
  for (const [index, key] of state.entries()) {
    const published: PublishedKey = { keyId: key.keyId, algorithm: 'Ed25519', publicKey: key.publicKey, createdAt: key.addedAt, retiredAt: key.retiredAt };
    const endorsed = key.endorsement !== null && (await verifySigned({ ...endorsedStatement(key), ...key.endorsement }, line));
    if ((index === 0 && key.endorsement === null) || endorsed) line.push(published);
  }
  return line;
}

export interface SignerDependencies {
  readonly commands: CommandHandler;
  readonly store: EventStore;
  readonly clock: () => Date;
  readonly log: Logger;
}

/**
 * This process's signature on checkpoints and receipts. On start its key is recorded in the log
 * (once: the engine answers a key it has with nothing). While it runs it looks in the log now and
 * then: when `npm run keys:rotate` retired the key, it takes the new one from its folder.
 */
export class Signer {
  readonly #deps: SignerDependencies;
  readonly #source: { readonly configured: string | undefined; readonly dataDir: string };
  #key: SigningKey | undefined;
  #timer: NodeJS.Timeout | undefined;
  #warnedRetired = false;
  #pending: PendingStatement[] = [];

  constructor(deps: SignerDependencies, source: { configured: string | undefined; dataDir: string }) {
    this.#deps = deps;
    this.#source = source;
  }

  async start(): Promise<void> {
    const key = await loadSigningKey(this.#source.configured, this.#source.dataDir);
    const retired = (await this.#keysInLog()).find((known) => known.keyId === key.keyId && known.retiredAt !== null);
    if (retired) {
      throw new Error(
        `The signing key ${key.keyId} was retired at ${retired.retiredAt}: it signs nothing more. Give this process its successor ` +
          `(SIGNING_KEY, or ${signingKeyFile(this.#source.dataDir)}; a rotation cut short left it in ${signingKeyFile(this.#source.dataDir)}.next).`,
      );
    }
    await this.#record(key);
    if (!(await publishedKeys(this.#deps.store)).some((published) => published.keyId === key.keyId)) {
      throw new Error(`The signing key ${key.keyId} is in the log beside its line of rotations: nothing it signed would verify. The log's keys need looking into.`);
    }
    this.#key = key;
    this.#timer = setInterval(() => void this.refresh(), WATCH_MS);
    this.#timer.unref();
  }

  stop(): void {
    clearInterval(this.#timer);
  }

  get keyId(): string {
    return this.#current().keyId;
  }

  sign<T extends object>(statement: T): Promise<T & Signed> {
    return this.#current().sign(statement);
  }

  /**
   * The statement signed in a batch (signatures.ts) with every other statement asked for in this
   * turn of the event loop: a hot auction's receipts, answered together as their bids' appends
   * complete together, share one Ed25519 signature instead of paying for one each.
   */
  signInBatch<T extends object>(statement: T): Promise<T & BatchSigned> {
    return new Promise<BatchSigned>((resolve, reject) => {
      // Once every continuation of this turn has run: the bids an append decided together ask together.
      if (this.#pending.length === 0) process.nextTick(() => this.#signPending());
      this.#pending.push({ statement, resolve, reject });
    }) as Promise<T & BatchSigned>;
  }

  #signPending(): void {
    while (this.#pending.length > 0) this.#signBatch(this.#pending.splice(0, MAX_BATCH));
  }

  /** A batch that fails (a statement with no JSON form, say) is signed again one by one: only that statement's caller is refused. */
  #signBatch(batch: readonly PendingStatement[]): void {
    // In a promise, so that a signer not started refuses the batch rather than throwing out of the tick.
    Promise.resolve()
      .then(() => this.#current().signBatch(batch.map((pending) => pending.statement)))
      .then(
        (signed) => batch.forEach((pending, index) => pending.resolve(signed[index]!)),
        (error: unknown) => {
          if (batch.length === 1) batch[0]!.reject(error);
          else for (const pending of batch) this.#signBatch([pending]);
        },
      );
  }

  #current(): SigningKey {
    if (!this.#key) throw new Error('The signer has not started');
    return this.#key;
  }

  async #keysInLog(): Promise<SigningKeysState> {
    return (await loadStream(this.#deps.store, signingKeysDecider, SIGNING_KEYS_STREAM_ID)).state;
  }

  async #record(key: SigningKey): Promise<void> {
    const now = this.#deps.clock();
    await this.#deps.commands.handle(signingKeysDecider, SIGNING_KEYS_STREAM_ID, {
      type: 'AddSigningKey',
      data: { keyId: key.keyId, algorithm: 'Ed25519', publicKey: key.publicKey, endorsement: null },
      metadata: commandMetadata(SIGNING_KEYS_ACTOR, now, { correlationId: `signing-key:${key.keyId}`, commandId: `add-signing-key:${key.keyId}` }),
    });
  }

  /** Looks in the log now (as every few seconds) for the key's retirement, and takes its successor from the folder. */
  async refresh(): Promise<void> {
    try {
      const keys = await this.#keysInLog();
      const current = keys.find((known) => known.keyId === this.#key?.keyId);
      if (current?.retiredAt == null) return;
      const next = await loadSigningKey(this.#source.configured, this.#source.dataDir);
      const active = keys.find((known) => known.keyId === next.keyId && known.retiredAt === null);
      if (active) {
        this.#key = next;
        this.#warnedRetired = false;
        this.#deps.log.info({ keyId: next.keyId, retired: current.keyId }, 'signing with the new key');
      } else if (!this.#warnedRetired) {
        this.#warnedRetired = true;
        this.#deps.log.error({ keyId: current.keyId }, 'the signing key was retired and no active successor is configured for this process');
      }
    } catch (error) {
      this.#deps.log.error({ err: error }, 'could not look for a rotated signing key; looking again soon');
    }
  }
}

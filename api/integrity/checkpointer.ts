import type { Kysely } from 'kysely';
import type { CommandHandler } from '../../engine/application/command-handler';
import type { Logger } from '../../engine/application/logger';
import {
  auctionCheckpointsStreamId,
  auctionRejectionsStreamId,
  auctionStreamId,
  checkpointsDecider,
  commandMetadata,
  DomainError,
  type CheckpointedStream,
  type SignedCheckpoint,
} from '../../engine/domain';
import type { EventStore } from '../../engine/eventstore/port';
import { eventHash, sha256Bytes } from '../../engine/integrity/event-hash';
import { MerkleAccumulator } from '../../engine/domain/integrity/merkle';
import type { Database } from '../database';
import type { AppendedChains } from './appended-chains';
import { SIGNING_KEYS_ACTOR, type Signer } from './signer';

export interface CheckpointerOptions {
  /** Signs when this many events of an auction's log are not signed yet. */
  readonly everyEvents?: number;
  /** Signs a running auction's new events at least this often. */
  readonly everyMs?: number;
  /** The longest the worker sleeps between two looks at the read model. */
  readonly pollMs?: number;
}

export interface CheckpointerDependencies {
  readonly db: Kysely<Database>;
  readonly store: EventStore;
  readonly commands: CommandHandler;
  readonly signer: Signer;
  /** What this process appended: the hashes of what it sent, not read back (appended-chains.ts). */
  readonly appended: AppendedChains;
  readonly clock: () => Date;
  readonly log: Logger;
}

/** A stream as far as this process has checked it: every event hashed (re-hashed from the log, or as this process sent it) and linked, the tree grown with it. */
interface CheckedStream {
  readonly size: number;
  readonly headHash: string | null;
  readonly tree: MerkleAccumulator;
  /** It holds the auction's close or cancellation: the auction's result is in the log. */
  readonly closing: boolean;
}

/** Streams whose checked state the worker keeps between checkpoints (least recently used go first). */
const CHECKED_STREAMS = 2_000;

const endsTheAuction = (type: string) => type === 'AuctionClosed' || type === 'AuctionCancelled';

/** The log changed under a signed checkpoint, or a link broke: nothing more is signed for the auction. */
class TamperedLogError extends Error {}

/**
 * Signs checkpoints of auctions' logs (checkpoints.ts): when an auction closes, and while it runs
 * every `everyEvents` events or every `everyMs`, whichever comes first. It finds the auctions it
 * owes one in the auction_logs read model, then checks every event it has not checked before
 * (hash and link) before it signs: the events this process appended, by the hashes of what it sent
 * (appended-chains.ts); the others read from the log itself. A checkpoint never vouches for an
 * event changed since it was appended. Any number of workers may run (one per
 * API process): the engine records a checkpoint only when it covers more than the last.
 */
export class Checkpointer {
  readonly #deps: CheckpointerDependencies;
  readonly #everyEvents: number;
  readonly #everyMs: number;
  readonly #pollMs: number;
  readonly #checked = new Map<string, CheckedStream>();
  /** Auctions whose log failed its check, reported once each. */
  readonly #tampered = new Set<string>();
  #timer: NodeJS.Timeout | undefined;
  #round: Promise<unknown> = Promise.resolve();
  #running = false;

  constructor(deps: CheckpointerDependencies, options: CheckpointerOptions = {}) {
    this.#deps = deps;
    this.#everyEvents = options.everyEvents ?? 100;
    this.#everyMs = options.everyMs ?? 60_000;
    this.#pollMs = options.pollMs ?? 1_000;
  }

  start(): void {
    if (this.#running) return;
    this.#running = true;
    this.#schedule();
  }

  async stop(): Promise<void> {
    this.#running = false;
    clearTimeout(this.#timer);
    await this.#round;
  }

  /** One round now (after any in progress): the auctions signed. */
  runOnce(): Promise<string[]> {
    const round = this.#round.then(() => this.#signDue());
    this.#round = round.catch(() => undefined);
    return round;
  }

  #schedule(): void {
    if (!this.#running) return;
    this.#timer = setTimeout(() => {
      void this.runOnce()
        .catch((error: unknown) => this.#deps.log.error({ err: error }, 'checkpointer: round failed; trying again'))
        .finally(() => this.#schedule());
    }, this.#pollMs);
    this.#timer.unref();
  }

  async #signDue(): Promise<string[]> {
    const now = this.#deps.clock();
    const due = await this.#deps.db
      .selectFrom('auction_logs')
      .select(['auction_id', 'checkpoints'])
      .where(({ eb, ref, or }) =>
        eb(ref('log_size'), '>', ref('signed_size')).and(
          or([
            eb('closed', '=', true),
            eb(eb(ref('log_size'), '-', ref('signed_size')), '>=', this.#everyEvents),
            eb('signed_at', 'is', null),
            eb('signed_at', '<=', new Date(now.getTime() - this.#everyMs)),
          ]),
        ),
      )
      // Auctions whose log failed its check are left to an operator: they must not crowd out the rest.
      .$if(this.#tampered.size > 0, (query) => query.where('auction_id', 'not in', [...this.#tampered]))
      .orderBy('signed_at', (order) => order.nullsFirst())
      .limit(100)
      .execute();
    const signed: string[] = [];
    for (const { auction_id: auctionId, checkpoints } of due) {
      if (this.#tampered.has(auctionId)) continue;
      try {
        if (await this.#checkpoint(auctionId, checkpoints)) signed.push(auctionId);
      } catch (error) {
        if (error instanceof TamperedLogError) {
          this.#tampered.add(auctionId);
          this.#deps.log.error({ auctionId, problem: error.message }, 'checkpointer: this auction\'s log fails its check; it is signed no more');
        } else if (error instanceof DomainError && error.code === 'CHECKPOINT_FORKED') {
          // The log changed between two checkpoints (another process signed what this one did not see).
          this.#tampered.add(auctionId);
          this.#deps.log.error({ auctionId, problem: error.message }, "checkpointer: this auction's log changed since its last checkpoint; it is signed no more");
        } else if (!(error instanceof DomainError)) {
          this.#deps.log.error({ err: error, auctionId }, 'checkpointer: could not sign; trying again next round');
        }
      }
    }
    return signed;
  }

  /**
   * Signs and records a checkpoint of the auction's log as it stands; false when the engine had it
   * already. `recorded`: the checkpoints the read model knows of; the last of them is read only when
   * a stream is checked from its start (checkedStream), not every round of a hot auction.
   */
  async #checkpoint(auctionId: string, recorded: number): Promise<boolean> {
    const streamIds = [auctionStreamId(auctionId), auctionRejectionsStreamId(auctionId)];
    const needsLast = recorded > 0 && streamIds.some((streamId) => !this.#checked.has(streamId));
    const [lastRecorded] = needsLast ? await this.#deps.store.readStream(auctionCheckpointsStreamId(auctionId), { fromRevision: recorded - 1, maxCount: 1 }) : [];
    const last = lastRecorded?.data as SignedCheckpoint | undefined;
    const streams = await Promise.all(streamIds.map((streamId) => this.#checkedStream(streamId, last)));
    const closed = streams[0]!.closing;
    const now = this.#deps.clock();
    const checkpoint = await this.#deps.signer.sign({
      format: 'provenance.checkpoint.v1' as const,
      auctionId,
      streams: await Promise.all(streams.map(async (stream, index): Promise<CheckpointedStream> => ({ streamId: streamIds[index]!, size: stream.size, rootHash: await stream.tree.root(), headHash: stream.headHash }))),
      closed,
      signedAt: now.toISOString(),
    });
    const sizes = checkpoint.streams.map((stream) => stream.size).join('/');
    const handled = await this.#deps.commands.handle(checkpointsDecider, auctionCheckpointsStreamId(auctionId), {
      type: 'RecordCheckpoint',
      data: checkpoint,
      metadata: commandMetadata(SIGNING_KEYS_ACTOR, now, { correlationId: `checkpoint:${auctionId}`, commandId: `checkpoint:${auctionId}:${sizes}:${closed}` }),
    });
    return handled.events.length > 0 && !handled.repeated;
  }

  /**
   * The stream checked up to its end. A stream seen before goes on with the links this process's
   * own appends answered, each the hash of the event this process sent at that place
   * (appended-chains.ts) and following the one before (a gap, or a link that does not follow,
   * ends them), then with the events read from the log past them, each re-hashed from its stored contents. A
   * stream seen for the first time is read and checked from its start, and its tree must give the
   * last checkpoint's root at the last checkpoint's size: the events signed before are the ones
   * still there.
   */
  async #checkedStream(streamId: string, last: SignedCheckpoint | undefined): Promise<CheckedStream> {
    const known = this.#checked.get(streamId);
    this.#checked.delete(streamId);
    const tree = known?.tree ?? new MerkleAccumulator(sha256Bytes);
    let { size, headHash, closing } = known ?? { size: 0, headHash: null as string | null, closing: false };
    const signedBefore = known === undefined ? last?.streams.find((stream) => stream.streamId === streamId) : undefined;
    const appended = known === undefined ? [] : this.#deps.appended.takeFrom(streamId, size);
    const linked: string[] = [];
    for (const link of appended) {
      if (link.previousHash !== headHash) break;
      linked.push(link.hash);
      headHash = link.hash;
      closing ||= endsTheAuction(link.type);
    }
    await tree.appendAll(linked);
    size += linked.length;
    for (const event of await this.#deps.store.readStream(streamId, { fromRevision: size })) {
      if (event.revision !== size) throw new TamperedLogError(`${streamId}: revision ${size} is missing`);
      if (event.hash === null || event.previousHash !== headHash || eventHash(event) !== event.hash) {
        throw new TamperedLogError(`${streamId}: revision ${size} does not match its hash or does not follow the event before it`);
      }
      await tree.append(event.hash);
      size += 1;
      headHash = event.hash;
      closing ||= endsTheAuction(event.type);
      if (signedBefore !== undefined && size === signedBefore.size && (await tree.root()) !== signedBefore.rootHash) {
        throw new TamperedLogError(`${streamId}: its first ${size} events are not the ones the last checkpoint signed`);
      }
    }
    if (signedBefore !== undefined && size < signedBefore.size) throw new TamperedLogError(`${streamId}: it has fewer events than the last checkpoint signed`);
    const checked = { size, headHash, tree, closing };
    this.#checked.set(streamId, checked);
    if (this.#checked.size > CHECKED_STREAMS) this.#checked.delete(this.#checked.keys().next().value!);
    return checked;
  }
}

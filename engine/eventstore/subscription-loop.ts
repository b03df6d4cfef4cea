import type { BatchHandler, LogPosition, RecordedEvent, Subscription } from './port';

/**
 * Counts appends that a store has seen (its own, or announced by the database) so that a waiting
 * subscription wakes up. Taking the version before reading closes the gap between an empty read
 * and the start of the wait.
 */
export class ChangeSignal {
  #version = 0;
  readonly #waiters = new Set<() => void>();

  get version(): number {
    return this.#version;
  }

  notify(): void {
    this.#version++;
    for (const wake of [...this.#waiters]) wake();
  }

  /** Resolves once the version differs from `seen`, after `timeoutMs`, or on abort. */
  waitForChange(seen: number, signal: AbortSignal, timeoutMs: number): Promise<void> {
    if (this.#version !== seen || signal.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.#waiters.delete(wake);
        signal.removeEventListener('abort', wake);
        resolve();
      };
      const timer = setTimeout(wake, timeoutMs);
      this.#waiters.add(wake);
      signal.addEventListener('abort', wake);
    });
  }
}

export interface SubscriptionSource {
  /** Called before the first read, e.g. to be listening for announcements before looking. */
  ready?(): Promise<void>;
  /** Up to `maxCount` events strictly after `after` (from the start when undefined). */
  read(after: LogPosition | undefined, maxCount: number): Promise<{ events: RecordedEvent[]; heldBack: boolean }>;
  /** Position of the last event in the log, or null when the log is empty. */
  end(): Promise<LogPosition | null>;
  readonly changes: ChangeSignal;
  /** How long to wait for an announcement before looking again anyway. */
  readonly idlePollMs: number;
  /** How soon to look again when committed events wait behind an open transaction. */
  readonly heldBackPollMs: number;
}

const DEFAULT_BATCH_SIZE = 500;

export function runSubscription(
  source: SubscriptionSource,
  options: { after: LogPosition | 'start' | 'end'; signal?: AbortSignal | undefined; maxBatchSize?: number | undefined },
  handler: BatchHandler,
): Subscription {
  const controller = new AbortController();
  const stopOnAbort = () => controller.abort();
  options.signal?.addEventListener('abort', stopOnAbort);
  const { signal } = controller;
  const batchSize = options.maxBatchSize ?? DEFAULT_BATCH_SIZE;

  const done = (async () => {
    await source.ready?.();
    let checkpoint: LogPosition | undefined =
      options.after === 'start' ? undefined : options.after === 'end' ? ((await source.end()) ?? undefined) : options.after;
    while (!signal.aborted) {
      const seen = source.changes.version;
      const { events, heldBack } = await source.read(checkpoint, batchSize);
      if (signal.aborted) break;
      if (events.length > 0) {
        await handler(events);
        checkpoint = events.at(-1)!.position;
        continue;
      }
      await source.changes.waitForChange(seen, signal, heldBack ? source.heldBackPollMs : source.idlePollMs);
    }
  })().finally(() => options.signal?.removeEventListener('abort', stopOnAbort));

  // A failed subscription must not surface as an unhandled rejection when nobody awaits `done`.
  done.catch(() => undefined);

  return {
    done,
    async stop() {
      controller.abort();
      await done.catch(() => undefined);
    },
  };
}

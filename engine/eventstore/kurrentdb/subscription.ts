import {
  END,
  START,
  type AllStreamResolvedEvent,
  type Filter,
  type KurrentDBClient,
  type ReadPosition,
  type RecordedEvent as KurrentRecordedEvent,
} from '@kurrent/kurrentdb-client';
import { comparePositions, type BatchHandler, type RecordedEvent, type SubscribeOptions, type Subscription } from '../port';
import { isSystemEvent } from './metadata-codec';

/** Most events handed to a subscription handler at once, unless the subscriber asks otherwise. */
const MAX_BATCH = 500;
/** Buffered subscription events at which the subscription is paused until the handler catches up. */
const MAX_BUFFERED = 2_000;
/** How long an append waits for a starting 'end' subscription to be confirmed by the server. */
const SUBSCRIPTION_START_WAIT_MS = 5_000;

/** What a subscription shares with the store that opened it. */
export interface SubscriptionHost {
  readonly client: KurrentDBClient;
  /** What of $all to follow (the store's filter). */
  readonly filter: Filter;
  /** KurrentDB's event as the port's (undefined: not the store's). */
  readonly recorded: (event: KurrentRecordedEvent | undefined) => RecordedEvent | undefined;
  /** Stops of the running subscriptions: closing the store calls them all. */
  readonly stops: Set<() => Promise<void>>;
  /** 'end' subscriptions not yet confirmed by the server: appends through the store wait for them. */
  readonly startingSubscriptions: Set<Promise<void>>;
}

/**
 * A catch-up subscription to $all without KurrentDB's own events, handed to `handler` in batches.
 * The server's pushes are buffered and the stream paused while the handler falls behind.
 */
export function subscribeToAll(host: SubscriptionHost, options: SubscribeOptions, handler: BatchHandler): Subscription {
  const controller = new AbortController();
  const stopOnAbort = () => controller.abort();
  if (options.signal?.aborted) controller.abort();
  else options.signal?.addEventListener('abort', stopOnAbort, { once: true });
  const { signal } = controller;

  const after = typeof options.after === 'object' && options.after.commit >= 0n ? options.after : undefined;
  const fromPosition: ReadPosition =
    options.after === 'end' ? END : after === undefined ? START : { commit: after.commit, prepare: after.prepare };

  const queue: RecordedEvent[] = [];
  let failure: { error: unknown } | undefined;
  let ended = false;
  let paused = false;
  let wake: (() => void) | undefined;
  const notify = () => {
    const resolve = wake;
    wake = undefined;
    resolve?.();
  };
  signal.addEventListener('abort', notify, { once: true });

  const source = signal.aborted ? undefined : host.client.subscribeToAll({ fromPosition, filter: host.filter });
  if (source !== undefined) {
    source.on('data', (resolved: AllStreamResolvedEvent) => {
      try {
        const recorded = host.recorded(resolved.event);
        if (recorded === undefined || isSystemEvent(recorded)) return;
        // Exclusive start, whether or not the server already skips the event at `after`.
        if (after !== undefined && comparePositions(recorded.position, after) <= 0) return;
        queue.push(recorded);
        if (queue.length >= MAX_BUFFERED && !paused) {
          paused = true;
          source.pause();
        }
      } catch (error) {
        failure ??= { error };
      }
      notify();
    });
    source.on('error', (error: Error) => {
      failure ??= { error };
      notify();
    });
    const onEnded = () => {
      ended = true;
      notify();
    };
    source.on('end', onEnded);
    source.on('close', onEnded);

    if (options.after === 'end') {
      // "From now on" must include an append this store makes right after subscribing: hold such
      // appends until the server has placed the subscription at the end of the log.
      const started = new Promise<void>((resolve) => {
        const settle = () => {
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(settle, SUBSCRIPTION_START_WAIT_MS);
        timer.unref();
        source.once('confirmation', settle);
        source.once('error', settle);
        source.once('close', settle);
        signal.addEventListener('abort', settle, { once: true });
      });
      host.startingSubscriptions.add(started);
      void started.then(() => host.startingSubscriptions.delete(started));
    }
  }

  const stop = async () => {
    controller.abort();
    await done.catch(() => undefined);
  };
  host.stops.add(stop);

  const done = (async () => {
    try {
      while (!signal.aborted) {
        if (queue.length > 0) {
          const batch = queue.splice(0, options.maxBatchSize ?? MAX_BATCH);
          if (paused && queue.length < MAX_BUFFERED / 2) {
            paused = false;
            source?.resume();
          }
          await handler(batch);
          continue;
        }
        if (failure) throw failure.error;
        if (ended) throw new Error('KurrentDB ended the subscription to $all');
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
      }
    } finally {
      options.signal?.removeEventListener('abort', stopOnAbort);
      host.stops.delete(stop);
      controller.abort();
      await source?.unsubscribe().catch(() => undefined);
    }
  })();
  // A failed subscription must not surface as an unhandled rejection when nobody awaits `done`.
  done.catch(() => undefined);

  return { done, stop };
}

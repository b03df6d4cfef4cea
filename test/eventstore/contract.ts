import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  comparePositions,
  IdempotencyConflictError,
  WrongExpectedRevisionError,
  type EventStore,
  type NewEvent,
  type RecordedEvent,
} from '../../engine/eventstore/port';

export interface OpenedStore {
  store: EventStore;
  cleanup?: () => Promise<void>;
}

/**
 * The behaviour every event store adapter must have. The log may be shared with other tests (a
 * KurrentDB server keeps its log), so every test works on streams with a prefix of its own.
 */
export function eventStoreContract(name: string, open: () => Promise<OpenedStore>): void {
  describe(`event store contract: ${name}`, () => {
    let opened: OpenedStore;
    let store: EventStore;

    beforeAll(async () => {
      opened = await open();
      store = opened.store;
    });

    afterAll(async () => {
      await store?.close();
      await opened?.cleanup?.();
    });

    const newPrefix = () => `c${randomUUID().replace(/-/g, '').slice(0, 12)}`;
    const event = (type = 'Happened', data: unknown = { n: 1 }): NewEvent => ({
      id: randomUUID(),
      type,
      data,
      metadata: { correlationId: 'c-1' },
    });
    const ofPrefix = (events: readonly RecordedEvent[], prefix: string) => events.filter((e) => e.streamId.startsWith(prefix));

    describe('appending and reading a stream', () => {
      it('stores events with revisions from 0, in order, with their data and metadata', async () => {
        const stream = `${newPrefix()}-a`;
        const batch = [event('First', { n: 1, nested: { list: [1, 2] } }), event('Second', { n: 2 })];
        const result = await store.appendToStream(stream, batch, { expectedRevision: 'no_stream' });
        expect(result.nextExpectedRevision).toBe(1);

        const read = await store.readStream(stream);
        expect(read.map((e) => [e.revision, e.id, e.type, e.data, e.metadata, e.streamId])).toEqual([
          [0, batch[0]!.id, 'First', { n: 1, nested: { list: [1, 2] } }, { correlationId: 'c-1' }, stream],
          [1, batch[1]!.id, 'Second', { n: 2 }, { correlationId: 'c-1' }, stream],
        ]);
        expect(read[0]!.recordedAt).toBeInstanceOf(Date);
        expect(comparePositions(read[1]!.position, result.position)).toBe(0);
        expect(comparePositions(read[0]!.position, read[1]!.position)).toBeLessThan(0);
      });

      it('reads a missing stream as empty', async () => {
        expect(await store.readStream(`${newPrefix()}-missing`)).toEqual([]);
      });

      it('reads from a revision and at most a count of events', async () => {
        const stream = `${newPrefix()}-a`;
        await store.appendToStream(stream, [event(), event(), event(), event()], { expectedRevision: 'no_stream' });
        const read = await store.readStream(stream, { fromRevision: 1, maxCount: 2 });
        expect(read.map((e) => e.revision)).toEqual([1, 2]);
      });

      it('refuses an empty batch and ids that are not UUIDs', async () => {
        const stream = `${newPrefix()}-a`;
        await expect(store.appendToStream(stream, [], { expectedRevision: 'any' })).rejects.toThrow(TypeError);
        await expect(
          store.appendToStream(stream, [{ ...event(), id: 'not-a-uuid' }], { expectedRevision: 'any' }),
        ).rejects.toThrow(TypeError);
        expect(await store.readStream(stream)).toEqual([]);
      });
    });

    describe('expected revision', () => {
      it('accepts the right revision and refuses a stale one, saying what the stream holds', async () => {
        const stream = `${newPrefix()}-a`;
        await store.appendToStream(stream, [event()], { expectedRevision: 'no_stream' });
        await store.appendToStream(stream, [event()], { expectedRevision: 0 });
        const refused = store.appendToStream(stream, [event()], { expectedRevision: 0 });
        await expect(refused).rejects.toBeInstanceOf(WrongExpectedRevisionError);
        await expect(refused).rejects.toMatchObject({ streamId: stream, expected: 0, actual: 1 });
        expect(await store.readStream(stream)).toHaveLength(2);
      });

      it('honours no_stream, stream_exists and any', async () => {
        const stream = `${newPrefix()}-a`;
        await expect(store.appendToStream(stream, [event()], { expectedRevision: 'stream_exists' })).rejects.toMatchObject({
          name: 'WrongExpectedRevisionError',
          actual: null,
        });
        await store.appendToStream(stream, [event()], { expectedRevision: 'no_stream' });
        await expect(store.appendToStream(stream, [event()], { expectedRevision: 'no_stream' })).rejects.toMatchObject({
          name: 'WrongExpectedRevisionError',
          actual: 0,
        });
        await store.appendToStream(stream, [event()], { expectedRevision: 'stream_exists' });
        const result = await store.appendToStream(stream, [event(), event()], { expectedRevision: 'any' });
        expect(result.nextExpectedRevision).toBe(3);
        const other = await store.appendToStream(`${stream}-b`, [event()], { expectedRevision: 'any' });
        expect(other.nextExpectedRevision).toBe(0);
      });
    });

    describe('idempotent appends', () => {
      it('treats a retried batch (same event ids) as a no-op, even with a stale expected revision', async () => {
        const stream = `${newPrefix()}-a`;
        const batch = [event(), event()];
        const first = await store.appendToStream(stream, batch, { expectedRevision: 'no_stream' });
        const retry = await store.appendToStream(stream, batch, { expectedRevision: 'no_stream' });
        const retryAny = await store.appendToStream(stream, batch, { expectedRevision: 'any' });
        expect(retry.nextExpectedRevision).toBe(first.nextExpectedRevision);
        expect(comparePositions(retry.position, first.position)).toBe(0);
        expect(retryAny.nextExpectedRevision).toBe(1);
        expect((await store.readStream(stream)).map((e) => e.id)).toEqual(batch.map((e) => e.id));
      });

      it('refuses a batch that only partly overlaps stored events, and writes none of it', async () => {
        const stream = `${newPrefix()}-a`;
        const batch = [event(), event()];
        await store.appendToStream(stream, batch, { expectedRevision: 'no_stream' });
        const fresh = event();
        await expect(store.appendToStream(stream, [batch[1]!, fresh], { expectedRevision: 'any' })).rejects.toBeInstanceOf(
          IdempotencyConflictError,
        );
        expect((await store.readStream(stream)).map((e) => e.id)).toEqual(batch.map((e) => e.id));
      });
    });

    describe('appending to several streams at once', () => {
      it('writes all streams, answering in request order', async () => {
        const prefix = newPrefix();
        await store.appendToStream(`${prefix}-b`, [event()], { expectedRevision: 'no_stream' });
        const results = await store.appendToStreams([
          { streamId: `${prefix}-b`, events: [event('B')], expectedRevision: 0 },
          { streamId: `${prefix}-a`, events: [event('A'), event('A')], expectedRevision: 'no_stream' },
        ]);
        expect(results.map((r) => [r.streamId, r.nextExpectedRevision])).toEqual([
          [`${prefix}-b`, 1],
          [`${prefix}-a`, 1],
        ]);
        expect(await store.readStream(`${prefix}-a`)).toHaveLength(2);
        expect(await store.readStream(`${prefix}-b`)).toHaveLength(2);
      });

      it('writes nothing when one stream is not at its expected revision', async () => {
        const prefix = newPrefix();
        await store.appendToStream(`${prefix}-b`, [event()], { expectedRevision: 'no_stream' });
        await expect(
          store.appendToStreams([
            { streamId: `${prefix}-a`, events: [event()], expectedRevision: 'no_stream' },
            { streamId: `${prefix}-b`, events: [event()], expectedRevision: 'no_stream' },
          ]),
        ).rejects.toBeInstanceOf(WrongExpectedRevisionError);
        expect(await store.readStream(`${prefix}-a`)).toEqual([]);
        expect(await store.readStream(`${prefix}-b`)).toHaveLength(1);
      });
    });

    describe('concurrent writers on one stream', () => {
      it('lets exactly one of several writers expecting the same revision win', async () => {
        const stream = `${newPrefix()}-a`;
        await store.appendToStream(stream, [event()], { expectedRevision: 'no_stream' });
        const outcomes = await Promise.allSettled(
          Array.from({ length: 8 }, () => store.appendToStream(stream, [event(), event()], { expectedRevision: 0 })),
        );
        const won = outcomes.filter((o) => o.status === 'fulfilled');
        const lost = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
        expect(won).toHaveLength(1);
        expect(lost).toHaveLength(7);
        for (const loss of lost) expect(loss.reason).toBeInstanceOf(WrongExpectedRevisionError);
        expect((await store.readStream(stream)).map((e) => e.revision)).toEqual([0, 1, 2]);
      });

      it('loses and duplicates nothing when writers re-read and retry on conflict', async () => {
        const stream = `${newPrefix()}-a`;
        const writers = 6;
        const perWriter = 5;
        const written: string[] = [];
        await Promise.all(
          Array.from({ length: writers }, async () => {
            for (let i = 0; i < perWriter; i++) {
              const next = event();
              for (;;) {
                const current = await store.readStream(stream);
                const expectedRevision = current.length === 0 ? 'no_stream' : current.at(-1)!.revision;
                try {
                  await store.appendToStream(stream, [next], { expectedRevision });
                  written.push(next.id);
                  break;
                } catch (error) {
                  if (!(error instanceof WrongExpectedRevisionError)) throw error;
                }
              }
            }
          }),
        );
        const stored = await store.readStream(stream);
        expect(stored.map((e) => e.revision)).toEqual(Array.from({ length: writers * perWriter }, (_, i) => i));
        expect(new Set(stored.map((e) => e.id))).toEqual(new Set(written));
        expect(written).toHaveLength(writers * perWriter);
      });
    });

    describe('the global log', () => {
      it('reads all events in append order, strictly after a position, at most a count', async () => {
        const prefix = newPrefix();
        const appended: string[] = [];
        for (const suffix of ['a', 'b', 'a', 'c']) {
          const e = event();
          appended.push(e.id);
          await store.appendToStream(`${prefix}-${suffix}`, [e], { expectedRevision: 'any' });
        }
        const firstOfMine = (await store.readStream(`${prefix}-a`))[0]!;
        const all = ofPrefix(await readWholeLog(store), prefix);
        expect(all.map((e) => e.id)).toEqual(appended);
        for (let i = 1; i < all.length; i++) expect(comparePositions(all[i - 1]!.position, all[i]!.position)).toBeLessThan(0);

        const after = ofPrefix(await store.readAll({ after: firstOfMine.position }), prefix);
        expect(after.map((e) => e.id)).toEqual(appended.slice(1));
        expect(await store.readAll({ after: firstOfMine.position, maxCount: 2 })).toHaveLength(2);
      });
    });

    describe('log order across many events', () => {
      it('keeps append order when positions grow a digit (9 -> 10, 99 -> 100, ...)', async () => {
        const prefix = newPrefix();
        const batch = Array.from({ length: 120 }, (_, n) => event('Counted', { n }));
        await store.appendToStream(`${prefix}-a`, batch.slice(0, 60), { expectedRevision: 'no_stream' });
        await store.appendToStream(`${prefix}-a`, batch.slice(60), { expectedRevision: 59 });
        const logged = ofPrefix(await readWholeLog(store), prefix);
        expect(logged.map((e) => (e.data as { n: number }).n)).toEqual(batch.map((_, n) => n));
        const seen: number[] = [];
        const subscription = store.subscribeToAll({ after: 'start' }, async (events) => {
          seen.push(...ofPrefix(events, prefix).map((e) => (e.data as { n: number }).n));
        });
        await waitUntil(() => seen.length >= 120);
        await subscription.stop();
        expect(seen).toEqual(batch.map((_, n) => n));
        const head = await store.headPosition();
        expect(comparePositions(head!, logged.at(-1)!.position)).toBeGreaterThanOrEqual(0);
      });
    });

    describe('the head of the log', () => {
      it('is the position of the newest committed event', async () => {
        const result = await store.appendToStream(`${newPrefix()}-a`, [event(), event()], { expectedRevision: 'no_stream' });
        const head = await store.headPosition();
        expect(head).not.toBeNull();
        // Other writers may share the log (a KurrentDB server): the head is at least what we wrote.
        expect(comparePositions(head!, result.position)).toBeGreaterThanOrEqual(0);
      });
    });

    describe('catch-up subscription', () => {
      it('delivers what was stored, then what is appended, in log order, exactly once', async () => {
        const prefix = newPrefix();
        const before = [event(), event()];
        await store.appendToStream(`${prefix}-a`, before, { expectedRevision: 'no_stream' });
        const seen: RecordedEvent[] = [];
        const subscription = store.subscribeToAll({ after: 'start' }, async (batch) => {
          seen.push(...ofPrefix(batch, prefix));
        });
        const later = [event(), event(), event()];
        await Promise.all(later.map((e, i) => store.appendToStream(`${prefix}-${i}`, [e], { expectedRevision: 'no_stream' })));
        await waitUntil(() => seen.length >= 5);
        const logOrder = ofPrefix(await readWholeLog(store), prefix).map((e) => e.id);
        await subscription.stop();
        expect(seen.map((e) => e.id)).toEqual(logOrder);
        expect(new Set(logOrder)).toEqual(new Set([...before, ...later].map((e) => e.id)));
      });

      it('from the end delivers only what is appended afterwards; from a position, only what follows it', async () => {
        const prefix = newPrefix();
        await store.appendToStream(`${prefix}-a`, [event()], { expectedRevision: 'no_stream' });
        const [first] = await store.readStream(`${prefix}-a`);
        const fromEnd: string[] = [];
        const fromPosition: string[] = [];
        const tail = store.subscribeToAll({ after: 'end' }, async (batch) => {
          fromEnd.push(...ofPrefix(batch, prefix).map((e) => e.id));
        });
        const positioned = store.subscribeToAll({ after: first!.position }, async (batch) => {
          fromPosition.push(...ofPrefix(batch, prefix).map((e) => e.id));
        });
        // Give the 'end' subscription time to take its starting point before appending.
        await new Promise((resolve) => setTimeout(resolve, 300));
        const next = event();
        await store.appendToStream(`${prefix}-a`, [next], { expectedRevision: 0 });
        await waitUntil(() => fromEnd.length >= 1 && fromPosition.length >= 1);
        await Promise.all([tail.stop(), positioned.stop()]);
        expect(fromEnd).toEqual([next.id]);
        expect(fromPosition).toEqual([next.id]);
      });

      it('waits for the handler before delivering more, and stops when the handler fails', async () => {
        const prefix = newPrefix();
        let running = 0;
        let overlapped = false;
        let calls = 0;
        const subscription = store.subscribeToAll({ after: 'end' }, async (batch) => {
          if (ofPrefix(batch, prefix).length === 0) return;
          running++;
          if (running > 1) overlapped = true;
          calls++;
          await new Promise((resolve) => setTimeout(resolve, 20));
          running--;
          if (calls >= 2) throw new Error('projection failed');
        });
        await new Promise((resolve) => setTimeout(resolve, 300));
        for (let i = 0; i < 4; i++) await store.appendToStream(`${prefix}-${i}`, [event()], { expectedRevision: 'no_stream' });
        await expect(subscription.done).rejects.toThrow('projection failed');
        expect(overlapped).toBe(false);
      });

      it('stops delivering once stopped, and on abort', async () => {
        const prefix = newPrefix();
        const seen: string[] = [];
        const controller = new AbortController();
        const subscription = store.subscribeToAll({ after: 'end', signal: controller.signal }, async (batch) => {
          seen.push(...ofPrefix(batch, prefix).map((e) => e.id));
        });
        await new Promise((resolve) => setTimeout(resolve, 300));
        controller.abort();
        await subscription.done;
        await store.appendToStream(`${prefix}-a`, [event()], { expectedRevision: 'no_stream' });
        await new Promise((resolve) => setTimeout(resolve, 200));
        expect(seen).toEqual([]);
      });
    });
  });
}

/** Pages through the whole log, as a projection rebuild would. */
export async function readWholeLog(store: EventStore): Promise<RecordedEvent[]> {
  const all: RecordedEvent[] = [];
  for (;;) {
    const page = await store.readAll({ after: all.at(-1)?.position, maxCount: 1000 });
    all.push(...page);
    if (page.length < 1000) return all;
  }
}

export async function waitUntil(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

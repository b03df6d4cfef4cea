import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  comparePositions,
  IdempotencyConflictError,
  WrongExpectedRevisionError,
  type AppendRequest,
  type EventStore,
  type LogPosition,
  type LogQuery,
  type NewEvent,
  type RecordedEvent,
} from '../../engine/eventstore/port';
import { chainHashes, eventHash } from '../../engine/integrity/event-hash';

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

      it('refuses an empty batch, ids that are not UUIDs, and events without data or metadata', async () => {
        const stream = `${newPrefix()}-a`;
        await expect(store.appendToStream(stream, [], { expectedRevision: 'any' })).rejects.toThrow(TypeError);
        await expect(
          store.appendToStream(stream, [{ ...event(), id: 'not-a-uuid' }], { expectedRevision: 'any' }),
        ).rejects.toThrow(TypeError);
        // Hashed as null, but stored as nothing by one adapter and null by another: no event is without them.
        for (const missing of [{ data: undefined }, { metadata: undefined }]) {
          await expect(store.appendToStream(stream, [{ ...event(), ...missing }], { expectedRevision: 'any' })).rejects.toThrow(/no data or metadata/);
        }
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

      it('answers a stream of a multi-stream append whose batch is stored from what is stored, and appends the others', async () => {
        const prefix = newPrefix();
        const stored = [event(), event()];
        const first = await store.appendToStream(`${prefix}-b`, stored, { expectedRevision: 'no_stream' });
        const fresh = event();
        const results = await store.appendToStreams([
          { streamId: `${prefix}-a`, events: [fresh], expectedRevision: 'no_stream' },
          { streamId: `${prefix}-b`, events: stored, expectedRevision: 'no_stream' },
        ]);
        expect(results.map((r) => [r.streamId, r.nextExpectedRevision])).toEqual([
          [`${prefix}-a`, 0],
          [`${prefix}-b`, 1],
        ]);
        expect(comparePositions(results[1]!.position, first.position)).toBe(0);
        expect((await store.readStream(`${prefix}-a`)).map((e) => e.id)).toEqual([fresh.id]);
        expect((await store.readStream(`${prefix}-b`)).map((e) => e.id)).toEqual(stored.map((e) => e.id));
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

      it("answers every stream with the position of the append's last event, so a reader there has read it all", async () => {
        const prefix = newPrefix();
        const results = await store.appendToStreams([
          { streamId: `${prefix}-a`, events: [event('A'), event('A')], expectedRevision: 'no_stream' },
          { streamId: `${prefix}-b`, events: [event('B')], expectedRevision: 'no_stream' },
        ]);
        const written = [...(await store.readStream(`${prefix}-a`)), ...(await store.readStream(`${prefix}-b`))];
        const last = written.map((recorded) => recorded.position).sort(comparePositions).at(-1)!;
        for (const result of results) expect(comparePositions(result.position, last)).toBe(0);
        const logged = await store.readAll({ after: results[0]!.position });
        expect(logged.filter((recorded) => recorded.streamId.startsWith(prefix))).toEqual([]);
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

      it('names the stream that is not at its expected revision', async () => {
        const prefix = newPrefix();
        await store.appendToStream(`${prefix}-b`, [event(), event()], { expectedRevision: 'no_stream' });
        await expect(
          store.appendToStreams([
            { streamId: `${prefix}-a`, events: [event()], expectedRevision: 'no_stream' },
            { streamId: `${prefix}-b`, events: [event()], expectedRevision: 0 },
          ]),
        ).rejects.toMatchObject({ name: 'WrongExpectedRevisionError', streamId: `${prefix}-b`, expected: 0 });
      });
    });

    describe('checks: streams an append expects at a revision without writing to them', () => {
      it('appends while the checked stream is at its expected revision, and writes nothing to it', async () => {
        const prefix = newPrefix();
        await store.appendToStream(`${prefix}-b`, [event()], { expectedRevision: 'no_stream' });
        const results = await store.appendToStreams([
          { streamId: `${prefix}-a`, events: [event('A')], expectedRevision: 'any' },
          { streamId: `${prefix}-b`, events: [], expectedRevision: 0 },
        ]);
        const [written] = await store.readStream(`${prefix}-a`);
        expect(results).toEqual([
          { streamId: `${prefix}-a`, nextExpectedRevision: 0, position: written!.position, chain: [{ id: written!.id, revision: 0, hash: written!.hash, previousHash: null }] },
          { streamId: `${prefix}-b`, nextExpectedRevision: 0, position: written!.position, chain: [] },
        ]);
        expect(await store.readStream(`${prefix}-b`)).toHaveLength(1);
      });

      it('writes nothing, and names the checked stream, when it has moved on', async () => {
        const prefix = newPrefix();
        await store.appendToStream(`${prefix}-b`, [event(), event()], { expectedRevision: 'no_stream' });
        await expect(
          store.appendToStreams([
            { streamId: `${prefix}-a`, events: [event()], expectedRevision: 'any' },
            { streamId: `${prefix}-b`, events: [], expectedRevision: 0 },
          ]),
        ).rejects.toMatchObject({ name: 'WrongExpectedRevisionError', streamId: `${prefix}-b`, expected: 0, actual: 1 });
        expect(await store.readStream(`${prefix}-a`)).toEqual([]);
      });

      it('answers a retry from what is stored, though the checked stream has moved on since', async () => {
        const prefix = newPrefix();
        await store.appendToStream(`${prefix}-b`, [event()], { expectedRevision: 'no_stream' });
        const batch = [event(), event()];
        const append = () =>
          store.appendToStreams([
            { streamId: `${prefix}-a`, events: batch, expectedRevision: 'any' },
            { streamId: `${prefix}-b`, events: [], expectedRevision: 0 },
          ]);
        const first = await append();
        await store.appendToStream(`${prefix}-b`, [event()], { expectedRevision: 0 });
        expect(await append()).toEqual(first);
        expect((await store.readStream(`${prefix}-a`)).map((e) => e.id)).toEqual(batch.map((e) => e.id));
      });

      it('refuses a check without a revision, and an append of checks only', async () => {
        const prefix = newPrefix();
        await expect(
          store.appendToStreams([
            { streamId: `${prefix}-a`, events: [event()], expectedRevision: 'any' },
            { streamId: `${prefix}-b`, events: [], expectedRevision: 'stream_exists' },
          ]),
        ).rejects.toBeInstanceOf(TypeError);
        await expect(store.appendToStreams([{ streamId: `${prefix}-b`, events: [], expectedRevision: 0 }])).rejects.toBeInstanceOf(TypeError);
        expect(await store.readStream(`${prefix}-a`)).toEqual([]);
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

    describe('the hash chain', () => {
      /** The hash each stored event should have, worked out again from what was read. */
      const recomputed = (recorded: RecordedEvent) =>
        eventHash({ streamId: recorded.streamId, revision: recorded.revision, id: recorded.id, type: recorded.type, data: recorded.data, metadata: recorded.metadata, previousHash: recorded.previousHash });

      const expectChained = (events: readonly RecordedEvent[]) => {
        events.forEach((recorded, index) => {
          expect(recorded.hash).toBe(recomputed(recorded));
          expect(recorded.previousHash).toBe(index === 0 ? null : events[index - 1]!.hash);
        });
      };

      it("hashes every event over its canonical bytes and the hash before it, and answers the chain with the append", async () => {
        const stream = `${newPrefix()}-a`;
        const first = await store.appendToStream(stream, [event('First'), event('Second', { b: 2, a: [1, 'x'] })], { expectedRevision: 'no_stream' });
        const second = await store.appendToStream(stream, [event('Third')], { expectedRevision: 1 });
        const read = await store.readStream(stream);
        expectChained(read);
        expect(read[0]!.previousHash).toBeNull();
        expect(read.map((e) => e.hash)).toEqual([...first.chain, ...second.chain].map((link) => link.hash));
        expect(second.chain).toEqual([{ id: read[2]!.id, revision: 2, hash: read[2]!.hash, previousHash: read[1]!.hash }]);
        // Nothing in it changes without changing the hash.
        const [original] = read;
        for (const changed of [{ revision: 1 }, { streamId: `${stream}x` }, { type: 'Other' }, { data: { n: 2 } }, { metadata: {} }, { previousHash: read[1]!.hash }]) {
          expect(eventHash({ ...original!, previousHash: original!.previousHash, ...changed })).not.toBe(original!.hash);
        }
      });

      it('chains each stream of a multi-stream append on its own, and a retry answers the stored chain', async () => {
        const prefix = newPrefix();
        await store.appendToStream(`${prefix}-a`, [event()], { expectedRevision: 'no_stream' });
        const requests: AppendRequest[] = [
          { streamId: `${prefix}-a`, events: [event(), event()], expectedRevision: 0 },
          { streamId: `${prefix}-b`, events: [event()], expectedRevision: 'any' },
        ];
        const results = await store.appendToStreams(requests);
        const retried = await store.appendToStreams(requests);
        const [a, b] = [await store.readStream(`${prefix}-a`), await store.readStream(`${prefix}-b`)];
        expectChained(a);
        expectChained(b);
        expect(results[0]!.chain.map((link) => link.hash)).toEqual([a[1]!.hash, a[2]!.hash]);
        expect(results[1]!.chain.map((link) => [link.revision, link.previousHash])).toEqual([[0, null]]);
        expect(retried.map((result) => result.chain)).toEqual(results.map((result) => result.chain));
        expect(results.map((result) => result.chain.map((link) => link.id))).toEqual(requests.map((request) => request.events.map((e) => e.id)));
      });

      it('stays one line when writers append to a stream at once, at any revision (property)', async () => {
        await fc.assert(
          fc.asyncProperty(fc.array(fc.integer({ min: 1, max: 3 }), { minLength: 2, maxLength: 8 }), async (batchSizes) => {
            const stream = `${newPrefix()}-a`;
            const results = await Promise.all(
              batchSizes.map((size) => store.appendToStream(stream, Array.from({ length: size }, () => event()), { expectedRevision: 'any' })),
            );
            const read = await store.readStream(stream);
            expect(read.map((e) => e.revision)).toEqual(Array.from({ length: read.length }, (_, i) => i));
            expect(read).toHaveLength(batchSizes.reduce((sum, size) => sum + size, 0));
            expectChained(read);
            const answered = new Map(results.flatMap((result) => result.chain).map((link) => [link.hash, link]));
            expect(read.map((e) => answered.get(e.hash!)?.revision)).toEqual(read.map((e) => e.revision));
          }),
          { numRuns: 8 },
        );
      });

      it('gives back the very data it hashed: unicode, large and small numbers, nesting (property)', async () => {
        // What JSON can hold and Postgres's jsonb takes: no NUL character, no lone surrogate.
        const text = fc.string({ unit: 'grapheme', maxLength: 12 }).filter((value) => !value.includes('\u0000'));
        const number = fc.oneof(
          fc.double({ noNaN: true, noDefaultInfinity: true }).map((value) => (Object.is(value, -0) ? 0 : value)),
          fc.integer(),
          fc.constantFrom(Number.MAX_SAFE_INTEGER, Number.MIN_VALUE, Number.MAX_VALUE, 1e21, 1e-7, 0.1 + 0.2, -1.5e-300),
        );
        const { value: json } = fc.letrec((tie) => ({
          value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, text, number, fc.boolean(), fc.constant(null), tie('array'), tie('object')),
          array: fc.array(tie('value'), { maxLength: 4 }),
          object: fc.dictionary(text, tie('value'), { maxKeys: 4, noNullPrototype: true }),
        }));
        await fc.assert(
          fc.asyncProperty(fc.array(fc.tuple(fc.dictionary(text, json, { maxKeys: 5, noNullPrototype: true }), fc.dictionary(text, json, { maxKeys: 3, noNullPrototype: true })), { minLength: 1, maxLength: 3 }), async (events) => {
            const stream = `${newPrefix()}-a`;
            const batch = events.map(([data, metadata]) => ({ ...event('Random'), data, metadata }));
            const result = await store.appendToStream(stream, batch, { expectedRevision: 'no_stream' });
            // Hashed from copies: not the hashes the append worked out for these very objects.
            const before = chainHashes(stream, 0, null, batch.map((sent) => ({ ...sent })));
            expect(result.chain.map((link) => link.hash)).toEqual(before.map((link) => link.hash));
            const read = await store.readStream(stream);
            expect(read.map((e) => e.hash)).toEqual(before.map((link) => link.hash));
            expectChained(read);
          }),
          { numRuns: 40 },
        );
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

    describe('querying the log', () => {
      const logged = (type: string, actorId: string, correlationId: string): NewEvent => ({
        id: randomUUID(),
        type,
        data: {},
        metadata: { actorId, correlationId, commandId: randomUUID() },
      });
      const ids = (events: readonly RecordedEvent[]) => events.map((e) => e.id);
      /** Where this test's events begin: the log may hold others' (a KurrentDB server). */
      const startOfTest = async () => (await store.headPosition()) ?? undefined;

      it('filters by stream, category, types, actor and correlation, alone and combined', async () => {
        const p = newPrefix();
        const after = await startOfTest();
        const written: Array<[string, NewEvent]> = [
          [`${p}auction-1`, logged('AuctionScheduled', `${p}admin`, `${p}k1`)],
          [`${p}auction-1`, logged('BidPlaced', `${p}alice`, `${p}k2`)],
          [`${p}auction_rejections-1`, logged('BidRejected', `${p}bob`, `${p}k2`)],
          [`${p}listing-1`, logged('ListingPublished', `${p}admin`, `${p}k3`)],
          [`${p}auction-2-b`, logged('BidPlaced', `${p}bob`, `${p}k4`)],
          [`${p}auction-1`, logged('BidPlaced', `${p}bob`, `${p}k5`)],
          [`${p}auction`, logged('Noted', `${p}alice`, `${p}k6`)],
        ];
        for (const [streamId, e] of written) await store.appendToStream(streamId, [e], { expectedRevision: 'any' });
        const nth = (...indexes: number[]) => indexes.map((i) => written[i]![1].id);
        const expectations: Array<[Omit<LogQuery, 'limit'>, string[]]> = [
          [{ stream: `${p}auction-1` }, nth(0, 1, 5)],
          [{ category: `${p}auction` }, nth(0, 1, 4, 5)], // not auction_rejections-1, nor the stream without "-"
          [{ category: `${p}auction_rejections` }, nth(2)],
          [{ types: ['BidPlaced'] }, nth(1, 4, 5)],
          [{ types: ['BidRejected', 'ListingPublished'] }, nth(2, 3)],
          [{ types: [] }, []],
          [{ actorId: `${p}bob` }, nth(2, 4, 5)],
          [{ correlationId: `${p}k2` }, nth(1, 2)],
          [{ category: `${p}auction`, types: ['BidPlaced'], actorId: `${p}bob` }, nth(4, 5)],
          [{ stream: `${p}auction-1`, actorId: `${p}alice` }, nth(1)],
          [{ stream: `${p}auction-1`, correlationId: `${p}k4` }, []],
          [{ actorId: `${p}nobody` }, []],
        ];
        for (const [filter, expected] of expectations) {
          const page = await store.queryLog({ ...filter, after, limit: 100 });
          expect({ filter, ids: ids(page.events), next: page.next }).toEqual({ filter, ids: expected, next: null });
        }
        const firstPage = await store.queryLog({ stream: `${p}auction-1`, limit: 1 });
        const [first] = firstPage.events;
        expect(firstPage.next).toEqual(first!.position);
        expect(first).toMatchObject({ streamId: `${p}auction-1`, revision: 0, type: 'AuctionScheduled', data: {} });
        expect(first!.metadata).toEqual(written[0]![1].metadata);
        expect(first!.recordedAt).toBeInstanceOf(Date);
      });

      it('takes from as inclusive and to as exclusive', async () => {
        const p = newPrefix();
        const stream = `${p}audit-1`;
        for (let i = 0; i < 3; i++) {
          if (i > 0) await new Promise((resolve) => setTimeout(resolve, 25));
          await store.appendToStream(stream, [logged('Happened', 'a', 'k')], { expectedRevision: 'any' });
        }
        const [before, middle, after] = await store.readStream(stream);
        const at = middle!.recordedAt.getTime();
        const timed = async (from?: number, to?: number) =>
          ids(
            (
              await store.queryLog({
                stream,
                ...(from === undefined ? {} : { from: new Date(from) }),
                ...(to === undefined ? {} : { to: new Date(to) }),
                limit: 10,
              })
            ).events,
          );
        expect(await timed(at)).toEqual(ids([middle!, after!]));
        expect(await timed(at + 1)).toEqual(ids([after!]));
        expect(await timed(undefined, at)).toEqual(ids([before!]));
        expect(await timed(at, at + 1)).toEqual(ids([middle!]));
        expect(await timed(at, at)).toEqual([]);
        expect(await timed(before!.recordedAt.getTime(), after!.recordedAt.getTime() + 1)).toEqual(ids([before!, middle!, after!]));
      });

      it('pages with after and next: each match once, in order, at most limit a page, next null at the end', async () => {
        const p = newPrefix();
        const after = await startOfTest();
        const written = Array.from({ length: 7 }, (_, n) => logged(n % 2 === 0 ? 'Even' : 'Odd', `${p}actor`, `${p}k`));
        await store.appendToStreams([
          { streamId: `${p}audit-1`, events: written.slice(0, 4), expectedRevision: 'no_stream' },
          { streamId: `${p}audit-2`, events: written.slice(4), expectedRevision: 'no_stream' },
        ]);
        const inLogOrder = ids(ofPrefix(await readLogAfter(store, after), p));
        expect(new Set(inLogOrder)).toEqual(new Set(written.map((e) => e.id)));

        const pages = await pageThrough(store, { actorId: `${p}actor`, after }, [3]);
        expect(pages.map((page) => page.length)).toEqual([3, 3, 1]);
        expect(pages.flat()).toEqual(inLogOrder);
        // The page holding the last match says so, when it is full too.
        expect(await pageThrough(store, { actorId: `${p}actor`, types: ['Even', 'Odd'], after }, [7])).toEqual([inLogOrder]);
        expect(await pageThrough(store, { correlationId: `${p}k`, after }, [1])).toEqual(inLogOrder.map((id) => [id]));
        expect((await pageThrough(store, { correlationId: `${p}k`, after }, [2, 5])).map((page) => page.length)).toEqual([2, 5]);
      });

      it('finds the matches of a time window however far past `after` they sit', async () => {
        const p = newPrefix();
        const after = await startOfTest();
        const pause = () => new Promise((resolve) => setTimeout(resolve, 5));
        const batch = async (actor: string, count: number) => {
          const events = Array.from({ length: count }, () => logged('Happened', `${p}${actor}`, `${p}k`));
          await store.appendToStream(`${p}audit-${actor}`, events, { expectedRevision: 'no_stream' });
          return store.readStream(`${p}audit-${actor}`);
        };
        const early = await batch('early', 2);
        await pause();
        const filler = await batch('filler', 150);
        await pause();
        const late = await batch('late', 2);
        const one = [1];
        expect((await pageThrough(store, { from: late[0]!.recordedAt, after }, one)).flat()).toEqual(ids(late));
        expect((await pageThrough(store, { actorId: `${p}late`, from: early[0]!.recordedAt, after }, one)).flat()).toEqual(ids(late));
        expect((await pageThrough(store, { correlationId: `${p}k`, to: filler[0]!.recordedAt, after }, one)).flat()).toEqual(ids(early));
        const window = { from: filler[0]!.recordedAt, to: late[0]!.recordedAt, actorId: `${p}filler`, after };
        expect((await pageThrough(store, window, [40])).flat()).toEqual(ids(filler));
      });

      it('refuses a limit that is not a whole number of at least 1', async () => {
        await expect(store.queryLog({ limit: 0 })).rejects.toThrow(RangeError);
        await expect(store.queryLog({ limit: 2.5 })).rejects.toThrow(RangeError);
      });

      it('pages through any filter to exactly the matching events of readAll, in order (property)', async () => {
        const p = newPrefix();
        const categories = [`${p}auction`, `${p}auction_rejections`, `${p}listing`];
        const streamIds = [...categories.flatMap((category) => [`${category}-0`, `${category}-1`]), `${p}listing-0-x`, `${p}auction`];
        const types = ['BidPlaced', 'BidRejected', 'AuctionClosed', 'ListingPublished'];
        const actors = [`${p}alice`, `${p}bob`, `${p}carol`];
        const correlations = [`${p}k1`, `${p}k2`, `${p}k3`];
        // Only the events' shape is generated: each run appends fresh event ids.
        const eventArb = fc.record({ type: fc.constantFrom(...types), actorId: fc.constantFrom(...actors), correlationId: fc.constantFrom(...correlations) });
        const appendArb = fc.uniqueArray(
          fc.record({ streamId: fc.constantFrom(...streamIds), events: fc.array(eventArb, { minLength: 1, maxLength: 3 }) }),
          { minLength: 1, maxLength: 2, selector: (request) => request.streamId },
        );
        const instantArb = fc.record({ at: fc.nat(), shiftMs: fc.constantFrom(-1, 0, 1) });
        const filterArb = fc.record(
          {
            stream: fc.constantFrom(...streamIds),
            category: fc.constantFrom(...categories),
            types: fc.uniqueArray(fc.constantFrom(...types), { minLength: 1, maxLength: 3 }),
            actorId: fc.constantFrom(...actors),
            correlationId: fc.constantFrom(...correlations),
            from: instantArb,
            to: instantArb,
          },
          { requiredKeys: [] },
        );
        await fc.assert(
          fc.asyncProperty(
            fc.array(appendArb, { minLength: 1, maxLength: 12 }),
            fc.array(fc.tuple(filterArb, fc.array(fc.integer({ min: 1, max: 5 }), { minLength: 1, maxLength: 3 })), { minLength: 1, maxLength: 3 }),
            async (appends, filters) => {
              const start = await startOfTest();
              for (const requests of appends) {
                await store.appendToStreams(
                  requests.map(({ streamId, events }): AppendRequest => ({
                    streamId,
                    events: events.map(({ type, actorId, correlationId }) => logged(type, actorId, correlationId)),
                    expectedRevision: 'any',
                  })),
                );
              }
              const written = ofPrefix(await readLogAfter(store, start), p);
              for (const [{ from, to, ...filter }, limits] of filters) {
                const instant = (pick: { at: number; shiftMs: number }) =>
                  new Date(written[pick.at % written.length]!.recordedAt.getTime() + pick.shiftMs);
                const query = { ...filter, ...(from ? { from: instant(from) } : {}), ...(to ? { to: instant(to) } : {}) };
                const expected = written.filter(
                  (e) =>
                    (query.stream === undefined || e.streamId === query.stream) &&
                    (query.category === undefined || e.streamId.startsWith(`${query.category}-`)) &&
                    (query.types === undefined || query.types.includes(e.type)) &&
                    (query.actorId === undefined || (e.metadata as { actorId: string }).actorId === query.actorId) &&
                    (query.correlationId === undefined || (e.metadata as { correlationId: string }).correlationId === query.correlationId) &&
                    (query.from === undefined || e.recordedAt >= query.from) &&
                    (query.to === undefined || e.recordedAt < query.to),
                );
                const pages = await pageThrough(store, { ...query, after: start }, limits);
                expect(pages.every((page, n) => page.length <= limits[n % limits.length]!)).toBe(true);
                expect(pages.flat()).toEqual(ids(expected));
              }
            },
          ),
          { numRuns: 15 },
        );
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

      it('hands the handler at most maxBatchSize events at once', async () => {
        const prefix = newPrefix();
        await store.appendToStream(`${prefix}-a`, [event()], { expectedRevision: 'no_stream' });
        const [first] = await store.readStream(`${prefix}-a`);
        const more = [event(), event(), event(), event(), event()];
        await store.appendToStream(`${prefix}-a`, more, { expectedRevision: 0 });
        const sizes: number[] = [];
        const seen: string[] = [];
        const subscription = store.subscribeToAll({ after: first!.position, maxBatchSize: 2 }, async (batch) => {
          sizes.push(batch.length);
          seen.push(...ofPrefix(batch, prefix).map((e) => e.id));
        });
        await waitUntil(() => seen.length >= more.length);
        await subscription.stop();
        expect(seen).toEqual(more.map((e) => e.id));
        expect(Math.max(...sizes)).toBeLessThanOrEqual(2);
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
  return readLogAfter(store, undefined);
}

async function readLogAfter(store: EventStore, after: LogPosition | undefined): Promise<RecordedEvent[]> {
  const all: RecordedEvent[] = [];
  for (;;) {
    const page = await store.readAll({ after: all.at(-1)?.position ?? after, maxCount: 1000 });
    all.push(...page);
    if (page.length < 1000) return all;
  }
}

/** Follows `next` from the query's `after` until it is null, asking for `limits` in turn; the ids of each page. */
async function pageThrough(store: EventStore, query: Omit<LogQuery, 'limit'>, limits: readonly number[]): Promise<string[][]> {
  const pages: string[][] = [];
  let after = query.after;
  for (let requests = 0; requests < 10_000; requests++) {
    const page = await store.queryLog({ ...query, after, limit: limits[requests % limits.length]! });
    pages.push(page.events.map((e) => e.id));
    if (page.next === null) return pages;
    after = page.next;
  }
  throw new Error('queryLog kept answering a next page');
}

export async function waitUntil(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

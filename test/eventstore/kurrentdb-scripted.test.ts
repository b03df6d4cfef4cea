import { createHash, randomUUID } from 'node:crypto';
import { AppendConsistencyViolationError, WrongExpectedVersionError, type AppendStreamState, type KurrentDBClient } from '@kurrent/kurrentdb-client';
import { describe, expect, it } from 'vitest';
import type { KurrentDbReads } from '../../engine/eventstore/kurrentdb/grpc-reads';
import { KurrentDbEventStore, type KurrentDbStoreOptions } from '../../engine/eventstore/kurrentdb/store';
import { IdempotencyConflictError, WrongExpectedRevisionError, type NewEvent } from '../../engine/eventstore/port';
import { chainHashes } from '../../engine/integrity/event-hash';

/*
 * The KurrentDB adapter up to the client call, with a scripted client: what the adapter asks the
 * server for (appends, and the stream names of a namespace) and how it reads the answers. That an append is one call, and the
 * answers' meaning, are KurrentDB's (see the adapter's comment); the contract suite checks them
 * against a real server when EVENTSTORE_URL is set.
 */

interface StoredEvent {
  /** KurrentDB's stream name (with the namespace, if any). */
  readonly streamId: string;
  readonly revision: number;
  readonly id: string;
  readonly position: bigint;
}

/** The hash a scripted stored event carries in its metadata (any 64 hex characters will do here). */
const storedHash = (id: string) => createHash('sha256').update(id).digest('hex');

/** A client whose answers each test scripts; any call it was not given fails the test. */
function scriptedClient(
  script: {
    appendToStream?: (streamId: string, events: readonly { id: string }[], options: { streamState: AppendStreamState }) => unknown;
    multiStreamAppend?: (requests: readonly { streamName: string; events: readonly { id: string }[] }[]) => unknown;
    appendRecords?: (records: readonly { streamName: string; record: { id: string } }[], checks: readonly unknown[]) => unknown;
    stored?: readonly StoredEvent[];
  },
  options: KurrentDbStoreOptions = {},
) {
  const calls: string[] = [];
  const readAllOptions: unknown[] = [];
  const readStream = (streamId: string, options: { fromRevision: bigint | 'end'; maxCount?: number; direction?: string }) => {
    const events = (script.stored ?? []).filter((event) => event.streamId === streamId);
    const ordered = options.direction === 'backwards' ? [...events].reverse() : events;
    const from = options.fromRevision === 'end' ? ordered : ordered.filter((event) => BigInt(event.revision) >= (options.fromRevision as bigint));
    const page = from.slice(0, options.maxCount ?? from.length);
    calls.push('readStream');
    return Promise.resolve(resolved(page));
  };
  // The whole log, whatever the filter: the adapter must keep to its own streams by itself too.
  const readAll = (options: unknown) => {
    calls.push('readAll');
    readAllOptions.push(options);
    return Promise.resolve(resolved(script.stored ?? []));
  };
  const answers: Record<string, (...args: never[]) => unknown> = {
    appendToStream: async (...args: Parameters<NonNullable<typeof script.appendToStream>>) => script.appendToStream!(...args),
    multiStreamAppend: async (...args: Parameters<NonNullable<typeof script.multiStreamAppend>>) => script.multiStreamAppend!(...args),
    appendRecords: async (...args: Parameters<NonNullable<typeof script.appendRecords>>) => script.appendRecords!(...args),
  };
  const client = new Proxy({} as KurrentDBClient, {
    get: (_, name: string) => {
      calls.push(name);
      const answer = answers[name];
      if (answer === undefined || script[name as keyof typeof script] === undefined) {
        throw new Error(`unexpected client call: ${name}`);
      }
      return answer;
    },
  });
  const reads = { readStream, readAll } as unknown as KurrentDbReads;
  return { store: new KurrentDbEventStore(client, options, reads), calls, readAllOptions };
}

function resolved(events: readonly StoredEvent[]) {
  return events.map((event) => ({
    event: {
      streamId: event.streamId,
      revision: BigInt(event.revision),
      position: { commit: event.position, prepare: event.position },
      id: event.id,
      type: 'T',
      data: {},
      metadata: { 'provenance-hash': storedHash(event.id), 'provenance-previous-hash': '' },
      created: new Date(),
    },
  }));
}

function event(): NewEvent {
  return { id: randomUUID(), type: 'T', data: {}, metadata: {} };
}

function refusal(streamName: string, expected: AppendStreamState, current: bigint): WrongExpectedVersionError {
  return new WrongExpectedVersionError(undefined, { streamName, expected, current });
}

describe('KurrentDB appends (scripted client)', () => {
  it('appends to one stream in one call, answered from the reply', async () => {
    const { store, calls } = scriptedClient({
      appendToStream: () => ({ success: true, nextExpectedRevision: 4n, position: { commit: 900n, prepare: 900n } }),
    });
    const result = await store.appendToStream('auction-1', [event()], { expectedRevision: 'no_stream' });
    expect(result).toEqual({ streamId: 'auction-1', nextExpectedRevision: 4, position: { commit: 900n, prepare: 900n }, chain: expect.any(Array) });
    expect(calls).toEqual(['appendToStream']);
  });

  it('chains onto the event at the expected revision: read once, then remembered from its own append', async () => {
    const head = { streamId: 'auction-1', revision: 3, id: randomUUID(), position: 800n };
    let next = 3n;
    const { store, calls } = scriptedClient({
      appendToStream: () => ({ success: true, nextExpectedRevision: ++next, position: { commit: 900n + next, prepare: 900n + next } }),
      stored: [head],
    });
    const [first, second] = [event(), event()];
    const one = await store.appendToStream('auction-1', [first], { expectedRevision: 3 });
    const two = await store.appendToStream('auction-1', [second], { expectedRevision: 4 });
    expect(one.chain).toEqual(chainHashes('auction-1', 4, storedHash(head.id), [first]).map((link) => ({ ...link, id: first.id, revision: 4 })));
    expect(two.chain).toEqual(chainHashes('auction-1', 5, one.chain[0]!.hash, [second]).map((link) => ({ ...link, id: second.id, revision: 5 })));
    expect(calls).toEqual(['readStream', 'appendToStream', 'appendToStream']);
  });

  it("appends to several streams in one call, each answered with the append's last position", async () => {
    const { store, calls } = scriptedClient({
      multiStreamAppend: () => ({
        position: 1_200n,
        responses: [
          { streamName: 'b', revision: 0n },
          { streamName: 'a', revision: 7n },
        ],
      }),
    });
    const results = await store.appendToStreams([
      { streamId: 'a', events: [event(), event()], expectedRevision: 5 },
      { streamId: 'b', events: [event()], expectedRevision: 'no_stream' },
    ]);
    expect(results).toEqual([
      { streamId: 'a', nextExpectedRevision: 7, position: { commit: 1_200n, prepare: 1_200n }, chain: expect.any(Array) },
      { streamId: 'b', nextExpectedRevision: 0, position: { commit: 1_200n, prepare: 1_200n }, chain: expect.any(Array) },
    ]);
    // Stream a's revision 5 is read for the hash to chain onto; b has none.
    expect(calls).toEqual(['readStream', 'multiStreamAppend']);
  });

  it('reads the written event back only when the reply has no position', async () => {
    const written = event();
    const { store, calls } = scriptedClient({
      appendToStream: () => ({ success: true, nextExpectedRevision: 0n, position: undefined }),
      stored: [{ streamId: 'a', revision: 0, id: written.id, position: 77n }],
    });
    const result = await store.appendToStream('a', [written], { expectedRevision: 'no_stream' });
    expect(result).toEqual({ streamId: 'a', nextExpectedRevision: 0, position: { commit: 77n, prepare: 77n }, chain: expect.any(Array) });
    expect(calls).toEqual(['appendToStream', 'readStream']);
  });

  it('answers a refused retry from what the stream holds, without appending again', async () => {
    const batch = [event(), event()];
    const { store, calls } = scriptedClient({
      appendToStream: () => {
        throw refusal('a', 3n, 6n);
      },
      stored: [
        { streamId: 'a', revision: 3, id: randomUUID(), position: 10n },
        { streamId: 'a', revision: 4, id: batch[0]!.id, position: 20n },
        { streamId: 'a', revision: 5, id: batch[1]!.id, position: 30n },
        { streamId: 'a', revision: 6, id: randomUUID(), position: 40n },
      ],
    });
    const result = await store.appendToStream('a', batch, { expectedRevision: 3 });
    expect(result).toEqual({ streamId: 'a', nextExpectedRevision: 5, position: { commit: 30n, prepare: 30n }, chain: expect.any(Array) });
    expect(calls.filter((call) => call !== 'readStream')).toEqual(['appendToStream']);
  });

  it('appends the other streams of a multi-stream append when one of them held its batch already', async () => {
    const stored = event();
    const fresh = event();
    const appended: string[][] = [];
    const { store, calls } = scriptedClient({
      multiStreamAppend: () => {
        throw refusal('b', 'no_stream', 0n);
      },
      appendToStream: (streamId, events) => {
        appended.push([streamId, ...events.map((written) => written.id)]);
        return { success: true, nextExpectedRevision: 0n, position: { commit: 50n, prepare: 50n } };
      },
      stored: [{ streamId: 'b', revision: 0, id: stored.id, position: 20n }],
    });
    const results = await store.appendToStreams([
      { streamId: 'a', events: [fresh], expectedRevision: 'no_stream' },
      { streamId: 'b', events: [stored], expectedRevision: 'no_stream' },
    ]);
    expect(results).toEqual([
      { streamId: 'a', nextExpectedRevision: 0, position: { commit: 50n, prepare: 50n }, chain: expect.any(Array) },
      { streamId: 'b', nextExpectedRevision: 0, position: { commit: 20n, prepare: 20n }, chain: expect.any(Array) },
    ]);
    expect(appended).toEqual([['a', fresh.id]]);
    expect(calls.filter((call) => call !== 'readStream')).toEqual(['multiStreamAppend', 'appendToStream']);
  });

  it("appends with a check of another stream in one appendRecords call, every expected revision a check", async () => {
    const written = [event(), event()];
    const sent: unknown[] = [];
    const { store, calls } = scriptedClient({
      appendRecords: (records, checks) => {
        sent.push(records.map((record) => [record.streamName, record.record.id]), checks);
        return { position: 300n, responses: [{ streamName: 'auction_rejections-1', revision: 6n }] };
      },
    });
    const results = await store.appendToStreams([
      { streamId: 'auction-1', events: [], expectedRevision: 41 },
      { streamId: 'auction_rejections-1', events: written, expectedRevision: 'any' },
    ]);
    expect(sent).toEqual([
      written.map((record) => ['auction_rejections-1', record.id]),
      // The rejections' stream chains onto its head as read (none): expected there, so the chain cannot fork.
      [
        { type: 'stream_state', streamName: 'auction-1', expectedState: 41n },
        { type: 'stream_state', streamName: 'auction_rejections-1', expectedState: 'no_stream' },
      ],
    ]);
    expect(results).toEqual([
      { streamId: 'auction-1', nextExpectedRevision: 41, position: { commit: 300n, prepare: 300n }, chain: expect.any(Array) },
      { streamId: 'auction_rejections-1', nextExpectedRevision: 6, position: { commit: 300n, prepare: 300n }, chain: expect.any(Array) },
    ]);
    expect(calls).toEqual(['readStream', 'appendRecords']);
  });

  it('passes a failed check on as a refusal naming the checked stream', async () => {
    const { store } = scriptedClient({
      appendRecords: () => {
        throw new AppendConsistencyViolationError(undefined as never, {
          violationsList: [{ checkIndex: 0, streamState: { stream: 'auction-1', expectedState: '41', actualState: '43' } }],
        } as never);
      },
    });
    await expect(
      store.appendToStreams([
        { streamId: 'auction-1', events: [], expectedRevision: 41 },
        { streamId: 'auction_rejections-1', events: [event()], expectedRevision: 'any' },
      ]),
    ).rejects.toMatchObject({ name: WrongExpectedRevisionError.name, streamId: 'auction-1', expected: 41, actual: 43 });
  });

  it('refuses a batch that partly overlaps what the stream holds', async () => {
    const batch = [event(), event()];
    const { store } = scriptedClient({
      appendToStream: () => {
        throw refusal('a', 'any', 0n);
      },
      stored: [{ streamId: 'a', revision: 0, id: batch[0]!.id, position: 20n }],
    });
    await expect(store.appendToStream('a', batch, { expectedRevision: 'any' })).rejects.toBeInstanceOf(IdempotencyConflictError);
  });

  it('passes a refusal on, with the revision the stream is at, when the stream holds none of the batch', async () => {
    const { store } = scriptedClient({
      appendToStream: () => {
        throw refusal('a', 1n, 4n);
      },
      stored: [{ streamId: 'a', revision: 4, id: randomUUID(), position: 20n }],
    });
    await expect(store.appendToStream('a', [event()], { expectedRevision: 1 })).rejects.toMatchObject({
      name: WrongExpectedRevisionError.name,
      streamId: 'a',
      expected: 1,
      actual: 4,
    });
  });
});

describe('KurrentDB namespaces (scripted client)', () => {
  const namespace = { namespace: 'staging', streamPrefixes: ['auction-'] };

  it('writes and reads the streams of its namespace, reporting them by their stream ids', async () => {
    const written = event();
    const appendedTo: string[] = [];
    const { store } = scriptedClient(
      {
        appendToStream: (streamName) => {
          appendedTo.push(streamName);
          return { success: true, nextExpectedRevision: 0n, position: { commit: 5n, prepare: 5n } };
        },
        stored: [
          { streamId: 'staging.auction-1', revision: 0, id: written.id, position: 5n },
          { streamId: 'auction-1', revision: 0, id: randomUUID(), position: 6n },
        ],
      },
      namespace,
    );
    await store.appendToStream('auction-1', [written], { expectedRevision: 'no_stream' });
    expect(appendedTo).toEqual(['staging.auction-1']);
    expect((await store.readStream('auction-1')).map((recorded) => [recorded.streamId, recorded.id])).toEqual([['auction-1', written.id]]);
  });

  it('names the stream of a refusal by its stream id', async () => {
    const { store } = scriptedClient(
      {
        multiStreamAppend: () => {
          throw refusal('staging.auction-2', 0n, 3n);
        },
      },
      namespace,
    );
    await expect(
      store.appendToStreams([
        { streamId: 'auction-1', events: [event()], expectedRevision: 'no_stream' },
        { streamId: 'auction-2', events: [event()], expectedRevision: 0 },
      ]),
    ).rejects.toMatchObject({ name: WrongExpectedRevisionError.name, streamId: 'auction-2', actual: 3 });
  });

  it("follows $all through a filter on the namespace's prefixes, and skips any other stream the server hands over", async () => {
    const { store, readAllOptions } = scriptedClient(
      {
        stored: [
          { streamId: 'staging.auction-1', revision: 0, id: randomUUID(), position: 5n },
          { streamId: 'production.auction-1', revision: 0, id: randomUUID(), position: 6n },
          { streamId: 'staging.auction-2', revision: 0, id: randomUUID(), position: 7n },
        ],
      },
      namespace,
    );
    const all = await store.readAll();
    expect(all.map((recorded) => recorded.streamId)).toEqual(['auction-1', 'auction-2']);
    expect(readAllOptions[0]).toMatchObject({ filter: { filterOn: 'streamName', prefixes: ['staging.auction-'] } });
    const byType = await store.queryLog({ types: ['T'], limit: 10 });
    expect(byType.events.map((recorded) => recorded.streamId)).toEqual(['auction-1', 'auction-2']);
  });

  it('refuses a namespace that could not be told apart from a stream name', () => {
    expect(() => scriptedClient({}, { namespace: 'a.b' })).toThrow(/namespace/);
  });
});

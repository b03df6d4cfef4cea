import { randomUUID } from 'node:crypto';
import { WrongExpectedVersionError, type AppendStreamState, type KurrentDBClient } from '@kurrent/kurrentdb-client';
import { describe, expect, it } from 'vitest';
import { KurrentDbEventStore } from '../../engine/eventstore/kurrentdb/store';
import { IdempotencyConflictError, WrongExpectedRevisionError, type NewEvent } from '../../engine/eventstore/port';

/*
 * The KurrentDB adapter's append path up to the client call, with a scripted client: what the
 * adapter asks the server for and how it reads the answers. That an append is one call, and the
 * answers' meaning, are KurrentDB's (see the adapter's comment); the contract suite checks them
 * against a real server when EVENTSTORE_URL is set.
 */

interface StoredEvent {
  readonly streamId: string;
  readonly revision: number;
  readonly id: string;
  readonly position: bigint;
}

/** A client whose answers each test scripts; any call it was not given fails the test. */
function scriptedClient(script: {
  appendToStream?: (streamId: string, events: readonly { id: string }[], options: { streamState: AppendStreamState }) => unknown;
  multiStreamAppend?: (requests: readonly { streamName: string; events: readonly { id: string }[] }[]) => unknown;
  stored?: readonly StoredEvent[];
}) {
  const calls: string[] = [];
  const readStream = (streamId: string, options: { fromRevision: bigint | 'end'; maxCount?: number; direction?: string }) => {
    const events = (script.stored ?? []).filter((event) => event.streamId === streamId);
    const ordered = options.direction === 'backwards' ? [...events].reverse() : events;
    const from = options.fromRevision === 'end' ? ordered : ordered.filter((event) => BigInt(event.revision) >= (options.fromRevision as bigint));
    const page = from.slice(0, options.maxCount ?? from.length);
    return (async function* () {
      for (const event of page) {
        yield {
          event: {
            streamId: event.streamId,
            revision: BigInt(event.revision),
            position: { commit: event.position, prepare: event.position },
            id: event.id,
            type: 'T',
            data: {},
            metadata: {},
            created: new Date(),
          },
        };
      }
    })();
  };
  const answers: Record<string, (...args: never[]) => unknown> = {
    appendToStream: async (...args: Parameters<NonNullable<typeof script.appendToStream>>) => script.appendToStream!(...args),
    multiStreamAppend: async (...args: Parameters<NonNullable<typeof script.multiStreamAppend>>) => script.multiStreamAppend!(...args),
    readStream,
  };
  const client = new Proxy({} as KurrentDBClient, {
    get: (_, name: string) => {
      calls.push(name);
      const answer = answers[name];
      if (answer === undefined || (name !== 'readStream' && script[name as keyof typeof script] === undefined)) {
        throw new Error(`unexpected client call: ${name}`);
      }
      return answer;
    },
  });
  return { store: new KurrentDbEventStore(client), calls };
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
    const result = await store.appendToStream('auction-1', [event()], { expectedRevision: 3 });
    expect(result).toEqual({ streamId: 'auction-1', nextExpectedRevision: 4, position: { commit: 900n, prepare: 900n } });
    expect(calls).toEqual(['appendToStream']);
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
      { streamId: 'a', nextExpectedRevision: 7, position: { commit: 1_200n, prepare: 1_200n } },
      { streamId: 'b', nextExpectedRevision: 0, position: { commit: 1_200n, prepare: 1_200n } },
    ]);
    expect(calls).toEqual(['multiStreamAppend']);
  });

  it('reads the written event back only when the reply has no position', async () => {
    const written = event();
    const { store, calls } = scriptedClient({
      appendToStream: () => ({ success: true, nextExpectedRevision: 0n, position: undefined }),
      stored: [{ streamId: 'a', revision: 0, id: written.id, position: 77n }],
    });
    const result = await store.appendToStream('a', [written], { expectedRevision: 'no_stream' });
    expect(result).toEqual({ streamId: 'a', nextExpectedRevision: 0, position: { commit: 77n, prepare: 77n } });
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
    expect(result).toEqual({ streamId: 'a', nextExpectedRevision: 5, position: { commit: 30n, prepare: 30n } });
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
      { streamId: 'a', nextExpectedRevision: 0, position: { commit: 50n, prepare: 50n } },
      { streamId: 'b', nextExpectedRevision: 0, position: { commit: 20n, prepare: 20n } },
    ]);
    expect(appended).toEqual([['a', fresh.id]]);
    expect(calls.filter((call) => call !== 'readStream')).toEqual(['multiStreamAppend', 'appendToStream']);
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

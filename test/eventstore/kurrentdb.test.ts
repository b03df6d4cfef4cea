import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { KurrentDbEventStore } from '../../engine/eventstore/kurrentdb/store';
import { comparePositions, type RecordedEvent } from '../../engine/eventstore/port';
import { eventStoreContract } from './contract';

// No KurrentDB server runs on the development machines: the suite runs only where one is reachable.
const url = process.env.EVENTSTORE_URL;

if (!url) {
  console.warn('KurrentDB contract suite NOT RUN: set EVENTSTORE_URL (e.g. kurrentdb://localhost:2113?tls=false) to run it');
}

describe.skipIf(!url)('KurrentDB event store (EVENTSTORE_URL)', () => {
  // The server is shared by every suite and every run, and some of the contract reads the whole
  // log: the contract runs in a namespace of this run's own, where the log holds only its events.
  eventStoreContract('KurrentDB, in a namespace of its own', async () => ({
    store: KurrentDbEventStore.fromConnectionString(url!, { namespace: `contract-${randomUUID()}` }),
    cleanup: async () => {},
  }));

  it('without a namespace, keeps stream names as they are and reads and follows $all past system events', async () => {
    const store = KurrentDbEventStore.fromConnectionString(url!);
    try {
      const stream = `plain-${randomUUID()}`;
      const head = await store.headPosition();
      const followed: RecordedEvent[] = [];
      const subscription = store.subscribeToAll({ after: head ?? 'start' }, async (batch) => {
        followed.push(...batch.filter((recorded) => recorded.streamId === stream));
      });
      const events = [0, 1].map(() => ({ id: randomUUID(), type: 'Plain', data: {}, metadata: {} }));
      const appended = await store.appendToStream(stream, events, { expectedRevision: 'no_stream' });
      expect((await store.readStream(stream)).map((recorded) => [recorded.streamId, recorded.id])).toEqual(events.map((event) => [stream, event.id]));
      const logged = await store.readAll(head === null ? {} : { after: head });
      expect(logged.filter((recorded) => recorded.streamId === stream).map((recorded) => recorded.id)).toEqual(events.map((event) => event.id));
      expect(logged.every((recorded) => !recorded.type.startsWith('$') && !recorded.streamId.startsWith('$'))).toBe(true);
      expect(comparePositions((await store.headPosition())!, appended.position)).toBeGreaterThanOrEqual(0);
      await expect.poll(() => followed.length, { timeout: 15_000 }).toBe(2);
      await subscription.stop();
    } finally {
      await store.close();
    }
  });

  it('keeps the streams of two namespaces apart, even under the same stream id', async () => {
    const run = randomUUID();
    const [first, second] = ['first', 'second'].map((name) => KurrentDbEventStore.fromConnectionString(url!, { namespace: `${name}-${run}` }));
    try {
      const event = (type: string) => ({ id: randomUUID(), type, data: {}, metadata: {} });
      await first!.appendToStream('auction-1', [event('First')], { expectedRevision: 'no_stream' });
      await second!.appendToStream('auction-1', [event('Second')], { expectedRevision: 'no_stream' });
      expect((await first!.readStream('auction-1')).map((recorded) => recorded.type)).toEqual(['First']);
      expect((await first!.readAll()).map((recorded) => [recorded.streamId, recorded.type])).toEqual([['auction-1', 'First']]);
      const followed: RecordedEvent[] = [];
      const subscription = second!.subscribeToAll({ after: 'start' }, async (batch) => {
        followed.push(...batch);
      });
      // From the start of $all: the server scans what every earlier run left in the shared log.
      await expect.poll(() => followed.length, { timeout: 15_000 }).toBe(1);
      expect(followed[0]).toMatchObject({ streamId: 'auction-1', type: 'Second' });
      await subscription.stop();
    } finally {
      await Promise.all([first!.close(), second!.close()]);
    }
  });
});

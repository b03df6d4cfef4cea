import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { KurrentDbEventStore } from '../../engine/eventstore/kurrentdb/store';
import type { RecordedEvent } from '../../engine/eventstore/port';
import { eventStoreContract } from './contract';

// No KurrentDB server runs on the development machines: the suite runs only where one is reachable.
const url = process.env.EVENTSTORE_URL;

if (!url) {
  console.warn('KurrentDB contract suite NOT RUN: set EVENTSTORE_URL (e.g. kurrentdb://localhost:2113?tls=false) to run it');
}

describe.skipIf(!url)('KurrentDB event store (EVENTSTORE_URL)', () => {
  // Each test uses its own stream prefix, so a shared, non-empty log is fine and nothing is cleaned up.
  eventStoreContract('KurrentDB', async () => ({
    store: KurrentDbEventStore.fromConnectionString(url!),
    cleanup: async () => {},
  }));

  eventStoreContract('KurrentDB, under a namespace', async () => ({
    store: KurrentDbEventStore.fromConnectionString(url!, { namespace: `contract-${randomUUID()}` }),
    cleanup: async () => {},
  }));

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
      await expect.poll(() => followed.length).toBe(1);
      expect(followed[0]).toMatchObject({ streamId: 'auction-1', type: 'Second' });
      await subscription.stop();
    } finally {
      await Promise.all([first!.close(), second!.close()]);
    }
  });
});

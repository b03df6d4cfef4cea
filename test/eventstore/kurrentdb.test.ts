import { describe } from 'vitest';
import { KurrentDbEventStore } from '../../engine/eventstore/kurrentdb/store';
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
});

import DataLoader from 'dataloader';

/**
 * Group commit for statements: a DataLoader whose batch goes out as soon as the one before it is
 * done, with every load that arrived meanwhile. Under load that is one statement for many requests;
 * batches run one at a time, so requests go on in the order they came (bids then reach their
 * auction's queue in the order they were sent); alone, a request waits for nothing. `run` answers
 * each key in order, as DataLoader's batch functions do.
 */
export function oneBatchAtATime<Key, Value>(run: (keys: readonly Key[]) => Promise<Value[]>): DataLoader<Key, Value> {
  let inFlight: Promise<unknown> = Promise.resolve();
  return new DataLoader<Key, Value>(
    (keys) => {
      const batch = run(keys);
      inFlight = batch.catch(() => undefined);
      return batch;
    },
    { cache: false, batchScheduleFn: (dispatch) => void inFlight.then(() => process.nextTick(dispatch)) },
  );
}

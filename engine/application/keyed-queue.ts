/**
 * Runs tasks one at a time per key, in arrival order; tasks on different keys run concurrently.
 * A hot auction's bids queue here inside one process instead of racing each other to the
 * database and retrying on conflicts.
 */
export class KeyedQueue {
  readonly #tails = new Map<string, Promise<unknown>>();

  /** Runs `task` once every earlier task on any of `keys` has settled. */
  run<T>(keys: readonly string[], task: () => Promise<T>): Promise<T> {
    const unique = [...new Set(keys)];
    const previous = unique.map((key) => this.#tails.get(key)).filter((tail) => tail !== undefined);
    const result = Promise.allSettled(previous).then(task);
    const tail = result.catch(() => undefined);
    for (const key of unique) {
      this.#tails.set(key, tail);
      void tail.then(() => {
        if (this.#tails.get(key) === tail) this.#tails.delete(key);
      });
    }
    return result;
  }

  /** Keys with work queued or running. */
  get size(): number {
    return this.#tails.size;
  }
}

import type { Logger } from '../../engine/application/logger';
import { sweepAbandonedUploads } from './uploads';
import type { AppDependencies } from '../dependencies';

const EVERY_MS = 10 * 60_000;

/**
 * Clears uploads that were announced and never confirmed, every ten minutes in every process
 * (a row is swept once: the update only applies while it is still PENDING).
 */
export class MediaSweeper {
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly deps: Pick<AppDependencies, 'db' | 'mediaStorage' | 'clock'>,
    private readonly log?: Logger,
  ) {}

  start(): void {
    this.#timer = setInterval(() => void this.runOnce(), EVERY_MS);
    this.#timer.unref();
  }

  runOnce(): Promise<number> {
    const run = sweepAbandonedUploads(this.deps, this.deps.clock()).catch((error: unknown) => {
      this.log?.error({ err: error }, 'sweeping abandoned uploads failed');
      return 0;
    });
    this.#running = run;
    return run;
  }

  async stop(): Promise<void> {
    clearInterval(this.#timer);
    await this.#running;
  }
}

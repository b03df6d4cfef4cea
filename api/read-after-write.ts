import type { AppDependencies } from './dependencies';

/**
 * Resolves once the read models hold every event of these streams, so that an answer built from
 * them shows the change the request just made.
 */
export async function readModelsCaughtUpWith(deps: Pick<AppDependencies, 'eventStore' | 'projections'>, ...streamIds: string[]): Promise<void> {
  const lastEvents = await Promise.all(streamIds.map(async (streamId) => (await deps.eventStore.readStream(streamId)).at(-1)));
  for (const last of lastEvents) if (last) await deps.projections.caughtUpTo(last.position);
}

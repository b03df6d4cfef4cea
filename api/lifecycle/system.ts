import type { Kysely } from 'kysely';
import { ConcurrencyConflictError, type CommandHandler } from '../../engine/application/command-handler';
import type { Logger } from '../../engine/application/logger';
import type { ShippingRates } from '../../engine/application/order-commands';
import { commandMetadata, DomainError, type Actor, type CommandMetadata } from '../../engine/domain';
import type { Database } from '../database';

/** Who opens, closes and settles auctions when their time comes. */
export const LIFECYCLE_ACTOR: Actor = { userId: 'lifecycle', roles: ['SYSTEM'] };

export interface LifecycleDependencies {
  readonly db: Kysely<Database>;
  readonly commands: CommandHandler;
  readonly clock: () => Date;
  /** The shipping charge an order is placed with, by the item's category. */
  readonly shippingRates: ShippingRates;
}

/**
 * Metadata of a lifecycle command. The command id is derived from what the command is about, never
 * random: two workers (two API processes) issuing the same close issue one command, which the
 * command handler and the event store recognise as such.
 */
export function systemMetadata(now: Date, subjectId: string, commandId: string): CommandMetadata {
  return commandMetadata(LIFECYCLE_ACTOR, now, { correlationId: `lifecycle:${subjectId}`, commandId });
}

/** How a lifecycle command ended: `done` (nothing left to do), `wrote` new events, or `retry` next round. */
export type Outcome = 'wrote' | 'done' | 'retry';

/**
 * Runs one lifecycle command. Refusals named in `done` mean another worker (or an admin, or a
 * buyer's buy-now) got there first; those in `retry` mean the read model was behind. Any other
 * failure is logged once per `key` and tried again next round.
 */
export async function runSystemCommand(
  key: string,
  work: () => Promise<{ repeated: boolean; events: readonly unknown[] }>,
  codes: { done: readonly string[]; retry: readonly string[] },
  log: Logger,
  reported: Set<string>,
): Promise<Outcome> {
  try {
    const handled = await work();
    reported.delete(key);
    return !handled.repeated && handled.events.length > 0 ? 'wrote' : 'done';
  } catch (error) {
    if (error instanceof DomainError && codes.done.includes(error.code)) return 'done';
    if (error instanceof DomainError && codes.retry.includes(error.code)) return 'retry';
    if (error instanceof ConcurrencyConflictError) return 'retry';
    if (!reported.has(key)) {
      if (reported.size >= 10_000) reported.clear(); // bounded: at worst some failures are logged twice
      reported.add(key);
      log.error({ err: error, command: key }, 'lifecycle: command failed; trying again next round');
    }
    return 'retry';
  }
}

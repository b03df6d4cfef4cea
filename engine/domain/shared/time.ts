import { z } from 'zod';

/**
 * Instants travel as ISO-8601 UTC strings ("2026-11-21T23:59:59.000Z") so that an auditor reading
 * the raw log sees real times. The engine never reads a clock: `now` arrives with each command.
 */
export type Instant = string;

export const instantSchema = z.iso.datetime({ offset: false });

export function toMillis(instant: Instant): number {
  return Date.parse(instant);
}

export function fromMillis(ms: number): Instant {
  return new Date(ms).toISOString();
}

import { z } from 'zod';
import { forbidden, invalid } from './errors';
import { instantSchema, type Instant } from './time';

export const roleSchema = z.enum(['BUYER', 'ADMIN', 'AUDITOR', 'SYSTEM']);
export type Role = z.infer<typeof roleSchema>;

/** Who issued a command: a signed-in user, or SYSTEM for the scheduler that opens and closes auctions. */
export const actorSchema = z.strictObject({
  userId: z.string().min(1),
  roles: z.array(roleSchema),
});
export type Actor = z.infer<typeof actorSchema>;

export const commandMetadataSchema = z.strictObject({
  actor: actorSchema,
  /** The moment the command is decided at; the engine's only notion of time. */
  now: instantSchema,
  correlationId: z.string().min(1),
  /** Identifies this command; retries of one command share it. */
  commandId: z.string().min(1),
});
export type CommandMetadata = z.infer<typeof commandMetadataSchema>;

export const eventMetadataSchema = z.strictObject({
  actorId: z.string(),
  actorRoles: z.array(roleSchema),
  occurredAt: instantSchema,
  correlationId: z.string(),
  /** The command that caused this event. */
  commandId: z.string(),
});
export type EventMetadata = z.infer<typeof eventMetadataSchema>;

/** Builds the zod schema of a command or event envelope: `{ type, data, metadata }`. */
export function messageSchema<Type extends string, Data extends z.ZodType, Metadata extends z.ZodType>(
  type: Type,
  data: Data,
  metadata: Metadata,
) {
  return z.strictObject({ type: z.literal(type), data, metadata });
}

/**
 * A command's metadata: issued by `actor` at `now`. Retries of one command carry the same
 * `commandId` (an idempotency key, or an id derived from what the command is about); a fresh
 * random id makes every call a new command.
 */
export function commandMetadata(actor: Actor, now: Date | Instant, ids: { correlationId: string; commandId: string }): CommandMetadata {
  return { actor, now: typeof now === 'string' ? now : now.toISOString(), correlationId: ids.correlationId, commandId: ids.commandId };
}

/** The metadata every event inherits from the command that caused it. */
export function eventMetadataFor(command: { metadata: CommandMetadata }): EventMetadata {
  const { actor, now, correlationId, commandId } = command.metadata;
  return { actorId: actor.userId, actorRoles: actor.roles, occurredAt: now, correlationId, commandId };
}

export function hasRole(actor: Actor, role: Role): boolean {
  return actor.roles.includes(role);
}

export function requireRole(actor: Actor, ...allowed: Role[]): void {
  if (!allowed.some((role) => hasRole(actor, role))) {
    throw forbidden('FORBIDDEN', 'Access denied', { required: allowed });
  }
}

/** A free-text reason (cancel, retract, unbind, withdraw): required, trimmed, bounded. */
export function requireReason(reason: string): string {
  const trimmed = reason.trim();
  if (trimmed.length === 0) throw invalid('REASON_REQUIRED', 'A reason is required');
  if (trimmed.length > 500) throw invalid('REASON_TOO_LONG', 'The reason must be at most 500 characters');
  return trimmed;
}

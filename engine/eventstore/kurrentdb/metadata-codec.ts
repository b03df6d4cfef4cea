import { jsonEvent, type EventData, type JSONType, type RecordedEvent as KurrentRecordedEvent } from '@kurrent/kurrentdb-client';
import type { ChainLink, NewEvent, RecordedEvent } from '../port';

/**
 * Metadata key under which a whole metadata value travels as JSON text when KurrentDB cannot take
 * it as it is: multiStreamAppend only accepts a flat object of string values (it stores them as
 * record properties, which KurrentDB hands back as the event's metadata object, next to its own
 * `$schema...` keys), and single-stream appends only take objects, arrays or strings.
 */
const WRAPPED_METADATA = 'provenance-metadata';
/**
 * Metadata keys under which the event's place in its stream's hash chain travels (KurrentDB has no
 * place of its own for it): the hash and the one before it ('' for none), flat strings as
 * multiStreamAppend requires.
 */
const HASH = 'provenance-hash';
const PREVIOUS_HASH = 'provenance-previous-hash';
const RESERVED_KEYS = [WRAPPED_METADATA, HASH, PREVIOUS_HASH];

/** An event as KurrentDB stores it: JSON data, and the metadata, with its chain link, in a shape the append accepts. */
export function toEventData(event: NewEvent, link: Pick<ChainLink, 'hash' | 'previousHash'>, multiStream: boolean): EventData {
  const chain = { [HASH]: link.hash, [PREVIOUS_HASH]: link.previousHash ?? '' };
  return jsonEvent({
    id: event.id,
    type: event.type,
    // JSON.stringify(undefined) is not JSON; null is the closest stored value.
    data: (event.data ?? null) as JSONType,
    metadata: { ...(multiStream ? wrapMetadata(event.metadata) : toSingleStreamMetadata(event.metadata)), ...chain },
  });
}

function toSingleStreamMetadata(metadata: unknown): Record<string, unknown> {
  if (isPlainObject(metadata) && !RESERVED_KEYS.some((key) => Object.hasOwn(metadata, key))) return metadata;
  return wrapMetadata(metadata);
}

/** A flat object of one string value, as multiStreamAppend requires; '' stands for no metadata. */
function wrapMetadata(metadata: unknown): Record<string, string> {
  return { [WRAPPED_METADATA]: metadata === undefined ? '' : JSON.stringify(metadata) };
}

/** The metadata as appended, and the chain link beside it (nulls for an event stored before events were hashed). */
function unwrapMetadata(stored: unknown): { metadata: unknown; hash: string | null; previousHash: string | null } {
  if (!isPlainObject(stored)) return { metadata: stored, hash: null, previousHash: null };
  const { [HASH]: hash, [PREVIOUS_HASH]: previousHash, ...metadata } = stored;
  const link = { hash: typeof hash === 'string' ? hash : null, previousHash: typeof previousHash === 'string' && previousHash !== '' ? previousHash : null };
  const wrapped = metadata[WRAPPED_METADATA];
  if (typeof wrapped !== 'string') return { metadata: link.hash === null ? stored : metadata, ...link };
  return { metadata: wrapped === '' ? undefined : JSON.parse(wrapped), ...link };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/** The event as the port describes it; `streamId` is the store's name for KurrentDB's stream. */
export function toRecordedEvent(event: KurrentRecordedEvent, streamId: string = event.streamId): RecordedEvent {
  const position = event.position;
  if (position === undefined) {
    throw new Error(`KurrentDB did not report the log position of event ${event.id} in ${event.streamId} (KurrentDB 22.6 or later reports it)`);
  }
  const created: unknown = event.created;
  return {
    streamId,
    revision: Number(event.revision),
    position: { commit: BigInt(position.commit), prepare: BigInt(position.prepare) },
    id: event.id,
    type: event.type,
    data: event.data,
    recordedAt: created instanceof Date && !Number.isNaN(created.getTime()) ? created : new Date(0),
    ...unwrapMetadata(event.metadata),
  };
}

/** KurrentDB's own events: system event types (also links, `$>`) and system streams. */
export function isSystemEvent(event: RecordedEvent): boolean {
  return event.type.startsWith('$') || event.streamId.startsWith('$');
}

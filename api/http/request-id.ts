import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** Short, and plain enough to sit in a log line, a header and an event's correlation id as it is. */
const ACCEPTED_REQUEST_ID = /^[A-Za-z0-9._:+=/-]{1,128}$/;

/**
 * The caller's X-Request-Id (its proxy's, usually) when it is acceptable, so that one id follows a
 * request from the edge into this log and the events it causes; a new UUID otherwise.
 */
export function requestIdOf(request: IncomingMessage): string {
  const incoming = request.headers['x-request-id'];
  return typeof incoming === 'string' && ACCEPTED_REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** Short, and plain enough to sit in a log line, a header and an event's correlation id as it is. */
const ACCEPTED_REQUEST_ID = /^[A-Za-z0-9._:+=/-]{1,128}$/;

/**
 * The request's id, which becomes the correlation id of the events it causes. Behind a trusted
 * proxy (TRUST_PROXY), the proxy's X-Request-Id when it is acceptable, so that one id follows a
 * request from the edge into this log and the log of events; otherwise always a new UUID: a client
 * choosing its own id could file its events under another request's correlation in the audit log.
 */
export function requestIdGenerator(trustProxy: boolean | string[] | undefined): (request: IncomingMessage) => string {
  const trustsProxy = trustProxy !== undefined && trustProxy !== false && !(Array.isArray(trustProxy) && trustProxy.length === 0);
  return (request) => {
    const incoming = request.headers['x-request-id'];
    return trustsProxy && typeof incoming === 'string' && ACCEPTED_REQUEST_ID.test(incoming) ? incoming : randomUUID();
  };
}

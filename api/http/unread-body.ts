import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * onSend, every route: an answer sent before the request's body has arrived whole (refused by its
 * token, its headers, a file's name) closes the connection, as Fastify does when its own parser
 * refuses a body. Kept open, the connection would hold the rest of that body in front of the next
 * request, which would never be answered; reading it all instead would make the server take in a
 * file it has already refused.
 */
export async function closeConnectionWhenBodyUnread(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  if (carriesBody(request) && !request.raw.complete) reply.header('connection', 'close');
}

/** A request without a body is complete once its headers are parsed, even if Node has not said so yet. */
function carriesBody(request: FastifyRequest): boolean {
  return request.headers['transfer-encoding'] !== undefined || Number(request.headers['content-length'] ?? 0) > 0;
}

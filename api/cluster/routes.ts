import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { AuctionCommand } from '../../engine/domain';
import type { AppDependencies } from '../dependencies';
import { HttpError } from '../http/errors';
import { FORWARDED_COMMANDS_PATH } from './auction-command-router';
import { PEER_SIGNATURE_HEADER, verifyPeerRequest } from './peer-signature';

const rawBodies = new WeakMap<FastifyRequest, string>();

/**
 * Commands other API processes forward to this one, the owner of their auction: signed with the
 * shared secret (peer-signature.ts), decided here, answered with what the engine decided. Not part
 * of the public API (hidden from /docs); users cannot reach it without the secret.
 */
export const clusterRoutes: FastifyPluginAsync<{ deps: AppDependencies }> = async (app, { deps }) => {
  // The signature covers the body's exact bytes: keep them (this plugin's routes only).
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    rawBodies.set(request, body as string);
    try {
      done(null, JSON.parse(body as string));
    } catch {
      done(new HttpError(400, 'Body is not JSON', 'MALFORMED_BODY'), undefined);
    }
  });

  app.post(FORWARDED_COMMANDS_PATH, { schema: { hide: true } }, async (request, reply) => {
    const signature = request.headers[PEER_SIGNATURE_HEADER];
    if (!verifyPeerRequest(deps.jwtSecret, rawBodies.get(request) ?? '', typeof signature === 'string' ? signature : undefined)) {
      throw new HttpError(401, 'Not signed by a peer', 'UNAUTHORIZED');
    }
    const command = request.body as AuctionCommand;
    if (typeof command?.data?.auctionId !== 'string' || !['PlaceBid', 'BuyNow'].includes(command.type)) {
      throw new HttpError(400, 'Not a forwardable auction command', 'INVALID_COMMAND');
    }
    return reply.code(200).send(await deps.auctionCommands.decideForwarded(command));
  });
};

import websocket from '@fastify/websocket';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDependencies } from '../dependencies';
import { MAX_CLIENT_MESSAGE_BYTES } from '../contracts/live';
import { ASYNCAPI_PATH, asyncApiDocument } from './asyncapi';
import type { SocketSignIn } from './hub';

/**
 * GET /ws/bidding: live auction updates (subscribe and unsubscribe by auctionId). Anyone may watch, as
 * visitors view auctions without signing in; a socket receives public facts only, and once signed in
 * (the authenticate message) its own user's notices too. The
 * websocket plugin is registered here so that its hooks stay inside this plugin. Its messages are
 * described at /docs/asyncapi.json.
 */
export const liveRoutes: FastifyPluginAsyncZod<{ deps: AppDependencies }> = async (app, { deps }) => {
  await app.register(websocket, {
    // Client messages are a few dozen bytes; anything large is refused by ws with close code 1009.
    options: { maxPayload: MAX_CLIENT_MESSAGE_BYTES },
    // Shutting down: this app's sockets are told 1001 (going away) instead of being left to time out.
    preClose: async () => {
      await deps.live.closeSockets(app.websocketServer.clients);
      app.websocketServer.close();
    },
  });

  // The websocket plugin leaves this route out of the OpenAPI description: its messages are in ASYNCAPI_PATH.
  // A socket signs in with an access token in a message (never in the URL, which logs keep); it then
  // also carries that user's notices.
  const signIn: SocketSignIn = {
    verify: (token) => app.verifyAccessToken(token),
    unreadCount: (userId) => deps.noticeFeed.unreadCount(userId),
    signedOut: (userId) => deps.noticeFeed.forget(userId),
  };
  app.get('/ws/bidding', { websocket: true }, (socket) => deps.live.connect(socket, signIn));

  app.get(
    ASYNCAPI_PATH,
    {
      schema: {
        tags: ['live'],
        summary: 'The WebSocket protocol of /ws/bidding, as an AsyncAPI 3.0 document',
        response: { 200: z.looseObject({ asyncapi: z.literal('3.0.0') }) },
      },
    },
    async (request) => asyncApiDocument({ host: request.host, secure: request.protocol === 'https' }),
  );
};

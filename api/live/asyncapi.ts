import { z } from 'zod';
import { auctionSchema } from '../contracts/auctions';
import { clientMessageSchema, MAX_CLIENT_MESSAGE_BYTES, serverMessageSchema } from '../contracts/live';

/** Where the WebSocket protocol is described, next to the OpenAPI document. */
export const ASYNCAPI_PATH = '/docs/asyncapi.json';

const CHANNEL = 'bidding';

/**
 * The messages of /ws/bidding as JSON Schemas, made from the contract's zod schemas (never written
 * twice): each client message is named by its action, each server message by its type, and the
 * auction they all carry is one shared schema.
 */
function messageSchemas() {
  const registry = z.registry<{ id: string }>();
  registry.add(auctionSchema, { id: 'Auction' });
  const client = clientMessageSchema.options.map((schema) => schema.shape.action.value);
  const server = serverMessageSchema.options.map((schema) => schema.shape.type.value);
  for (const schema of clientMessageSchema.options) registry.add(schema, { id: schema.shape.action.value });
  for (const schema of serverMessageSchema.options) registry.add(schema, { id: schema.shape.type.value });
  const { schemas } = z.toJSONSchema(registry, { target: 'draft-7', uri: (id) => `#/components/schemas/${id}` });
  // Each is a part of this document, not a schema document of its own.
  const parts = Object.fromEntries(Object.entries(schemas).map(([id, { $id: _id, $schema: _schema, ...schema }]) => [id, schema]));
  return { client, server, schemas: parts };
}

const described = messageSchemas();

/**
 * The WebSocket protocol as an AsyncAPI 3.0 document. It describes this server: it receives the
 * clients' messages and sends its own. `origin` is where the document was asked for, so that its
 * server entry is the address the reader used.
 */
export function asyncApiDocument(origin: { host: string; secure: boolean }) {
  const messageRef = (name: string) => ({ $ref: `#/channels/${CHANNEL}/messages/${name}` });
  return {
    asyncapi: '3.0.0' as const,
    info: {
      title: 'Provenance live auction updates',
      version: '1.0.0',
      description:
        'Follow auctions as they happen: send {"action":"subscribe","auctionId":"..."} and receive what the event log says ' +
        'happened to them. Anyone may connect; only public facts are sent, unless the socket signs in with ' +
        '{"action":"authenticate","token":"<access token>"} (in a message, never in the URL): it then also receives its ' +
        "user's notices (notification, unread_count) until the token expires or it sends {\"action\":\"deauthenticate\"}. " +
        'Money is in dollars. Every message about an ' +
        "auction carries the auction as GET /api/public/listings/{id}/auction answers it, with its version: keep the highest. " +
        `Client messages larger than ${MAX_CLIENT_MESSAGE_BYTES} bytes close the socket with 1009; a full server closes new ` +
        'sockets with 1013, and a socket that does not read what it is sent is closed with 1013 "Too slow".',
    },
    servers: {
      api: { host: origin.host, protocol: origin.secure ? 'wss' : 'ws', description: 'This server' },
    },
    channels: {
      [CHANNEL]: {
        address: '/ws/bidding',
        messages: Object.fromEntries([...described.client, ...described.server].map((name) => [name, { $ref: `#/components/messages/${name}` }])),
      },
    },
    operations: {
      receiveClientMessage: {
        action: 'receive',
        channel: { $ref: `#/channels/${CHANNEL}` },
        summary: 'A client follows or stops following an auction, or signs the socket in or out; the server answers subscribed, unsubscribed, authenticated, unauthenticated or error',
        messages: described.client.map(messageRef),
      },
      sendAuctionUpdate: {
        action: 'send',
        channel: { $ref: `#/channels/${CHANNEL}` },
        summary: "The server tells each follower of an auction what happened to it, each signed-in socket of its user's notices, and answers client messages",
        messages: described.server.map(messageRef),
      },
    },
    components: {
      messages: Object.fromEntries(
        [...described.client, ...described.server].map((name) => [name, { name, contentType: 'application/json', payload: { $ref: `#/components/schemas/${name}` } }]),
      ),
      schemas: described.schemas,
    },
  };
}

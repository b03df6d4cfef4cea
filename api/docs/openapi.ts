import type { SwaggerTransform } from '@fastify/swagger';
import type { FastifySchema } from 'fastify';
import { ASYNCAPI_PATH } from '../live/asyncapi';

/**
 * What the OpenAPI description says of where it applies: the API is served from the origin of the
 * description, whatever the address it is reached by; the WebSocket (/ws/bidding), which OpenAPI
 * cannot describe, has an AsyncAPI document of its own.
 */
export const OPENAPI_SERVERS_AND_LINKS = {
  servers: [{ url: '/', description: 'This server (the origin this document was fetched from)' }],
  externalDocs: { description: 'Live updates: the WebSocket /ws/bidding and its messages, as an AsyncAPI 3.0 document', url: ASYNCAPI_PATH },
};

/**
 * The operationId of a route without its own, from its method and path: the method, then each
 * segment in camelCase, a parameter as "By" and its name; "api" and version segments are left
 * out. GET /api/public/listings/:slugOrId/auction becomes getPublicListingsBySlugOrIdAuction.
 * Method and path identify a route, so the ids are unique.
 */
export function operationIdOf(method: string, url: string): string {
  const words = url
    .split('/')
    .filter((segment) => segment !== '' && segment !== 'api' && !/^v\d+$/.test(segment))
    .flatMap((segment) => (segment.startsWith(':') ? ['by', segment.slice(1)] : segment.split(/[^A-Za-z0-9]+/)))
    .filter(Boolean);
  return [method.toLowerCase(), ...words.map((word) => word[0]!.toUpperCase() + word.slice(1))].join('');
}

/** `transform`, then an operationId for every operation that has none. */
export function withOperationIds<Schema extends FastifySchema>(transform: SwaggerTransform<Schema>): SwaggerTransform<Schema> {
  return (document) => {
    const transformed = transform(document);
    const schema: FastifySchema & { operationId?: string; hide?: boolean } = transformed.schema ?? {};
    if (schema.hide || schema.operationId) return transformed;
    const [method] = [document.route.method].flat();
    return { ...transformed, schema: { ...schema, operationId: operationIdOf(method!, document.url) } };
  };
}

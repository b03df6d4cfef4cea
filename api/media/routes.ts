import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDependencies } from '../dependencies';
import { HttpError } from '../http/errors';
import { LOCAL_UPLOAD_PATH, LocalMediaStorage } from './local-storage';
import { openMedia } from './storage';

/** Media ids never change content: a client may keep a file for a year without asking again. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * GET /media/{mediaId}: every stored media file, as `mediaUrl()` addresses them when no public base
 * address is configured; and, with the local storage, the receiving end of its signed upload URLs.
 */
export const mediaRoutes: FastifyPluginAsyncZod<{ deps: AppDependencies }> = async (app, { deps }) => {
  app.get(
    '/media/:mediaId',
    {
      schema: {
        tags: ['media'],
        summary: 'A media file (image or video) of a listing',
        params: z.object({ mediaId: z.uuid() }),
      },
    },
    async (request, reply) => {
      const media = await openMedia(deps, request.params.mediaId);
      if (!media) throw new HttpError(404, 'Media not found', 'MEDIA_NOT_FOUND');
      return reply
        .header('content-type', media.contentType)
        .header('content-length', media.sizeBytes)
        .header('cache-control', IMMUTABLE)
        .header('x-content-type-options', 'nosniff')
        .send(media.stream);
    },
  );

  if (deps.mediaStorage instanceof LocalMediaStorage) await app.register(localUploadRoute, { storage: deps.mediaStorage, clock: deps.clock });
};

/**
 * PUT /media/uploads/{key}: where the local storage's signed URLs point. The URL is the
 * credential (as with S3), so no token is asked for. The body is streamed to disk with a hard cap,
 * never buffered: this scope reads no body itself, whatever its content type.
 */
const localUploadRoute: FastifyPluginAsyncZod<{ storage: LocalMediaStorage; clock: () => Date }> = async (app, { storage, clock }) => {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));

  app.put(
    `${LOCAL_UPLOAD_PATH}/:key`,
    {
      schema: {
        tags: ['media'],
        summary: 'Upload a file\'s bytes to a signed URL from POST /api/admin/media/upload/presigned-url',
        description: 'Answers 200 with the ETag to confirm with; 403 for an expired or altered URL, 413 past the size limit, 409 when the URL was already used.',
        params: z.object({ key: z.string().max(64) }),
        querystring: z.object({
          expires: z.coerce.number().int().nonnegative(),
          maxBytes: z.coerce.number().int().nonnegative(),
          signature: z.string().max(100),
        }),
      },
    },
    async (request, reply) => {
      const declaredLength = request.headers['content-length'];
      const { etag } = await storage.receiveSignedUpload(
        request.params.key,
        request.query,
        clock(),
        request.raw,
        declaredLength === undefined ? undefined : Number(declaredLength),
      );
      return reply.code(200).header('etag', etag).send();
    },
  );
};

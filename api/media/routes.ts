import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDependencies } from '../dependencies';
import { HttpError } from '../http/errors';
import { openLocalMedia } from './storage';

/** Media ids never change content: a client may keep a file for a year without asking again. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/** GET /media/{mediaId}: the local storage's files, as `mediaUrl()` addresses them. */
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
      const media = await openLocalMedia(deps, request.params.mediaId);
      if (!media) throw new HttpError(404, 'Media not found', 'MEDIA_NOT_FOUND');
      return reply
        .header('content-type', media.contentType)
        .header('content-length', media.sizeBytes)
        .header('cache-control', IMMUTABLE)
        .header('x-content-type-options', 'nosniff')
        .send(media.stream);
    },
  );
};

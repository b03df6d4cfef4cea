import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { confirmUploadRequestSchema, mediaStatusAnswerSchema, presignedUploadAnswerSchema, presignUploadRequestSchema } from '../../contracts/admin/media';
import { errorResponses } from '../../contracts/common';
import type { AppDependencies } from '../../dependencies';
import { HttpError } from '../../http/errors';
import { receiveFilePart } from '../../http/multipart-file';
import { ACCEPTED_EXTENSIONS_TEXT, MAX_IMAGE_BYTES, MAX_MEDIA_BYTES, MAX_VIDEO_BYTES } from '../../media/media-types';
import { confirmUpload, startUpload, storeUploadedFile, uploadStatus } from '../../media/uploads';

const LIMITS_TEXT = `Accepted: ${ACCEPTED_EXTENSIONS_TEXT}; images up to ${MAX_IMAGE_BYTES} bytes, videos up to ${MAX_VIDEO_BYTES} bytes.`;

/**
 * Media uploads for the admin dashboard (inside the ADMIN-only scope of api/admin/routes.ts):
 * presigned URL, then the client's PUT, then confirm; and the one-request multipart helper.
 */
export const adminMediaRoutes: FastifyPluginAsyncZod<{ deps: AppDependencies }> = async (app, { deps }) => {
  app.post(
    '/api/admin/media/upload/presigned-url',
    {
      preHandler: app.limitRate('uploads'),
      schema: {
        tags: ['admin media'],
        summary: 'Step 1 of an upload: a URL to PUT the file to, valid for 15 minutes',
        description: `${LIMITS_TEXT} The extension and content type must agree. Then PUT the bytes to uploadUrl with the given headers, and confirm with the answer's ETag.`,
        security: [{ bearer: [] }],
        body: presignUploadRequestSchema,
        response: { 201: presignedUploadAnswerSchema, ...errorResponses(400, 401, 403, 413, 415, 429) },
      },
    },
    async (request, reply) => reply.code(201).send(await startUpload(deps, request.body, `${request.protocol}://${request.host}`)),
  );

  app.post(
    '/api/admin/media/upload/confirm',
    {
      config: { upload: 'media' },
      preHandler: app.limitRate('uploads'),
      schema: {
        tags: ['admin media'],
        summary: 'Step 3 of an upload: check the stored file and make it usable',
        description:
          'The file must exist, have the size and ETag given, fit its limit, and its bytes must be the declared type. ' +
          'A refused file is deleted and the upload FAILED (see the status call); confirming again gives the same answer. ' +
          '409 UPLOAD_NOT_FOUND while nothing has been uploaded yet.',
        security: [{ bearer: [] }],
        body: confirmUploadRequestSchema,
        response: { 200: mediaStatusAnswerSchema, ...errorResponses(400, 401, 403, 404, 409, 410, 413, 415, 422, 429) },
      },
    },
    async (request) => confirmUpload(deps, request.body),
  );

  app.get(
    '/api/admin/media/upload/status/:id',
    {
      schema: {
        tags: ['admin media'],
        summary: 'Where an upload stands: PENDING, COMPLETED (with its URL) or FAILED (with why)',
        security: [{ bearer: [] }],
        params: z.object({ id: z.uuid() }),
        response: { 200: mediaStatusAnswerSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => uploadStatus(deps, request.params.id),
  );

  app.post(
    '/api/admin/listings/media/upload',
    {
      config: { upload: 'media' },
      preHandler: app.limitRate('uploads'),
      schema: {
        tags: ['admin media'],
        summary: 'Upload a media file in one request (multipart/form-data, field "file")',
        description: `${LIMITS_TEXT} The bytes must be the type the part and its filename say. Answers the stored media, with its mediaId.`,
        security: [{ bearer: [] }],
        consumes: ['multipart/form-data'],
        response: { 201: mediaStatusAnswerSchema, ...errorResponses(400, 401, 403, 413, 415, 429) },
      },
    },
    async (request, reply) => {
      if (!request.isMultipart()) throw new HttpError(415, 'Send the file as multipart/form-data in the field "file"', 'MULTIPART_REQUIRED');
      // One byte past the largest limit: the per-type limit trips first and names the right size.
      const part = await receiveFilePart(request, { fileSize: MAX_MEDIA_BYTES + 1 });
      if (!part || part.fieldname !== 'file') throw new HttpError(400, 'The multipart field "file" is required', 'FILE_REQUIRED');
      return reply.code(201).send(await storeUploadedFile(deps, part));
    },
  );
};

import { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import { HttpError } from './errors';

/** The one file of a multipart request, as upload routes read it. */
export interface UploadedFile {
  readonly fieldname: string;
  readonly filename: string;
  /** The part's content type as the client sent it. */
  readonly mimetype: string;
  /** The file's bytes. Should the body turn out malformed while they are read, it fails with a 400. */
  readonly stream: Readable;
  /** True when the parser stopped at the size limit: the bytes read are not the whole file. */
  truncated(): boolean;
}

/**
 * The request's first file part, undefined when it has none: the one way upload routes read a
 * multipart body. Whatever the multipart parser cannot read, in the headers (no boundary, the
 * wrong one) or later in the file's bytes (a part cut short), is the client's malformed upload:
 * 400 MALFORMED_UPLOAD on every upload route. The parser's limits keep their own 4xx (413).
 */
export async function receiveFilePart(request: FastifyRequest, limits: { fileSize: number }): Promise<UploadedFile | undefined> {
  let part;
  try {
    part = await request.file({ limits });
  } catch (error) {
    throw malformedUpload(error);
  }
  if (!part) return undefined;
  const { file } = part;
  return {
    fieldname: part.fieldname,
    filename: part.filename,
    mimetype: part.mimetype,
    stream: Readable.from(bytesOf(file), { objectMode: false }),
    truncated: () => file.truncated,
  };
}

/** The file's bytes, its stream's failures (all of them the body's) turned into the client's error. */
async function* bytesOf(file: Readable): AsyncGenerator<Buffer> {
  try {
    for await (const chunk of file) yield chunk as Buffer;
  } catch (error) {
    throw malformedUpload(error);
  }
}

function malformedUpload(error: unknown): unknown {
  const status = (error as { statusCode?: unknown }).statusCode;
  if (error instanceof HttpError || (typeof status === 'number' && status >= 400 && status < 500)) return error;
  return new HttpError(400, `The upload could not be read as multipart/form-data: ${(error as Error).message}`, 'MALFORMED_UPLOAD');
}

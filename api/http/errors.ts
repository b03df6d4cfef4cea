import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { STATUS_CODES } from 'node:http';
import { ConcurrencyConflictError } from '../../engine/application/command-handler';
import { DomainError, type DomainErrorKind } from '../../engine/domain';

/** An error with the status and message a client should see. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly code?: string,
    /** A form's problems, each naming its field, for a client to show beside each field. */
    readonly errors?: ReadonlyArray<{ field: string; message: string }>,
  ) {
    super(message);
  }
}

/** Said when others kept changing the same auction, listing or tag first: nothing was done. */
const CONCURRENCY_CONFLICT_MESSAGE = 'Too many changes at once to this item; nothing was done, please try again';

const STATUS_OF_KIND: Record<DomainErrorKind, number> = {
  invalid: 400,
  forbidden: 403,
  not_found: 404,
  rejected: 409,
};

/**
 * Every error answer has this shape: `{ statusCode, error, message }`, plus a stable `code` when
 * there is one, and `errors` (field, message) when a form was refused.
 */
export function errorBody(statusCode: number, message: string, code?: string, errors?: HttpError['errors']) {
  return { statusCode, error: STATUS_CODES[statusCode] ?? 'Error', message, ...(code ? { code } : {}), ...(errors ? { errors } : {}) };
}

/**
 * The one place errors become HTTP answers. Engine errors keep their messages (the spec's wording);
 * validation errors name the field; anything unexpected is a 500 whose details stay in the log.
 */
export function handleError(error: FastifyError | Error, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  if (error instanceof HttpError) return reply.code(error.statusCode).send(errorBody(error.statusCode, error.message, error.code, error.errors));
  if (error instanceof DomainError) {
    const status = STATUS_OF_KIND[error.kind];
    return reply.code(status).send(errorBody(status, error.message, error.code));
  }
  if (error instanceof ConcurrencyConflictError) {
    // Auctions, listings and tags alike: many others changed it first, so nothing was done.
    return reply.code(409).send(errorBody(409, CONCURRENCY_CONFLICT_MESSAGE, 'CONCURRENCY_CONFLICT'));
  }
  if (hasZodFastifySchemaValidationErrors(error)) {
    const issues = error.validation.map((issue) => ({ path: issue.instancePath.replace(/^\//, '').replace(/\//g, '.'), message: issue.message ?? 'Invalid value' }));
    const problems = issues.map(({ path, message }) => `${[error.validationContext, path].filter(Boolean).join('.')}: ${message}`);
    // A refused form's problems also come field by field, for the form to show each beside its field.
    const fields = error.validationContext === 'body' ? issues.filter((issue) => issue.path !== '').map(({ path, message }) => ({ field: path, message })) : [];
    return reply.code(400).send(errorBody(400, problems.join('; '), 'VALIDATION_FAILED', fields.length > 0 ? fields : undefined));
  }
  const sqlState = (error as { code?: unknown }).code;
  if (sqlState === '22021' || sqlState === '22P05') {
    // Postgres refuses NUL and characters outside UTF-8 in text: the input was bad, not the server.
    return reply.code(400).send(errorBody(400, 'Text must not contain NUL or invalid characters', 'INVALID_CHARACTERS'));
  }
  const status = (error as FastifyError).statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    // Fastify's own client errors: malformed JSON, unsupported media type, body too large...
    return reply.code(status).send(errorBody(status, error.message, (error as FastifyError).code));
  }
  request.log.error({ err: error }, 'unhandled error');
  return reply.code(500).send(errorBody(500, 'Internal Server Error'));
}

export function handleNotFound(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  return reply.code(404).send(errorBody(404, `Route ${request.method} ${request.url.split('?')[0]} not found`));
}

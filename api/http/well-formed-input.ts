import type { FastifyRequest } from 'fastify';
import { HttpError } from './errors';

/**
 * NUL, which PostgreSQL cannot store in text, and a UTF-16 surrogate without its pair, which is no
 * character at all (PostgreSQL refuses it in JSON). In `u` mode a well-formed pair is one code point,
 * so \p{Cs} matches only a lone surrogate.
 */
const MALFORMED_TEXT = /[\0\p{Cs}]/u;

const WELL_FORMED_TEXT_RULE = 'must be well-formed text (no NUL characters, no unpaired UTF-16 surrogates)';

/** True when the text can be stored and shown as it is. */
export function isWellFormedText(text: string): boolean {
  return !MALFORMED_TEXT.test(text);
}

/** "body.playerName: must be well-formed text (...)": the one message for text refused by this rule. */
export function malformedTextMessage(field: string): string {
  return `${field}: ${WELL_FORMED_TEXT_RULE}`;
}

/**
 * preValidation, every route: params, query and body hold only well-formed text, values and field
 * names alike, or the request is refused with 400 naming the first field that does not. Checked once
 * here, before any handler, so that no route can store text the database refuses.
 */
export async function refuseMalformedText(request: FastifyRequest): Promise<void> {
  const field = findMalformedText(request.params, 'params') ?? findMalformedText(request.query, 'querystring') ?? findMalformedText(request.body, 'body');
  if (field) throw new HttpError(400, malformedTextMessage(field), 'INVALID_CHARACTERS');
}

interface Visit {
  readonly value: unknown;
  readonly key: string;
  readonly parent: Visit | null;
}

function pathOf(visit: Visit): string {
  const keys: string[] = [];
  for (let at: Visit | null = visit; at; at = at.parent) keys.push(at.key);
  return keys.reverse().join('.');
}

/**
 * The path of the first string (or field name) that is not well-formed, e.g. "body.stats.team";
 * null when there is none. Iterative, and paths are built only for the one found, so a deeply
 * nested body costs neither stack nor memory beyond its own size.
 */
function findMalformedText(root: unknown, rootPath: string): string | null {
  const queue: Visit[] = [{ value: root, key: rootPath, parent: null }];
  for (let next = 0; next < queue.length; next++) {
    const visit = queue[next]!;
    if (typeof visit.value === 'string') {
      if (!isWellFormedText(visit.value)) return pathOf(visit);
      continue;
    }
    if (visit.value === null || typeof visit.value !== 'object') continue;
    for (const [key, value] of Object.entries(visit.value)) {
      // A field name is reported by where it sits, not echoed back.
      if (!isWellFormedText(key)) return pathOf(visit);
      queue.push({ value, key, parent: visit });
    }
  }
  return null;
}

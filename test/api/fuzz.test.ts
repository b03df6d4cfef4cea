import * as XLSX from '@e965/xlsx';
import type { OpenAPIV3 } from 'openapi-types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_BACKENDS, startTestApi, type TestApi } from '../support/api';
import { createMarketplaceListing } from '../support/marketplace';
import { oneConnection, type RawRequest } from '../support/one-connection';
import { PNG } from '../media/fixtures';

/**
 * Every operation of the OpenAPI document, sent malformed: each body field, path and query
 * parameter in turn given a value of the wrong type or odd text, whole bodies that are no JSON
 * object, wrong content types, broken multipart bodies, bad tokens; as an anonymous client, a
 * buyer and an admin (who gets past every role check). No answer may be a 5xx the operation does
 * not document, every refusal has the spec's error shape, and the one keep-alive connection they
 * all went through still serves at the end. Deterministic: fixed lists, no randomness.
 */

type Role = 'anonymous' | 'buyer' | 'admin';
type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

interface Operation {
  readonly method: string;
  readonly template: string;
  readonly spec: OpenAPIV3.OperationObject;
}

interface FuzzCase {
  readonly role: Role;
  readonly what: string;
  readonly request: RawRequest;
}

const KB = 1024;
const HUGE_TEXT = 'x'.repeat(100 * KB);

/** Put in one body field at a time: the wrong types, and text that is odd, huge or hostile. */
const BAD_JSON_VALUES: ReadonlyArray<readonly [string, Json]> = [
  ['null', null],
  ['true', true],
  ['-1', -1],
  ['1.5', 1.5],
  ['1e308', 1e308],
  ['an empty string', ''],
  ['an array', ['x']],
  ['an object', { x: 'y' }],
  ['a lone high surrogate', 'x \ud800 y'],
  ['a lone low surrogate', '\udc00'],
  ['NUL', 'a\u0000b'],
  ['100 KB of text', HUGE_TEXT],
  ['RTL, emoji and invisible characters', '\u202eمرحبا\u202c 🏈👍🏽 \u200b\ufeff'],
  ['a path traversal', '../../etc/passwd'],
  ['an encoded path traversal', '%2e%2e%2f%2e%2e%2fetc%2fpasswd'],
  ['SQL', "' OR 1=1; DROP TABLE listings; --"],
  ['400 digits', '9'.repeat(400)],
];

/** Put in one path or query parameter at a time, as sent on the wire (percent-encoded or not). */
const BAD_URL_VALUES: ReadonlyArray<readonly [string, string]> = [
  ['empty', ''],
  ['-1', '-1'],
  ['1.5', '1.5'],
  ['1e400', '1e400'],
  ['a word', 'abc'],
  ['an encoded NUL', '%00'],
  ['an encoded lone surrogate (invalid UTF-8)', '%ED%A0%80'],
  ['an encoded emoji', '%F0%9F%8F%88'],
  ['an encoded RTL override', '%E2%80%AE'],
  ['a path traversal', '..%2F..%2Fetc%2Fpasswd'],
  ['a dotted traversal', '%2e%2e%2f%2e%2e%2f'],
  ['a broken escape', '%zz'],
  ['a lone percent sign', '%'],
  ['5 KB', 'x'.repeat(5 * KB)],
];

/** Whole JSON bodies that are no object of the route's shape. */
const BAD_JSON_BODIES: ReadonlyArray<readonly [string, string | Buffer]> = [
  ['null', 'null'],
  ['an array', '[]'],
  ['a string', '"x"'],
  ['a number', '1'],
  ['nothing', ''],
  ['truncated JSON', '{"a":'],
  ['__proto__', '{"__proto__":{"isAdmin":true}}'],
  ['constructor.prototype', '{"constructor":{"prototype":{"isAdmin":true}}}'],
  ['invalid UTF-8', Buffer.from([0x7b, 0x22, 0x78, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xed, 0xa0, 0x80, 0x22, 0x7d])],
  ['a lone surrogate in a field name', '{"\\ud800":"x"}'],
  ['arrays nested 10,000 deep', `${'['.repeat(10_000)}${']'.repeat(10_000)}`],
  ['objects nested 10,000 deep', `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`],
  ['more than the 1 MB body limit', JSON.stringify({ x: 'x'.repeat(1100 * KB) })],
];

/** Sent with a well-formed body of the route's shape. */
const WRONG_CONTENT_TYPES = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'application/xml',
  'application/octet-stream',
  'application/json; charset=utf-16',
  'multipart/form-data',
  'multipart/form-data; boundary=wrong',
  'multipart/mixed; boundary=wrong',
];

/** What the roles that do not get past an operation's checks send: the cases that could still go wrong before the checks. */
const SAMPLE_FOR_OTHER_ROLES = new Set([
  'a lone high surrogate',
  'a lone low surrogate',
  'more than the 1 MB body limit',
  'multipart/form-data; boundary=wrong',
  'multipart/mixed; boundary=wrong',
  'the wrong boundary',
  '400 KB refused by its name',
]);

const BAD_AUTHORIZATIONS: ReadonlyArray<readonly [string, string]> = [
  ['a bare Bearer', 'Bearer'],
  ['a token that is no JWT', 'Bearer x.y.z'],
  ['an unsigned JWT', 'Bearer eyJhbGciOiJub25lIiwidHlwIjoiSldUIn0.eyJzdWIiOiJ4Iiwicm9sZXMiOlsiQURNSU4iXX0.'],
  ['Basic credentials', 'Basic YWRtaW46YWRtaW4='],
  ['an 8 KB token', `Bearer ${'a'.repeat(8 * KB)}`],
];

const BAD_HEADER_VALUES: ReadonlyArray<readonly [string, string]> = [
  ['empty', ''],
  ['300 characters', 'k'.repeat(300)],
  ['Latin-1 letters', 'clé-ü'],
  ['spaces', 'a b c'],
];

/** A multipart body by hand, so that it can be wrong in every way. */
function multipart(boundary: string, parts: ReadonlyArray<{ headers: string; content: string | Buffer }>, options: { close?: boolean } = {}): Buffer {
  return Buffer.concat([
    ...parts.flatMap((part) => [Buffer.from(`--${boundary}\r\n${part.headers}\r\n\r\n`), Buffer.from(part.content), Buffer.from('\r\n')]),
    Buffer.from(options.close === false ? '' : `--${boundary}--\r\n`),
  ]);
}

const filePart = (filename: string, content: string | Buffer, field = 'file') => ({
  headers: `Content-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: application/octet-stream`,
  content,
});
const encodedNamePart = (encodedName: string, content: string | Buffer) => ({
  headers: `Content-Disposition: form-data; name="file"; filename*=UTF-8''${encodedName}\r\nContent-Type: application/octet-stream`,
  content,
});
const textPart = (field: string, value: string) => ({ headers: `Content-Disposition: form-data; name="${field}"`, content: value });

/** An .xls workbook (OLE2, as a bulk import takes it) whose cells keep whatever text they are given. */
function xlsWorkbook(rows: unknown[][]): Buffer {
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(rows), 'Jerseys');
  return XLSX.write(book, { type: 'buffer', bookType: 'biff8' }) as Buffer;
}

const SHEET_HEADER = ['player_name', 'jersey_number', 'team', 'size', 'condition', 'description'];
const ODD_ROW = ['\u202eمرحبا 🏈', 12, '../../etc/passwd', 'l', 'good', "' OR 1=1; --"];

/** Multipart bodies for the routes that take a file: broken, hostile, and a few that are fine. */
const MULTIPART_BODIES: ReadonlyArray<readonly [string, string, Buffer]> = (() => {
  const type = (boundary: string) => `multipart/form-data; boundary=${boundary}`;
  const good = multipart('b', [filePart('ball.png', PNG)]);
  return [
    ['a PNG', type('b'), good],
    ['no boundary', 'multipart/form-data', good],
    ['the wrong boundary', type('other'), good],
    ['an empty boundary', 'multipart/form-data; boundary=""', good],
    ['a 300-character boundary', type('b'.repeat(300)), multipart('b'.repeat(300), [filePart('ball.png', PNG)])],
    ['a part cut short', type('b'), multipart('b', [filePart('ball.png', PNG)], { close: false })],
    ['no parts', type('b'), Buffer.from('--b--\r\n')],
    ['garbage', type('b'), Buffer.from('hello, not multipart')],
    ['a part header without Content-Disposition', type('b'), multipart('b', [{ headers: 'X-Nothing: here', content: 'x' }])],
    ['the file in another field', type('b'), multipart('b', [filePart('ball.png', PNG, 'upload')])],
    ['a text field only', type('b'), multipart('b', [textPart('file', 'x \ud800 y')])],
    ['a text field of 70 KB then the file', type('b'), multipart('b', [textPart('note', 'n'.repeat(70 * KB)), filePart('ball.png', PNG)])],
    ['two files', type('b'), multipart('b', [filePart('a.png', PNG), filePart('b.png', PNG)])],
    ['13 parts', type('b'), multipart('b', Array.from({ length: 13 }, (_, index) => textPart(`f${index}`, 'x')))],
    ['a __proto__ field', type('b'), multipart('b', [textPart('__proto__', 'x'), filePart('ball.png', PNG)])],
    ['a traversing filename', type('b'), multipart('b', [filePart('../../etc/passwd', PNG)])],
    ['an encoded traversing filename', type('b'), multipart('b', [filePart('..%2F..%2Fetc%2Fpasswd.png', PNG)])],
    ['an emoji filename', type('b'), multipart('b', [encodedNamePart('%F0%9F%8F%88.png', PNG)])],
    ['a NUL in the filename', type('b'), multipart('b', [encodedNamePart('ball%00.png', PNG)])],
    ['an encoded lone surrogate in the filename', type('b'), multipart('b', [encodedNamePart('%ED%A0%80.png', PNG)])],
    ['an RTL-override filename', type('b'), multipart('b', [encodedNamePart('ball%E2%80%AEgnp.exe', PNG)])],
    ['a 5,000-character filename', type('b'), multipart('b', [filePart(`${'x'.repeat(5000)}.png`, PNG)])],
    ['an empty filename', type('b'), multipart('b', [filePart('', PNG)])],
    ['HTML named .png', type('b'), multipart('b', [filePart('ball.png', '<script>alert(1)</script>')])],
    ['an empty file', type('b'), multipart('b', [filePart('ball.png', '')])],
    ['400 KB refused by its name', type('b'), multipart('b', [filePart('notes.txt', Buffer.alloc(400 * KB, 'a'))])],
    ['a CSV of odd text', type('b'), multipart('b', [filePart('jerseys.csv', `${SHEET_HEADER.join(',')}\n"${ODD_ROW.join('","')}"\n`)])],
    ['a CSV with a 100 KB cell', type('b'), multipart('b', [filePart('jerseys.csv', `${SHEET_HEADER.join(',')}\n${HUGE_TEXT}\n`)])],
    ['a CSV holding NUL', type('b'), multipart('b', [filePart('jerseys.csv', `${SHEET_HEADER.join(',')}\na\u0000b,12,chiefs,l,good,x\n`)])],
    [
      'an .xls with NUL and lone surrogates in its cells',
      type('b'),
      multipart('b', [filePart('jerseys.xls', xlsWorkbook([SHEET_HEADER, ['a\u0000b', 12, 'chiefs', 'l', 'good', 'x \ud800 y'], ['\udc00', 7, 'patriots', 'm', 'new', '']]))]),
    ],
    ['an .xls with a lone surrogate in its header', type('b'), multipart('b', [filePart('jerseys.xls', xlsWorkbook([['player_\ud800name'], ['x']]))])],
  ];
})();

const firstChoice = (schema: OpenAPIV3.SchemaObject) =>
  (schema.anyOf ?? schema.oneOf)?.find((option) => (option as { type?: string }).type !== 'null') as OpenAPIV3.SchemaObject | undefined;

/**
 * A plausible value of the schema, for a request that only the field under test spoils: every
 * property or only the required ones, switches off, no array items unless required, the fixture's
 * ids where a field names one.
 */
function exampleOf(schema: OpenAPIV3.SchemaObject, name: string, ids: Record<string, string>, properties: 'every' | 'required' = 'every'): Json {
  const choice = firstChoice(schema);
  if (choice) return exampleOf(choice, name, ids, properties);
  if (schema.enum) return schema.enum[0] as Json;
  switch (schema.type) {
    case 'string':
      if (ids[name]) return ids[name];
      // Not the accounts' own: a password change would end the session the rest of the run uses.
      if (/password/i.test(name)) return 'Fuzz!Passw0rd1';
      if (/email/i.test(name) || schema.format === 'email') return 'fuzz@example.com';
      if (/phone/i.test(name)) return '+1 555 0100 200';
      if (schema.format === 'uuid') return '00000000-0000-4000-8000-000000000000';
      if (schema.format === 'date') return '2024-05-01';
      if (schema.format === 'date-time') return '2030-01-01T00:00:00.000Z';
      return 'f'.repeat(Math.max(schema.minLength ?? 0, 4));
    case 'integer':
    case 'number':
      return (schema.minimum ?? 0) + (schema.exclusiveMinimum || schema.minimum === undefined ? 1 : 0);
    case 'boolean':
      return false;
    case 'array':
      return Array.from({ length: schema.minItems ?? 0 }, () => exampleOf(schema.items as OpenAPIV3.SchemaObject, name.replace(/s$/, ''), ids, properties));
    default: {
      const all = Object.entries(schema.properties ?? {}) as [string, OpenAPIV3.SchemaObject][];
      const chosen = properties === 'every' ? all : all.filter(([property]) => schema.required?.includes(property));
      return Object.fromEntries(chosen.map(([property, inner]) => [property, exampleOf(inner, property, ids, properties)]));
    }
  }
}

/** Every field the schema describes, the body itself first, then nested fields and array items. */
function fieldsOf(schema: OpenAPIV3.SchemaObject, path: readonly (string | number)[] = []): (string | number)[][] {
  const choice = firstChoice(schema);
  if (choice) return fieldsOf(choice, path);
  const inner =
    schema.type === 'array' ? fieldsOf(schema.items as OpenAPIV3.SchemaObject, [...path, 0])
    : schema.properties ? Object.entries(schema.properties).flatMap(([property, nested]) => fieldsOf(nested as OpenAPIV3.SchemaObject, [...path, property]))
    : [];
  return [[...path], ...inner];
}

/** The value with one field replaced, the objects and arrays on its way made when missing. */
function withValueAt(value: Json | undefined, path: readonly (string | number)[], replacement: Json): Json {
  if (path.length === 0) return replacement;
  const [head, ...rest] = path as [string | number, ...(string | number)[]];
  const container = (Array.isArray(value) ? [...value] : value !== null && typeof value === 'object' ? { ...value } : typeof head === 'number' ? [] : {}) as Record<
    string | number,
    Json
  >;
  container[head] = withValueAt(container[head], rest, replacement);
  return container as Json;
}

function operationsOf(document: OpenAPIV3.Document): Operation[] {
  return Object.entries(document.paths).flatMap(([template, item]) =>
    (['get', 'put', 'post', 'delete', 'patch'] as const).flatMap((method) => {
      const spec = item?.[method];
      return spec ? [{ method: method.toUpperCase(), template, spec }] : [];
    }),
  );
}

const parametersOf = (operation: Operation, place: string) =>
  ((operation.spec.parameters ?? []) as OpenAPIV3.ParameterObject[]).filter((parameter) => parameter.in === place);

const jsonBodySchemaOf = (operation: Operation) =>
  (operation.spec.requestBody as OpenAPIV3.RequestBodyObject | undefined)?.content['application/json']?.schema as OpenAPIV3.SchemaObject | undefined;

/** The 5xx answers an operation documents (POST /api/auth/google answers 501 by design). */
const documentedServerErrors = (operation: Operation) => Object.keys(operation.spec.responses).map(Number).filter((status) => status >= 500);

/** All the malformed requests for one operation, each as one role; each yield is answered with the status it got. */
function* casesOf(operation: Operation, idsOf: (role: Role) => Record<string, string>): Generator<FuzzCase, void, number> {
  const bodySchema = jsonBodySchemaOf(operation);
  const takesFile = !bodySchema && (operation.method === 'POST' || operation.method === 'PUT');
  // The role that gets past the operation's checks gets everything; the others a sample.
  const fullRole: Role = operation.spec.security ? 'admin' : 'anonymous';

  for (const role of ['admin', 'buyer', 'anonymous'] as const) {
    const ids = idsOf(role);
    const full = role === fullRole;
    const sampled = <Case extends readonly [string, ...unknown[]]>(cases: readonly Case[]) => (full ? cases : cases.filter(([name]) => SAMPLE_FOR_OTHER_ROLES.has(name)));
    const pathParameters = parametersOf(operation, 'path');
    const queryParameters = parametersOf(operation, 'query');
    const headerParameters = parametersOf(operation, 'header');
    const pathWith = (overrides: Record<string, string> = {}) =>
      operation.template.replace(/\{(\w+)\}/g, (_, name: string) => overrides[name] ?? encodeURIComponent(String(exampleOf(pathParameters.find((p) => p.name === name)!.schema as OpenAPIV3.SchemaObject, name, ids))));
    const requiredQuery = queryParameters
      .filter((parameter) => parameter.required)
      .map((parameter) => `${parameter.name}=${encodeURIComponent(String(exampleOf(parameter.schema as OpenAPIV3.SchemaObject, parameter.name, ids)))}`);
    const url = (path: string, query: string[] = []) => {
      const all = [...requiredQuery.filter((pair) => !query.some((own) => own.startsWith(`${pair.split('=')[0]}=`))), ...query];
      return all.length > 0 ? `${path}?${all.join('&')}` : path;
    };
    const jsonRequest = (what: string, body: Json | undefined, overrides: Partial<RawRequest> = {}): FuzzCase => ({
      role,
      what,
      request: {
        method: operation.method,
        path: url(pathWith()),
        ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
        ...overrides,
      },
    });
    const raw = (what: string, contentType: string | undefined, body: string | Buffer, path = url(pathWith())): FuzzCase => ({
      role,
      what,
      request: { method: operation.method, path, headers: contentType === undefined ? {} : { 'content-type': contentType }, body },
    });

    let baseBody: Json | undefined;
    if (bodySchema) {
      // Field by field from a body the server accepts, when one of these two is: each bad value then goes as deep as it can.
      const everyField = exampleOf(bodySchema, 'body', ids, 'every');
      const requiredFields = exampleOf(bodySchema, 'body', ids, 'required');
      const everyFieldStatus = yield jsonRequest('a body with every field', everyField);
      const requiredFieldsStatus = yield jsonRequest('a body with the required fields', requiredFields);
      baseBody = everyFieldStatus < 300 || requiredFieldsStatus >= 300 ? everyField : requiredFields;
    } else {
      yield jsonRequest('a request without a body', undefined);
    }
    if (baseBody !== undefined) {
      const fields = fieldsOf(bodySchema!);
      for (const [valueName, value] of sampled(BAD_JSON_VALUES)) {
        // The other roles: one field is enough to show the check runs before the role's refusal or after it.
        for (const field of full ? fields : fields.slice(-1)) yield jsonRequest(`body.${field.join('.') || '(whole)'} = ${valueName}`, withValueAt(baseBody, field, value));
      }
      for (const [bodyName, body] of sampled(BAD_JSON_BODIES)) {
        yield raw(`a JSON body that is ${bodyName}`, 'application/json', body);
      }
      for (const [contentType] of sampled(WRONG_CONTENT_TYPES.map((type) => [type] as const))) yield raw(`the body as ${contentType}`, contentType, JSON.stringify(baseBody));
      if (full) {
        yield raw('a body without a content type', undefined, JSON.stringify(baseBody));
        yield jsonRequest('a gzip-encoded body that is not gzip', baseBody, { headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' } });
      }
    } else if (!takesFile) {
      yield raw('an unexpected JSON body', 'application/json', '{"x":"\\ud800"}');
    }
    if (takesFile) {
      for (const [bodyName, contentType, body] of sampled(MULTIPART_BODIES)) {
        yield raw(`multipart: ${bodyName}`, contentType, body);
      }
      if (full) yield raw('JSON instead of a file', 'application/json', '{"file":"x"}');
    }
    if (!full) continue;

    for (const parameter of pathParameters) {
      for (const [valueName, value] of BAD_URL_VALUES) {
        if (value === '') continue; // an empty segment is another route
        yield jsonRequest(`path ${parameter.name} = ${valueName}`, baseBody, { path: url(pathWith({ [parameter.name]: value })) });
      }
    }
    for (const parameter of queryParameters) {
      for (const [valueName, value] of BAD_URL_VALUES) yield jsonRequest(`query ${parameter.name} = ${valueName}`, baseBody, { path: url(pathWith(), [`${parameter.name}=${value}`]) });
      yield jsonRequest(`query ${parameter.name} twice`, baseBody, { path: url(pathWith(), [`${parameter.name}=1`, `${parameter.name}=2`]) });
      yield jsonRequest(`query ${parameter.name}[] and ${parameter.name}[a]`, baseBody, { path: url(pathWith(), [`${parameter.name}[]=1`, `${parameter.name}[a]=1`]) });
    }
    for (const parameter of headerParameters) {
      for (const [valueName, value] of BAD_HEADER_VALUES) {
        const request = jsonRequest('', baseBody).request;
        yield { role, what: `header ${parameter.name} = ${valueName}`, request: { ...request, headers: { ...request.headers, [parameter.name]: value } } };
      }
    }
    if (operation.spec.security) {
      for (const [tokenName, authorization] of BAD_AUTHORIZATIONS) {
        const request = jsonRequest('', baseBody).request;
        yield { role: 'anonymous', what: `authorization: ${tokenName}`, request: { ...request, headers: { ...request.headers, authorization } } };
      }
    }
  }
}

/** A problem with one answer, said with the request that got it. */
function problemWith(fuzzCase: FuzzCase, answer: { status: number; body: string }, allowedServerErrors: number[]): string | null {
  const label = `${fuzzCase.role} ${fuzzCase.request.method} ${fuzzCase.request.path.slice(0, 120)} (${fuzzCase.what}): ${answer.status}`;
  if (answer.status >= 500 && !allowedServerErrors.includes(answer.status)) return `${label} ${answer.body.slice(0, 300)}`;
  if (answer.status < 400) return null;
  let body: { statusCode?: unknown; error?: unknown; message?: unknown };
  try {
    body = JSON.parse(answer.body) as typeof body;
  } catch {
    return `${label} is not JSON: ${answer.body.slice(0, 200)}`;
  }
  const spoken = body.statusCode === answer.status && typeof body.error === 'string' && typeof body.message === 'string' && body.message.length > 0;
  return spoken ? null : `${label} lacks the error shape: ${answer.body.slice(0, 200)}`;
}

describe.each(API_BACKENDS)('every operation of the OpenAPI document, fuzzed, on %s', (backend) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startTestApi(backend);
  });
  afterAll(async () => api.close());

  it('never answers a 5xx it does not document, refuses in the error shape, and keeps the connection serving', { timeout: 300_000 }, async () => {
    const live = await createMarketplaceListing(api);
    const draft = await createMarketplaceListing(api, { stage: 'DRAFT' });
    const bidder = await api.signUp('BUYER');
    const bid = await api.call('POST', '/api/bids', { token: bidder.tokens.accessToken, body: { auctionId: live.auctionId, amount: 60 } });
    expect(bid.status, JSON.stringify(bid.body)).toBe(201);
    const setupAdmin = await api.signUp('ADMIN');
    const freeTag = await api.call('POST', '/api/admin/nfc/tags/provision', { token: setupAdmin.tokens.accessToken, body: { uid: '04a1b2c3d4e5f6' } });
    expect(freeTag.status, JSON.stringify(freeTag.body)).toBe(201);

    const document = api.app.swagger() as OpenAPIV3.Document;
    const operations = operationsOf(document);
    const connection = oneConnection(api.url);
    const problems: string[] = [];
    const statuses = new Map<number, number>();
    let requests = 0;
    try {
      for (const operation of operations) {
        // Fresh accounts per operation: one that signs out or ends every session leaves the next untouched.
        const buyer = await api.signUp('BUYER');
        const admin = await api.signUp('ADMIN');
        const accounts = { buyer, admin } as const;
        const idsOf = (role: Role): Record<string, string> => ({
          userId: role === 'anonymous' ? buyer.user.id : accounts[role].user.id,
          id: draft.listingId,
          listingId: live.listingId,
          slugOrId: live.slug,
          auctionId: live.auctionId!,
          bidId: bid.body.id,
          uid: live.nfcUid!,
          nfcUid: freeTag.body.uid,
          refreshToken: accounts[role === 'anonymous' ? 'buyer' : role].tokens.refreshToken,
        });
        const allowed = documentedServerErrors(operation);
        let previous = 'the start';
        const cases = casesOf(operation, idsOf);
        let status = 0;
        for (let step = cases.next(); !step.done; step = cases.next(status)) {
          const fuzzCase = step.value;
          status = 0;
          const token = fuzzCase.role === 'anonymous' ? undefined : accounts[fuzzCase.role].tokens.accessToken;
          const headers = { ...(token ? { authorization: `Bearer ${token}` } : {}), ...fuzzCase.request.headers };
          requests++;
          try {
            const answer = await connection.send({ ...fuzzCase.request, headers });
            status = answer.status;
            statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
            const problem = problemWith(fuzzCase, answer, allowed);
            if (problem) problems.push(problem);
          } catch (error) {
            // Most likely the previous request left the connection unusable.
            problems.push(`${(error as Error).message} (after ${previous})`);
          }
          previous = `${fuzzCase.role} ${fuzzCase.request.method} ${operation.template} (${fuzzCase.what})`;
        }
      }
      const health = await connection.send({ method: 'GET', path: '/health' });
      expect(health.status).toBe(200);
    } finally {
      connection.close();
    }

    const byStatus = [...statuses].sort(([a], [b]) => a - b).map(([status, count]) => `${status}: ${count}`).join(', ');
    console.log(`fuzz on ${backend}: ${requests} requests over ${operations.length} operations (${byStatus})`);
    expect(operations.length).toBeGreaterThan(50);
    expect(problems).toEqual([]);
  });
});

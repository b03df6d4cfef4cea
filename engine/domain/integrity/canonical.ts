/**
 * RFC 8785 (JSON Canonicalization Scheme) text of a JSON value: members sorted by UTF-16 code
 * units, numbers as ECMAScript writes them, no whitespace. The same bytes whatever stored or sent
 * the value, so a hash or a signature over them survives a database and a browser. Throws on what
 * JSON cannot hold (NaN, infinities, lone surrogates, cycles, undefined at the top). Browser-safe.
 *
 * JCS is ECMAScript's own JSON.stringify with members sorted, so strings and numbers are written
 * as JSON.stringify writes them (it is asked for every string it would escape). Written here
 * rather than taken from `canonicalize` 4 (the RFC authors' code, kept as this function's test
 * oracle: test/engine/integrity/canonical.test.ts), which costs a hot auction some 4 times as
 * much, mostly in a character-by-character surrogate check; its 5.x needs Node 22.
 */
export function jcs(value: unknown): string {
  const text = serialize(asJson(value, ''), []);
  if (text === undefined) throw new TypeError('This value has no JSON form');
  return text;
}

const UTF8 = new TextEncoder();

/** The UTF-8 bytes of a value's canonical text: what a signature covers. */
export function canonicalBytes(value: unknown): Uint8Array<ArrayBuffer> {
  return UTF8.encode(jcs(value));
}

/** With the u flag a surrogate pair is one code point: only a lone surrogate matches. */
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;
/** What JSON.stringify writes other than as it is: control characters, quote, backslash, and surrogates (paired ones come along). */
// eslint-disable-next-line no-control-regex -- control characters are what JSON escapes
const NOT_AS_IT_IS = /[\u0000-\u001F"\\\uD800-\uDFFF]/;

/**
 * Most strings (ids, times, names) are written as they are, quoted; the others by JSON.stringify,
 * which escapes a lone surrogate as \uXXXX (and a control character): only then is the string
 * looked at again.
 */
function jsonString(value: string): string {
  if (!NOT_AS_IT_IS.test(value)) return `"${value}"`;
  const text = JSON.stringify(value);
  if (text.includes('\\u') && LONE_SURROGATE.test(value)) throw new TypeError('Lone surrogate is not allowed');
  return text;
}

/**
 * A member's name as written, with its colon: the names of a log's events recur in every event,
 * so each is written once. Bounded, so that data with ever new or long names cannot grow it.
 */
const memberNames = new Map<string, string>();
const MEMBER_NAMES_KEPT = 2_000;
const MEMBER_NAME_KEPT_LENGTH = 64;

function memberName(key: string): string {
  let written = memberNames.get(key);
  if (written === undefined) {
    written = `${jsonString(key)}:`;
    if (memberNames.size < MEMBER_NAMES_KEPT && key.length <= MEMBER_NAME_KEPT_LENGTH) memberNames.set(key, written);
  }
  return written;
}

/** undefined for what JSON leaves out (undefined, functions, symbols), as JSON.stringify does. */
function serialize(value: unknown, ancestors: object[]): string | undefined {
  switch (typeof value) {
    case 'string':
      return jsonString(value);
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError(`${value} is not allowed`);
      return String(value); // ECMAScript's Number::toString, as JSON.stringify writes a finite number
    case 'boolean':
      return value ? 'true' : 'false';
    case 'bigint':
      throw new TypeError('A BigInt has no JSON form');
    case 'object':
      return value === null ? 'null' : serializeObject(value, ancestors);
    default:
      return undefined;
  }
}

/**
 * As JSON.stringify takes a member (SerializeJSONProperty): toJSON once, with the member's name,
 * and a Number, String or Boolean object as its primitive; the store keeps what JSON.stringify
 * writes, and the hash must cover the same.
 */
function asJson(value: unknown, key: string): unknown {
  let json = value;
  if (typeof json === 'object' && json !== null && typeof (json as { toJSON?: unknown }).toJSON === 'function') json = (json as { toJSON(key: string): unknown }).toJSON(key);
  if (json instanceof Number || json instanceof String || json instanceof Boolean) json = json.valueOf();
  return json;
}

function serializeObject(value: object, ancestors: object[]): string | undefined {
  if (ancestors.includes(value)) throw new TypeError('Circular reference detected');
  ancestors.push(value);
  let text: string | undefined;
  if (Array.isArray(value)) {
    text = '[';
    for (let index = 0; index < value.length; index++) text += `${index === 0 ? '' : ','}${serialize(asJson(value[index], String(index)), ancestors) ?? 'null'}`;
    text += ']';
  } else {
    text = '{';
    for (const key of Object.keys(value).sort()) {
      const member = serialize(asJson((value as Record<string, unknown>)[key], key), ancestors);
      if (member !== undefined) text += `${text.length === 1 ? '' : ','}${memberName(key)}${member}`;
    }
    text += '}';
  }
  ancestors.pop();
  return text;
}

import canonicalize from 'canonicalize';

/**
 * RFC 8785 (JSON Canonicalization Scheme) text of a JSON value: members sorted by UTF-16 code
 * units, numbers as ECMAScript writes them, no whitespace. The same bytes whatever stored or sent
 * the value, so a hash or a signature over them survives a database and a browser. Throws on what
 * JSON cannot hold (NaN, infinities, lone surrogates, undefined at the top). Browser-safe.
 */
export function jcs(value: unknown): string {
  const text = canonicalize(value);
  if (text === undefined) throw new TypeError('This value has no JSON form');
  return text;
}

/** The UTF-8 bytes of a value's canonical text: what a signature covers. */
export function canonicalBytes(value: unknown): Uint8Array<ArrayBuffer> {
  return new TextEncoder().encode(jcs(value));
}

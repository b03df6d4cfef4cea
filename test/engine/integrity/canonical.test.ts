import canonicalize from 'canonicalize';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jcs } from '../../../engine/domain/integrity/canonical';

/** Any UTF-16 code unit, lone surrogates included: what a string may hold that JSON may not. */
const codeUnit = fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code));

/** canonicalize's answer, or that it refused. */
function reference(value: unknown): string | 'refused' {
  try {
    return canonicalize(value) ?? 'refused';
  } catch {
    return 'refused';
  }
}

function ours(value: unknown): string | 'refused' {
  try {
    return jcs(value);
  } catch {
    return 'refused';
  }
}

describe('RFC 8785 canonical text', () => {
  it('writes the RFC\'s own example as the RFC does (section 3.2.3)', () => {
    const input = JSON.parse(
      '{"numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001], "string": "\\u20ac$\\u000F\\u000aA\'\\u0042\\u0022\\u005c\\\\\\"\\/", "literals": [null, true, false]}',
    );
    expect(jcs(input)).toBe('{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}');
  });

  it('sorts members by UTF-16 code units, as the RFC\'s sorting example (section 3.2.3)', () => {
    const input = { '\u20ac': 'Euro Sign', '\r': 'Carriage Return', '\ufb33': 'Hebrew Letter Dalet With Dagesh', '1': 'One', '\ud83d\ude00': 'Emoji: Grinning Face', '\u0080': 'Control', '\u00f6': 'Latin Small Letter O With Diaeresis' };
    const order = ['\r', '1', '\u0080', '\u00f6', '\u20ac', '\ud83d\ude00', '\ufb33'];
    expect(jcs(input)).toBe(`{${order.map((key) => `${JSON.stringify(key)}:${JSON.stringify(input[key as keyof typeof input])}`).join(',')}}`);
  });

  it('is the text canonicalize (the RFC authors\' code) writes for any JSON value, and refuses what it refuses', () => {
    const value = fc.jsonValue({ maxDepth: 4 }).chain((json) =>
      fc.oneof(
        fc.constant(json),
        // Strings of arbitrary code units, lone surrogates included, as values and as member names.
        fc.dictionary(fc.string({ unit: codeUnit, maxLength: 6 }), fc.oneof(fc.string({ unit: codeUnit, maxLength: 8 }), fc.constant(json)), { maxKeys: 5 }),
        fc.array(fc.oneof(fc.string({ unit: codeUnit }), fc.double(), fc.integer(), fc.constant(json))),
      ),
    );
    fc.assert(
      fc.property(value, (input) => {
        expect(ours(input)).toBe(reference(input));
      }),
      { numRuns: 2_000 },
    );
  });

  it('refuses what JSON cannot hold', () => {
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    for (const bad of [Number.NaN, Number.POSITIVE_INFINITY, { a: -Infinity }, 'a\ud800', { '\udc00': 1 }, ['\ud800\ud800'], cycle, undefined, 1n]) {
      expect(() => jcs(bad)).toThrow(TypeError);
    }
  });

  it('leaves out members JSON leaves out, writes -0 as 0 and a date as JSON does', () => {
    expect(jcs({ b: undefined, a: [undefined, -0], d: new Date('2026-11-26T19:00:00Z') })).toBe('{"a":[null,0],"d":"2026-11-26T19:00:00.000Z"}');
  });

  it('takes a member as JSON.stringify does, since the store keeps what that writes: toJSON once, with its name; boxed primitives as primitives', () => {
    const value = {
      once: { toJSON: () => new Date('2026-11-26T19:00:00Z') },
      named: { toJSON: (key: string) => `member ${key}` },
      list: [{ toJSON: (key: string) => `item ${key}` }],
      boxed: [new Number(5), new String('s'), new Boolean(false)] as unknown[],
    };
    expect(JSON.parse(jcs(value))).toEqual(JSON.parse(JSON.stringify(value)));
  });
});

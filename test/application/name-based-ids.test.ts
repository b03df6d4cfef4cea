import fc from 'fast-check';
import { v5 } from 'uuid';
import { describe, expect, it } from 'vitest';
import { nameBasedId, uuidNamespace } from '../../engine/application/name-based-ids';

const DNS = '6ba7b810-9dad-11d1-80b4-00c04fd430c8';

describe('name-based ids', () => {
  it("are RFC 9562's UUID v5: its example, www.example.com in the DNS namespace", () => {
    expect(nameBasedId('www.example.com', uuidNamespace(DNS))).toBe('2ed6657d-e927-568b-95e1-2665a8aea6a2');
  });

  it("property: are uuid's v5 of the same name and namespace, for any well-formed name (unicode, astral, empty)", () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 80 }), fc.uuid(), (name, namespace) => {
        expect(nameBasedId(name, uuidNamespace(namespace))).toBe(v5(name, namespace));
      }),
      { numRuns: 2_000 },
    );
  });
});

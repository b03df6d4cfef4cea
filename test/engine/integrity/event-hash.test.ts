import { describe, expect, it } from 'vitest';
import { jcs } from '../../../engine/domain/integrity/canonical';
import { hashLeaf, hexOf } from '../../../engine/domain/integrity/merkle';
import { canonicalEvent, chainHashes, eventHash, hexOfBytes, leafHashOfText, sha256Bytes } from '../../../engine/integrity/event-hash';

const sent = () => ({ id: 'E5D1C0B2-0000-4000-8000-000000000001', type: 'BidPlaced', data: { b: 2, a: 'é 🏈' }, metadata: { actorId: 'u' } });

describe('canonical text of an event', () => {
  it('is its RFC 8785 text, ids in lower case', () => {
    expect(canonicalEvent({ streamId: 'auction-1', revision: 4, previousHash: 'a'.repeat(64), ...sent() })).toBe(
      `{"data":{"a":"é 🏈","b":2},"id":"e5d1c0b2-0000-4000-8000-000000000001","metadata":{"actorId":"u"},"previousHash":"${'a'.repeat(64)}","revision":4,"streamId":"auction-1","type":"BidPlaced"}`,
    );
    expect(canonicalEvent({ streamId: 'auction-1', revision: 0, previousHash: null, ...sent() })).toContain('"previousHash":null,"revision":0,');
  });

  it('is what JCS writes of the event as one object', () => {
    const event = { streamId: 'auction-1', revision: 12, previousHash: 'b'.repeat(64), ...sent() };
    expect(canonicalEvent(event)).toBe(jcs({ ...event, id: event.id.toLowerCase() }));
  });
});

describe('hashes of a sent batch', () => {
  it('chain as the events\' own hashes do', () => {
    const events = [sent(), { ...sent(), id: 'e5d1c0b2-0000-4000-8000-000000000002' }];
    const [first, second] = chainHashes('auction-1', 4, null, events);
    expect(first!.hash).toBe(eventHash({ streamId: 'auction-1', revision: 4, previousHash: null, ...events[0]! }));
    expect(second).toEqual({ previousHash: first!.hash, hash: eventHash({ streamId: 'auction-1', revision: 5, previousHash: first!.hash, ...events[1]! }) });
  });

  it('are the event\'s own wherever the same event object lands again: another revision, another hash before it, another stream', () => {
    const event = sent();
    const at = (streamId: string, revision: number, previousHash: string | null) => chainHashes(streamId, revision, previousHash, [event])[0]!.hash;
    const own = (streamId: string, revision: number, previousHash: string | null) => eventHash({ ...event, streamId, revision, previousHash });
    expect(at('auction-1', 4, null)).toBe(own('auction-1', 4, null));
    expect(at('auction-1', 4, null)).toBe(own('auction-1', 4, null));
    expect(at('auction-1', 7, null)).toBe(own('auction-1', 7, null));
    expect(at('auction-1', 7, 'a'.repeat(64))).toBe(own('auction-1', 7, 'a'.repeat(64)));
    expect(at('auction-2', 7, 'a'.repeat(64))).toBe(own('auction-2', 7, 'a'.repeat(64)));
    expect(at('auction-1', 4, null)).toBe(own('auction-1', 4, null));
  });
});

describe('the leaf hash of a text', () => {
  it("is RFC 6962's leaf hash of the text's UTF-8 bytes", async () => {
    for (const text of ['', '{"a":1}', 'é 🏈 \u0000 end']) {
      expect(Buffer.from(leafHashOfText(text)).toString('hex')).toBe(Buffer.from(await hashLeaf(new TextEncoder().encode(text))).toString('hex'));
    }
  });
});

describe('hex of bytes', () => {
  it("is merkle.ts's hexOf, for a digest and for a view into a larger buffer", () => {
    const digest = sha256Bytes(new TextEncoder().encode('bid'));
    expect(hexOfBytes(digest)).toBe(hexOf(digest));
    const larger = new Uint8Array(64).map((_, index) => index * 7);
    const view = larger.subarray(5, 37);
    expect(hexOfBytes(view)).toBe(hexOf(view));
    expect(hexOfBytes(new Uint8Array(0))).toBe('');
  });
});

import { describe, expect, it } from 'vitest';
import { canonicalEventParts, chainHashes, eventHash } from '../../../engine/integrity/event-hash';

const sent = () => ({ id: 'E5D1C0B2-0000-4000-8000-000000000001', type: 'BidPlaced', data: { b: 2, a: 'é 🏈' }, metadata: { actorId: 'u' } });

describe('canonical parts of an event', () => {
  it('are its RFC 8785 text split around previousHash and revision, ids in lower case', () => {
    const parts = canonicalEventParts({ streamId: 'auction-1', ...sent() });
    expect(parts.head).toBe('{"data":{"a":"é 🏈","b":2},"id":"e5d1c0b2-0000-4000-8000-000000000001","metadata":{"actorId":"u"},"previousHash":');
    expect(parts.tail).toBe(',"streamId":"auction-1","type":"BidPlaced"}');
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
